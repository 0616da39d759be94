/**
 * Chaos 10 (issue #36): wake-ups due while a runner is dead. Three servers on
 * one PostgreSQL, 60 accounts whose one write each waits for its working
 * hours to open (09:00 to 09:59 UTC, a minute apart), so every account leaves
 * memory (`OUTREACH_ACCOUNT_IDLE_TIME` 5 s here). One server is killed with
 * `kill -9` while its accounts are out of memory, and the clock is moved past
 * every opening while it is down: every write must start within 30 s (real
 * time) of the move on a surviving server, with nothing lost, doubled or stuck.
 */
import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { send } from "../support/Processes.ts"
import * as Chaos from "./support/Chaos.ts"

const ACCOUNTS = 60
const DAY = 86_400_000
const MINUTE = 60_000
/** A wake-up fires this long (real time) after its instant came, at most. */
const WAKE_LIMIT_MS = 30_000

/** The latest `accounts in memory` each live server logged (undefined: none yet). */
const inMemory = (world: Effect.Success<ReturnType<typeof Chaos.started>>) =>
  world.fleet.live().map((server) => {
    const reports = [...(server.running?.output() ?? "").matchAll(/message="accounts in memory"[^\n]*? accounts=(\d+)/g)]
    return reports.length === 0 ? undefined : Number(reports[reports.length - 1][1])
  })

/** Waits (real time, up to `ms`) until `ready` holds, looking every 250 ms; whether it did. */
const until = (ready: Effect.Effect<boolean>, ms: number) =>
  Effect.gen(function*() {
    const began = Date.now()
    while (Date.now() - began < ms) {
      if (yield* ready) return true
      yield* Chaos.realSleep(250)
    }
    return false
  })

it.live("chaos 10: wake-ups due while a runner is dead fire on the others within 30 s", () =>
  Effect.gen(function*() {
    const began = Date.now()
    const world = yield* Chaos.started("10", ["a", "b", "c"], { OUTREACH_ACCOUNT_IDLE_TIME: "5 seconds" })
    const { accounts, receiver } = yield* Chaos.setUp("10", world.fleet, world.postgres.url, ACCOUNTS)
    const base = world.fleet.base(world.fleet.servers[0])

    // Half past midnight UTC; each account opens at 09:MM, a minute apart, and its writes wait for that.
    const now = yield* Chaos.readClock(world.fleet)
    const halfPastMidnight = Math.ceil(now / DAY) * DAY + 30 * MINUTE
    yield* Chaos.moveClock(world.fleet, halfPastMidnight)
    yield* Effect.forEach(accounts, (id, i) =>
      Effect.gen(function*() {
        const patched = yield* send("PATCH", `${base}/v1/accounts/${id}`, Chaos.chaosKey, {
          offHoursPolicy: "queue",
          workingHours: { days: [1, 2, 3, 4, 5, 6, 7], from: `09:${String(i % 60).padStart(2, "0")}`, to: "17:00", timezone: "UTC" }
        })
        if (patched.status !== 200) return yield* Effect.die(new Error(`working hours: ${JSON.stringify(patched.body)}`))
      }), { concurrency: 4, discard: true })
    const jobs = Chaos.plan(accounts, 1, (a) => a % 3)
    yield* Chaos.create(world.fleet, jobs)
    const ids = jobs.flatMap((job) => job.id === undefined ? [] : [job.id])
    assert.strictEqual(ids.length, ACCOUNTS)

    const statuses = world.query(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return yield* sql<{ id: string; status: string; waiting: string | null }>`
        SELECT id::text AS id, status, waiting_reason AS waiting FROM jobs WHERE id::text IN ${sql.in(ids)}`
    }))
    const waitingForHours = yield* until(
      Effect.map(statuses, (rows) => rows.filter((row) => row.waiting === "working_hours").length === ACCOUNTS),
      60_000
    )
    assert.isTrue(waitingForHours, "every write waits for its working hours")
    const leftMemory = yield* until(Effect.sync(() => inMemory(world).every((accounts) => accounts === 0)), 90_000)
    Chaos.log("10", `accounts in memory per server before the kill: ${JSON.stringify(inMemory(world))}`)
    assert.isTrue(leftMemory, "every server reports no account in memory")

    // Server b dies with its accounts out of memory; every opening comes while it is down.
    const victim = world.fleet.servers[1]
    const victimOutput = victim.running?.output.bind(victim.running)
    yield* world.fleet.kill(victim)
    yield* Chaos.moveClock(world.fleet, halfPastMidnight + 9.5 * 60 * MINUTE)
    const movedAt = Date.now()
    const startedAt = new Map<string, number>()
    yield* until(
      Effect.map(statuses, (rows) => {
        for (const row of rows) {
          if (row.status !== "queued" && row.status !== "scheduled" && !startedAt.has(row.id)) startedAt.set(row.id, Date.now() - movedAt)
        }
        return startedAt.size === ACCOUNTS
      }),
      90_000
    )
    const waits = [...startedAt.values()].sort((a, b) => a - b)
    const late = ids.filter((id) => (startedAt.get(id) ?? Number.POSITIVE_INFINITY) > WAKE_LIMIT_MS).length
    // The jobs end; then the counts, and where each write ran.
    yield* until(Effect.map(statuses, (rows) => rows.every((row) => row.status === "completed" || row.status === "failed")), 60_000)
    yield* Chaos.drainWebhooks("10", world.fleet, world.query, receiver, halfPastMidnight + 9.5 * 60 * MINUTE)
    const counts = yield* Chaos.count(world.query, jobs, receiver)
    const victimEndings = (victimOutput?.() ?? "").split("\n").filter((line) => /message="job (completed|failed)"/.test(line))
    const ranOnVictim = ids.filter((id) => victimEndings.some((line) => line.includes(`jobId=${id}`))).length
    // The survivors' takeovers (at start they found no account with work due, so these are the victim's).
    const tookOver = world.fleet.live().map((server) =>
      [...(server.running?.output() ?? "").matchAll(/message="governor took accounts over"[^\n]*? accounts=(\d+)/g)]
        .reduce((sum, line) => sum + Number(line[1]), 0)
    )
    Chaos.printTable(
      "10. kill -9 of one of three servers while its accounts wait out of memory; every wake-up comes during the outage",
      [...Chaos.jobColumns(counts, counts.doubled), ["late wake-ups", late], ["ran on the dead server", ranOnVictim]],
      [
        `wake-ups fired (real time after the clock passed them): p50 ${waits[Math.floor(waits.length / 2)] ?? -1} ms, ` +
        `slowest ${waits[waits.length - 1] ?? -1} ms, limit ${WAKE_LIMIT_MS} ms; accounts the survivors took over: ${JSON.stringify(tookOver)}`,
        `failed by type: ${JSON.stringify(counts.failures)}; stuck by status: ${JSON.stringify(counts.stuckStatuses)}`,
        `scenario time: ${((Date.now() - began) / 1000).toFixed(0)} s`
      ]
    )
    assert.deepStrictEqual(
      { lost: counts.lost, doubled: counts.doubled, stuck: counts.stuck, late, ranOnVictim },
      { lost: 0, doubled: 0, stuck: 0, late: 0, ranOnVictim: 0 }
    )
  }), 600_000)
