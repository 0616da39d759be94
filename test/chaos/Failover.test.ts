/**
 * Chaos 2: three servers on one database, each creating the jobs of its own
 * accounts; `kill -9` of the one with the most work left, not restarted. Its
 * accounts' work must go on on the others by itself: the table is taken
 * when every job ended or nothing moved for 25 steps (about 40 minutes of
 * test clock), and the time from the kill to the first write of one of its
 * accounts on a new owner is measured (at most 30 s). Then one new job per
 * account of the dead server is created through a survivor, and must run too.
 */
import { assert, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { SqlClient } from "effect/sql"
import * as Chaos from "./support/Chaos.ts"

it.live("chaos 2: three servers, kill -9 of one that holds work", () =>
  Effect.gen(function*() {
    const failover = { ms: Number.NaN }
    let watcher: Fiber.Fiber<void> | undefined
    let victim = -1
    const ofVictim = (accounts: ReadonlyArray<string>) => accounts.filter((_, a) => a % 3 === victim)
    const checked = yield* Chaos.runScenario({
      id: "2",
      title: "2. three servers, kill -9 of one that holds work (not restarted)",
      servers: ["a", "b", "c"],
      jobsPerAccount: 10,
      via: (a) => a % 3,
      wave: 40,
      stallSteps: 25,
      chaos: (world) => (_step, doneRatio, moved) =>
        // Once every job is created (through its account's server) and a third of them ended.
        victim >= 0 || doneRatio < 0.3 || world.jobs.some((job) => job.id === undefined)
          ? Effect.void
          : Effect.gen(function*() {
            // The server whose accounts have the most work left.
            const open = yield* world.query(Effect.gen(function*() {
              const sql = yield* SqlClient.SqlClient
              return yield* sql<{ account: string; open: string }>`
                SELECT account_id::text AS account, count(*) AS open FROM jobs
                WHERE status IN ('queued', 'scheduled', 'running') GROUP BY account_id`
            }))
            const openOf = (index: number) =>
              open.filter((row) => world.accounts.indexOf(row.account) % 3 === index)
                .reduce((sum, row) => sum + Number(row.open), 0)
            victim = [0, 1, 2].reduce((best, index) => openOf(index) > openOf(best) ? index : best, 0)
            yield* Chaos.randomMoment(moved)
            yield* world.fleet.kill(world.fleet.servers[victim])
            const killedAt = Date.now()
            Chaos.log(
              world.scenario,
              `kill -9 of server ${world.fleet.servers[victim].name} (${openOf(victim)} open jobs on its accounts); not restarted`
            )
            watcher = yield* Effect.forkScoped(firstWrite(world.query, ofVictim(world.accounts), killedAt, failover))
          }),
      after: (world) =>
        Effect.gen(function*() {
          if (watcher !== undefined) yield* Fiber.interrupt(watcher)
          world.notes.push(
            Number.isNaN(failover.ms)
              ? "kill -9 to the first write on a new owner: none (no write of the dead server's accounts ran on the survivors)"
              : `kill -9 to the first write on a new owner: ${failover.ms} ms (real time, the harness moving the clock)`
          )
          // New work for the dead server's accounts, through a survivor.
          const survivor = world.fleet.live()[0]
          const later = Chaos.plan(ofVictim(world.accounts), 1, () => world.fleet.servers.indexOf(survivor), 100)
          Chaos.log(world.scenario, `${later.length} new jobs for the dead server's accounts, through server ${survivor.name}`)
          const { fleet, query, receiver } = world
          yield* Chaos.drive({
            scenario: world.scenario,
            fleet,
            query,
            receiver,
            jobs: later,
            wave: later.length,
            budgetMs: 45_000,
            stallSteps: 10,
            stallMs: 10_000,
            during: () => Effect.void
          })
          const counts = yield* Chaos.count(query, later, receiver)
          world.notes.push(
            `new jobs for the dead server's accounts created through a survivor afterwards: ` +
              `${counts.completed + counts.failed} of ${later.length} ended, ${counts.stuck} stuck`
          )
          return { newJobsStuck: counts.stuck, slowFailover: failover.ms <= 30_000 ? 0 : 1 }
        })
    })
    assert.deepStrictEqual(checked, { lost: 0, doubled: 0, stuck: 0, newJobsStuck: 0, slowFailover: 0 })
  }))

/** Waits for the first write of one of `accounts` after the kill, and notes how long it took. */
const firstWrite = (query: Chaos.Query, accounts: ReadonlyArray<string>, killedAt: number, failover: { ms: number }) =>
  Effect.gen(function*() {
    const writes = query(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ n: string }>`SELECT count(*) AS n FROM sandbox_writes WHERE account_id IN ${sql.in(accounts)} AND NOT refused`
      return Number(rows[0].n)
    }))
    const before = yield* writes
    while ((yield* writes) === before) yield* Chaos.realSleep(100)
    failover.ms = Date.now() - killedAt
  })
