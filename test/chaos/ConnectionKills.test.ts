/**
 * Chaos 6 (issue #29): the database connections cut under the writes. Two
 * servers on one PostgreSQL; ten times, at random moments of random steps at
 * least 3 s apart, every session of the service is ended
 * (`pg_terminate_backend`), the commits that
 * mark writes running or finished among them; then PostgreSQL is stopped for
 * 15 seconds while the workload goes on (requests answer 503), and started
 * again. The service must find out what each cut commit did before acting
 * again: no job key attempted twice on the network, no two writes of one
 * account in flight at once, nothing lost or stuck, and no job waiting more
 * than 10 seconds with no actor looking at it (outside the outage). Answers
 * other than 2xx and 503 are printed.
 */
import { assert, it } from "@effect/vitest"
import { randomInt } from "node:crypto"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Chaos from "./support/Chaos.ts"
import { inBackground, runFenced } from "./support/FencedScenario.ts"

it.live("chaos 6: connections killed in ten rounds, and a 15-second PostgreSQL outage", () =>
  Effect.gen(function*() {
    // Ten rounds, at random steps from the second, at least 3 s of real time apart (the runners retake the shard
    // locks the ended sessions held).
    let kills = 0
    let lastKillAt = 0
    const began = Date.now()
    let outage = false
    const { longestUnlookedMs, verdict } = yield* runFenced({
      id: "6",
      title: "6. pg_terminate_backend of the service's sessions ten times, then a 15 s PostgreSQL outage (two servers)",
      servers: ["a", "b"],
      jobsPerAccount: 20,
      via: (a) => a % 2,
      wave: 40,
      budgetMs: 200_000,
      chaos: (world) => (step, doneRatio, moved) =>
        Effect.gen(function*() {
          if (kills < 10 && step >= 2 && Date.now() - lastKillAt >= 3_000 && randomInt(2) === 0) {
            kills++
            lastKillAt = Date.now()
            yield* Chaos.randomMoment(moved)
            // The servers' sessions (their application name), not the harness's own.
            const killed = yield* world.query(Effect.gen(function*() {
              const sql = yield* SqlClient.SqlClient
              const sessions = yield* sql<{ pid: number }>`
                SELECT pid FROM pg_stat_activity WHERE application_name = 'outreach-service'`
              const pids = sessions.map((session) => session.pid)
              if (pids.length > 0) yield* sql`SELECT pg_terminate_backend(pid) FROM unnest(${pids}::int[]) AS pid`
              return pids
            }))
            world.notes.push(`step ${step}: ${killed.length} sessions ended, ${((Date.now() - began) / 1000).toFixed(1)} s into the scenario`)
            Chaos.log(world.scenario, `step ${step}: ${killed.length} sessions ended`)
          }
          if (!outage && doneRatio >= 0.6) {
            outage = true
            yield* inBackground(world, Effect.gen(function*() {
              yield* Chaos.randomMoment(moved)
              // What waits through the outage has a reason of its own.
              world.unlooked.excuse()
              yield* world.postgres.control("stop")
              const stoppedAt = Date.now()
              Chaos.log(world.scenario, `PostgreSQL stopped at step ${step}`)
              yield* Chaos.realSleep(15_000)
              yield* world.postgres.control("start")
              world.unlooked.resume()
              const healthy = yield* Effect.forEach(world.fleet.live(), (server) => Chaos.healthy(world.fleet.base(server)))
              world.notes.push(
                `PostgreSQL stopped at step ${step} for 15 s, ${((stoppedAt - began) / 1000).toFixed(1)} s into the scenario: ` +
                  `started again after ${Date.now() - stoppedAt} ms; ` +
                  `every server answered /healthz 200 again: ${healthy.every(Boolean)} (${Date.now() - stoppedAt} ms after the stop)`
              )
            }))
          }
        })
    })
    assert.deepStrictEqual(verdict, { lost: 0, doubled: 0, stuck: 0, overlaps: 0 })
    assert.isAtMost(longestUnlookedMs, 10_000, "no job waits more than 10 s with no actor looking at it")
  }), 600_000)
