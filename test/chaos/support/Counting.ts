/**
 * The counts of the fencing scenarios (issue #29), shared by every chaos
 * scenario that needs them: what the sandbox network saw of each write
 * attempt (it records every one, refused or not, with its fencing token and
 * its window in real time), how the requests were answered, and how long
 * open jobs waited with no actor looking at them.
 *
 * - doubled: job keys with more than one attempt that reached the network
 *   (not refused as stale): a real network would have carried each out;
 * - overlaps: pairs of attempts of one account, not refused, whose windows
 *   overlap (two writes of one account in flight at once);
 * - refused stale: attempts the network refused because a newer owner of the
 *   account had shown a newer token (the fence at work; not a write);
 * - other answers: requests answered with a status other than 2xx or 503.
 */
import { Effect, Fiber } from "effect"
import { SqlClient } from "effect/sql"
import type { Counts, Query } from "./Chaos.ts"
import { jobColumns, printTable, realSleep } from "./Chaos.ts"

/** What the sandbox network saw of the write attempts. */
export interface Attempts {
  /** Attempts recorded, refused ones included. */
  readonly attempts: number
  /** Job keys attempted more than once on the network. */
  readonly doubled: number
  /** Pairs of one account's attempts in flight at once. */
  readonly overlaps: number
  /** The longest such overlap, in ms (0 without one). */
  readonly longestOverlapMs: number
  /** Attempts the network refused as stale (an older fencing token). */
  readonly refusedStale: number
  /** Each key attempted twice: its attempts (fence, real-time window, whether one failed), for tracing it in the logs. */
  readonly doubledAttempts: ReadonlyArray<string>
}

export const attempts = (query: Query) =>
  query(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [totals] = yield* sql<{ attempts: string; refused: string }>`
      SELECT count(*) AS attempts, count(*) FILTER (WHERE refused) AS refused FROM sandbox_writes`
    const [doubled] = yield* sql<{ n: string }>`
      SELECT count(*) AS n FROM (
        SELECT key FROM sandbox_writes WHERE NOT refused GROUP BY key HAVING count(*) > 1
      ) AS keys`
    const [overlaps] = yield* sql<{ n: string; longest: string | null }>`
      SELECT count(*) AS n,
        max(LEAST(a.ended_real_ms, b.ended_real_ms) - GREATEST(a.began_real_ms, b.began_real_ms)) AS longest
      FROM sandbox_writes a JOIN sandbox_writes b
        ON b.account_id = a.account_id AND b.id > a.id AND NOT a.refused AND NOT b.refused
        AND a.began_real_ms < b.ended_real_ms AND b.began_real_ms < a.ended_real_ms`
    const twice = yield* sql<{ key: string; accountId: string; fence: string | null; began: string | null; ended: string | null; failed: boolean }>`
      SELECT key, account_id AS "accountId", fence::text AS fence, began_real_ms::text AS began, ended_real_ms::text AS ended,
        result IS NULL AS failed
      FROM sandbox_writes
      WHERE NOT refused AND key IN (SELECT key FROM sandbox_writes WHERE NOT refused GROUP BY key HAVING count(*) > 1)
      ORDER BY key, id`
    return {
      attempts: Number(totals.attempts),
      doubled: Number(doubled.n),
      doubledAttempts: twice.map((row) =>
        `job ${row.key} (account ${row.accountId}): fence ${row.fence}, ${row.began}-${row.ended} ms${row.failed ? ", refused by the network's rules" : ""}`
      ),
      overlaps: Number(overlaps.n),
      longestOverlapMs: Number(overlaps.longest ?? 0),
      refusedStale: Number(totals.refused)
    } satisfies Attempts
  }))

/** The failed jobs' error types and messages, with how many (the most frequent first, ten at most). */
export const failureMessages = (query: Query) =>
  query(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<{ type: string; message: string; n: string }>`
      SELECT error->>'type' AS type, error->>'message' AS message, count(*) AS n FROM jobs
      WHERE status = 'failed' GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 10`
  }))

/** How a scenario's requests were answered. */
export class Requests {
  ok = 0
  unavailable = 0
  /** Answered with another status, by status. */
  readonly other = new Map<number, number>()
  /** No answer (the connection failed: a server stopped or killed). */
  unanswered = 0

  /** Counts one request's answer (undefined: none came). */
  record(status: number | undefined) {
    if (status === undefined) this.unanswered++
    else if (status >= 200 && status < 300) this.ok++
    else if (status === 503) this.unavailable++
    else this.other.set(status, (this.other.get(status) ?? 0) + 1)
  }

  get others() {
    return [...this.other.values()].reduce((sum, n) => sum + n, 0)
  }

  describe() {
    return `requests: ${this.ok} 2xx, ${this.unavailable} 503, ${this.others} other ${
      JSON.stringify(Object.fromEntries(this.other))
    }, ${this.unanswered} without an answer`
  }
}

/**
 * Watches, every half second of real time until the scope closes, how long each open job waits queued with no
 * actor having looked at it (no reason recorded), of the reads and of the first open write of each account (the
 * writes behind it wait for it); `longest()` is the longest such wait seen, in ms.
 */
export const watchUnlooked = (query: Query) =>
  Effect.gen(function*() {
    const firstSeen = new Map<string, number>()
    let longest = 0
    /** When (epoch ms) the longest wait was last seen going on. */
    let longestSeenAt = 0
    const look = query(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // The head of each account's writes (those behind it wait for it: a reason of their own), and the reads.
      return yield* sql<{ id: string }>`
        SELECT id::text AS id FROM (
          SELECT DISTINCT ON (account_id) id, status, waiting_reason FROM jobs
          WHERE status IN ('queued', 'scheduled', 'running') AND is_write ORDER BY account_id, seq
        ) AS heads WHERE status = 'queued' AND waiting_reason IS NULL
        UNION ALL
        SELECT id::text FROM jobs WHERE NOT is_write AND status = 'queued' AND waiting_reason IS NULL`
    }))
    let excused = false
    const fiber = yield* Effect.forkScoped(Effect.forever(Effect.gen(function*() {
      const rows = yield* look
      const now = Date.now()
      if (excused) return yield* realSleep(500)
      const open = new Set(rows.map((row) => row.id))
      for (const id of open) if (!firstSeen.has(id)) firstSeen.set(id, now)
      for (const [id, since] of firstSeen) {
        if (!open.has(id)) firstSeen.delete(id)
        else if (now - since > longest) {
          longest = now - since
          longestSeenAt = now
        }
      }
      yield* realSleep(500)
    })))
    return {
      longest: () => longest,
      longestSeenAt: () => longestSeenAt,
      /** Until `resume`, waits have a reason of their own (a database outage, say): they are not counted. */
      excuse: () => {
        excused = true
      },
      resume: () => {
        firstSeen.clear()
        excused = false
      },
      stop: Fiber.interrupt(fiber)
    }
  })

export type UnlookedWatch = Effect.Success<ReturnType<typeof watchUnlooked>>

/** The fencing table of a scenario: the job counts with what the network saw and how requests were answered. */
export const reportFencing = (title: string, counts: Counts, seen: Attempts, requests: Requests, notes: ReadonlyArray<string>) => {
  const columns: ReadonlyArray<readonly [string, number]> = [
    ...jobColumns(counts, Math.max(counts.doubled, seen.doubled)),
    ["overlaps", seen.overlaps],
    ["refused stale", seen.refusedStale],
    ["other answers", requests.others]
  ]
  printTable(title, columns, [
    `network attempts: ${seen.attempts}; longest overlap: ${seen.longestOverlapMs} ms; ` +
    `doubled by the network's record: ${seen.doubled}, by the job counts' evidence: ${counts.doubled} ${JSON.stringify(counts.doubles)}`,
    ...seen.doubledAttempts.map((line) => `attempted twice: ${line}`),
    `failed by type: ${JSON.stringify(counts.failures)}; stuck by status: ${JSON.stringify(counts.stuckStatuses)}`,
    requests.describe(),
    ...notes
  ])
}

/** The counts a fencing scenario fails on (each must be 0); the answers other than 2xx and 503 are printed only. */
export const fencingVerdict = (counts: Counts, seen: Attempts) => ({
  lost: counts.lost,
  doubled: Math.max(counts.doubled, seen.doubled),
  stuck: counts.stuck,
  overlaps: seen.overlaps
})
