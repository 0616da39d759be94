/**
 * What the peer scenarios (issue #29: a row held by a stuck peer, rolling
 * restarts) add to the chaos harness: a client that keeps requests going the
 * way an integrator's would (on 503 it waits `retry-after` and asks again, on
 * a refused connection it asks another server) and counts every answer and
 * how long each took; a watch of how long an account with due work stood
 * still; overlapping writes of one account; and a graceful stop (SIGTERM).
 */
import { randomInt } from "node:crypto"
import { Effect, Fiber } from "effect"
import { SqlClient } from "effect/sql"
import { stop } from "../../support/Processes.ts"
import { begin, type ChaosServer, chaosKey, type Counts, type Fleet, log, plan, type PlannedJob, type Query, realSleep } from "./Chaos.ts"

/** How a scenario's requests were answered, and how long they took. */
export class Requests {
  ok = 0
  unavailable = 0
  /** Answered with another status, by status. */
  readonly other = new Map<number, number>()
  /** No answer (the connection failed: a server stopped). */
  unanswered = 0
  /** Requests retried after a 503 or a refused connection, and then answered otherwise. */
  retried = 0
  /** The slowest single answer, in ms, and what it was. */
  slowest = { ms: 0, what: "" }

  record(status: number | undefined, ms: number, what: string) {
    if (status === undefined) this.unanswered++
    else if (status >= 200 && status < 300) this.ok++
    else if (status === 503) this.unavailable++
    else this.other.set(status, (this.other.get(status) ?? 0) + 1)
    if (status !== undefined && ms > this.slowest.ms) this.slowest = { ms, what: `${what} -> ${status}` }
  }

  get others() {
    return [...this.other.values()].reduce((sum, n) => sum + n, 0)
  }

  describe() {
    return `requests: ${this.ok} 2xx, ${this.unavailable} 503, ${this.others} other ${
      JSON.stringify(Object.fromEntries(this.other))
    }, ${this.unanswered} without an answer (connection refused or cut), ${this.retried} retried until answered; ` +
      `slowest answer ${this.slowest.ms} ms (${this.slowest.what})`
  }
}

/** One request: its status (undefined without an answer), `retry-after`, body and time taken. */
const once = (method: string, url: string, token: string, body?: unknown, headers: Record<string, string> = {}) =>
  Effect.promise(async () => {
    const began = performance.now()
    try {
      const response = await fetch(url, {
        signal: AbortSignal.timeout(30_000),
        method,
        headers: {
          ...headers,
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { "content-type": "application/json" })
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      const json: any = await response.json().catch(() => undefined)
      return {
        status: response.status,
        retryAfter: Number(response.headers.get("retry-after") ?? "1"),
        body: json,
        ms: performance.now() - began
      }
    } catch {
      return { status: undefined, retryAfter: 0, body: undefined, ms: performance.now() - began }
    }
  })

/**
 * A request as a client sends it: to `server` (or, when its connection is refused, another live one),
 * again after `retry-after` on a 503, up to `tries` times. Every answer is counted in `requests`.
 */
export const request = (options: {
  readonly fleet: Fleet
  readonly requests: Requests
  readonly token: string
  readonly method: string
  readonly path: string
  readonly body?: unknown
  readonly headers?: Record<string, string>
  readonly what: string
  readonly tries?: number
  /** Where each answer's time goes, besides `requests` (the unrelated requests of a scenario, say). */
  readonly timed?: (ms: number) => void
}) =>
  Effect.gen(function*() {
    const { fleet, requests } = options
    const tries = options.tries ?? 8
    for (let attempt = 1; attempt <= tries; attempt++) {
      const live = fleet.live()
      if (live.length === 0) {
        yield* realSleep(250)
        continue
      }
      const server = live[randomInt(live.length)]
      const answer = yield* once(options.method, `${fleet.base(server)}${options.path}`, options.token, options.body, options.headers)
      requests.record(answer.status, answer.ms, options.what)
      if (answer.status !== undefined) options.timed?.(answer.ms)
      if (answer.status !== undefined && answer.status !== 503) {
        if (attempt > 1) requests.retried++
        return answer
      }
      // A client waits as told (capped: the harness has a budget), or a moment before another server.
      yield* realSleep(answer.status === 503 ? Math.min(answer.retryAfter, 2) * 1000 : 100)
    }
    return undefined
  })

/** A key of the workspace for a scenario's own load, so it has a rate window of its own. */
export const loadKey = (fleet: Fleet) =>
  Effect.gen(function*() {
    const requests = new Requests()
    const created = yield* request({ fleet, requests, token: chaosKey, method: "POST", path: "/v1/keys", body: { name: "chaos load" }, what: "POST /v1/keys" })
    if (created?.status !== 201) return yield* Effect.die(new Error(`creating the load's key: ${JSON.stringify(created?.body)}`))
    return String(created.body.value)
  })

/**
 * Keeps a client's requests going until the scope closes: creates the planned jobs not yet created
 * (`perSecond`, each under its token as `Idempotency-Key`, so a retry is the same job), and between
 * them reads the caller, a created job and an account. `skip` leaves jobs and accounts out of the reads.
 */
export const load = (options: {
  readonly fleet: Fleet
  readonly requests: Requests
  readonly token: string
  readonly jobs: ReadonlyArray<PlannedJob>
  readonly accounts: ReadonlyArray<string>
  readonly perSecond: number
  /** Called with each answer's time and whether the request touched `avoid`'s job or account. */
  readonly timed?: (ms: number, touched: boolean) => void
  /** A job (and its account) the timing calls `touched`. */
  readonly avoid?: () => { readonly jobId: string; readonly accountId: string } | undefined
}) =>
  Effect.forkScoped(Effect.gen(function*() {
    const { fleet, requests, token } = options
    let turn = 0
    while (true) {
      turn++
      const avoided = options.avoid?.()
      const pending = options.jobs.find((job) => job.id === undefined)
      const created = options.jobs.filter((job) => job.id !== undefined)
      const touching = (accountId: string, jobId?: string) =>
        avoided !== undefined && (accountId === avoided.accountId || jobId === avoided.jobId)
      if (pending !== undefined && turn % 3 !== 0) {
        const touched = touching(pending.account)
        const answer = yield* request({
          fleet,
          requests,
          token,
          method: "POST",
          path: `/v1/accounts/${pending.account}/${pending.command}`,
          body: pending.input,
          headers: { "idempotency-key": pending.token },
          what: `POST ${pending.command}`,
          timed: (ms) => options.timed?.(ms, touched)
        })
        if (answer?.status === 202 && pending.id === undefined) {
          pending.id = String(answer.body.job.id)
          pending.createdAtMs = Date.now()
        }
      } else {
        const job = created.length === 0 ? undefined : created[randomInt(created.length)]
        const account = options.accounts[randomInt(options.accounts.length)]
        const kind = randomInt(3)
        const [path, touched] = kind === 0 || job === undefined
          ? ["/v1/me", false]
          : kind === 1
          ? [`/v1/jobs/${job.id}`, touching(job.account, job.id)]
          : [`/v1/accounts/${account}`, touching(account)]
        yield* request({ fleet, requests, token, method: "GET", path, what: `GET ${path.replace(/[0-9a-f-]{36}/g, "{id}")}`, timed: (ms) => options.timed?.(ms, touched) })
      }
      yield* realSleep(Math.round(1000 / options.perSecond))
    }
  }))

/**
 * Watches, every 250 ms of real time, how long each account stood still with due work: its head write
 * queued, or scheduled for an instant the test clock has passed, and no job of the account started
 * or finished meanwhile. `longest()` is the longest such standstill seen, in ms, with its account.
 */
export const watchStandstill = (query: Query) =>
  Effect.gen(function*() {
    /** Per account: what it looked like (its jobs started and finished) and since when it stands still with due work. */
    const seen = new Map<string, { signature: string; dueSince: number | undefined }>()
    let longest = { ms: 0, account: "" }
    const look = query(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return yield* sql<{ account: string; signature: string; due: boolean }>`
        WITH clock AS (SELECT to_timestamp(now_ms / 1000.0) AS now FROM sandbox_clock WHERE id = 1),
        heads AS (
          SELECT DISTINCT ON (account_id) account_id, status, eta FROM jobs
          WHERE status IN ('queued', 'scheduled', 'running') AND is_write ORDER BY account_id, seq
        )
        SELECT j.account_id::text AS account,
          count(*) FILTER (WHERE j.status IN ('completed', 'failed', 'cancelled')) || '/' ||
            count(*) FILTER (WHERE j.status = 'running') || '/' || count(j.attempt_started_at) AS signature,
          COALESCE(bool_or(h.status = 'queued' OR (h.status = 'scheduled' AND h.eta <= (SELECT now FROM clock))), false) AS due
        FROM jobs j LEFT JOIN heads h ON h.account_id = j.account_id
        GROUP BY j.account_id`
    }))
    const fiber = yield* Effect.forkScoped(Effect.forever(Effect.gen(function*() {
      const rows = yield* look
      const now = Date.now()
      for (const row of rows) {
        const before = seen.get(row.account)
        const moved = before === undefined || before.signature !== row.signature
        const dueSince = !row.due ? undefined : moved || before?.dueSince === undefined ? now : before.dueSince
        seen.set(row.account, { signature: row.signature, dueSince })
        if (dueSince !== undefined && now - dueSince > longest.ms) longest = { ms: now - dueSince, account: row.account }
      }
      yield* realSleep(250)
    })))
    return { longest: () => longest, stop: Fiber.interrupt(fiber) }
  })

/** Pairs of one account's writes whose attempts overlap (both running at once), as the jobs record them. */
export const overlaps = (query: Query) =>
  query(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ n: string }>`
      SELECT count(*) AS n FROM jobs a JOIN jobs b
        ON b.account_id = a.account_id AND b.seq > a.seq AND a.is_write AND b.is_write
        AND a.attempt_started_at IS NOT NULL AND b.attempt_started_at IS NOT NULL
        AND a.attempt_started_at < COALESCE(b.finished_at, 'infinity') AND b.attempt_started_at < COALESCE(a.finished_at, 'infinity')`
    return Number(row.n)
  }))

/** SIGTERM, and waits for the process to exit: its exit code and how long the stop took (ms). */
export const stopGracefully = (scenario: string, server: ChaosServer) =>
  Effect.gen(function*() {
    const running = server.running
    if (running === undefined) return { code: null, ms: 0 }
    const began = Date.now()
    const code = yield* stop(running)
    server.running = undefined
    const ms = Date.now() - began
    log(scenario, `SIGTERM to server ${server.name}: exited ${code} after ${ms} ms`)
    return { code, ms }
  })


/**
 * A peer scenario's world: three servers (a, b, c) on one database, 20 autopilot accounts, `perAccount`
 * writes planned for each (created by the scenario's load, not by the harness's waves), the requests'
 * counts and a key of the load's own.
 */
export const world = (scenario: string, perAccount: number) =>
  Effect.gen(function*() {
    const began = Date.now()
    const world = yield* begin(scenario, ["a", "b", "c"], 20)
    const jobs = plan(world.accounts, perAccount, () => 0)
    const token = yield* loadKey(world.fleet)
    return { ...world, began, jobs, requests: new Requests(), token }
  })

/** The counts every peer scenario fails on (each must be 0); a scenario adds its own. */
export const verdict = (counts: Counts, overlapping: number, requests: Requests) => ({
  lost: counts.lost,
  doubled: counts.doubled,
  stuck: counts.stuck,
  overlaps: overlapping,
  otherAnswers: requests.others
})

/** What {@link verdict} must be. */
export const allZero = { lost: 0, doubled: 0, stuck: 0, overlaps: 0, otherAnswers: 0 }
