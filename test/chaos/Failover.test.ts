/**
 * Chaos 2: three servers on one database, each creating the jobs of its own
 * accounts; `kill -9` of the one with the most work left, not restarted. Its
 * accounts' work must go on on the others by itself: the table is taken
 * when every job ended or nothing moved for 25 steps (about 40 minutes of
 * test clock), and the time from the kill to the first write of one of its
 * accounts on a new owner is measured. Then one new job per account of the
 * dead server is created through a survivor, and must run too.
 */
import { randomInt } from "node:crypto"
import { assert, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { SqlClient } from "effect/sql"
import { postgresBin } from "../support/OwnPostgres.ts"
import * as Chaos from "./support/Chaos.ts"

it.live.skipIf(postgresBin === undefined)("chaos 2: three servers, kill -9 of one that holds work", () =>
  Effect.gen(function*() {
    const scenario = "2"
    const { fleet, query, accounts, receiver } = yield* Chaos.begin(scenario, ["a", "b", "c"], 20)
    const jobs = Chaos.plan(accounts, 10, (a) => a % 3)
    const failover = { ms: Number.NaN }
    let watcher: Fiber.Fiber<void> | undefined
    let victim = -1
    const driven = yield* Chaos.drive({
      scenario,
      fleet,
      query,
      jobs,
      receiver,
      wave: 40,
      budgetMs: 120_000,
      stallSteps: 25,
      during: (_step, doneRatio) =>
        // Once every job is created (through its account's server) and a third of them ended.
        victim >= 0 || doneRatio < 0.3 || jobs.some((job) => job.id === undefined)
          ? Effect.void
          : Effect.gen(function*() {
            // The server whose accounts have the most work left.
            const open = yield* query(Effect.gen(function*() {
              const sql = yield* SqlClient.SqlClient
              return yield* sql<{ account: string; open: string }>`
                SELECT account_id::text AS account, count(*) AS open FROM jobs
                WHERE status IN ('queued', 'scheduled', 'running') GROUP BY account_id`
            }))
            const openOf = (index: number) =>
              open.filter((row) => accounts.indexOf(row.account) % 3 === index)
                .reduce((sum, row) => sum + Number(row.open), 0)
            victim = [0, 1, 2].reduce((best, index) => openOf(index) > openOf(best) ? index : best, 0)
            yield* Chaos.realSleep(randomInt(0, 400))
            yield* fleet.kill(fleet.servers[victim])
            const killedAt = Date.now()
            Chaos.log(
              scenario,
              `kill -9 of server ${fleet.servers[victim].name} (${openOf(victim)} open jobs on its accounts); not restarted`
            )
            watcher = yield* Effect.forkScoped(firstWrite(query, victimAccounts(accounts, victim), killedAt, failover))
          })
    })
    if (watcher !== undefined) yield* Fiber.interrupt(watcher)
    yield* Chaos.drainWebhooks(scenario, fleet, query, receiver, driven.nowMs)
    const counts = yield* Chaos.count(query, jobs, receiver)

    // Then new work for the dead server's accounts, through a survivor.
    const survivor = fleet.live()[0]
    const later = Chaos.plan(victimAccounts(accounts, victim), 1, () => fleet.servers.indexOf(survivor), 100)
    Chaos.log(scenario, `${later.length} new jobs for the dead server's accounts, through server ${survivor.name}`)
    yield* Chaos.drive({ scenario, fleet, query, jobs: later, receiver, wave: later.length, budgetMs: 30_000, stallSteps: 10, during: () => Effect.void })
    const laterCounts = yield* Chaos.count(query, later, receiver)

    Chaos.report("2. three servers, kill -9 of one that holds work (not restarted)", counts, [
      `driving: ${driven.ended}, ${driven.testClockHours.toFixed(1)} h of test clock`,
      fleet.settled(),
      Number.isNaN(failover.ms)
        ? "kill -9 to the first write on a new owner: none (no write of the dead server's accounts ran on the survivors)"
        : `kill -9 to the first write on a new owner: ${failover.ms} ms (real time, the harness moving the clock)`,
      `new jobs for the dead server's accounts created through a survivor afterwards: ${laterCounts.completed + laterCounts.failed} of ${later.length} ended, ${laterCounts.stuck} stuck`
    ])
    assert.deepStrictEqual(
      { lost: counts.lost, doubled: counts.doubled, stuck: counts.stuck, newJobsStuck: laterCounts.stuck },
      { lost: 0, doubled: 0, stuck: 0, newJobsStuck: 0 }
    )
    assert.isAtMost(failover.ms, 30_000, "kill -9 to the first write on a new owner")
  }))

const victimAccounts = (accounts: ReadonlyArray<string>, victim: number) => accounts.filter((_, a) => a % 3 === victim)

/** Waits for the first write of one of `accounts` after the kill, and notes how long it took. */
const firstWrite = (query: Chaos.Query, accounts: ReadonlyArray<string>, killedAt: number, failover: { ms: number }) =>
  Effect.gen(function*() {
    const writes = query(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ n: string }>`SELECT count(*) AS n FROM sandbox_writes WHERE account_id IN ${sql.in(accounts)}`
      return Number(rows[0].n)
    }))
    const before = yield* writes
    while ((yield* writes) === before) yield* Chaos.realSleep(100)
    failover.ms = Date.now() - killedAt
  })
