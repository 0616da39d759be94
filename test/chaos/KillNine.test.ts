/**
 * Chaos 1: one server, `kill -9` five times at random moments while 20 autopilot
 * accounts work through 600 writes, restarted at once each time.
 */
import { randomInt } from "node:crypto"
import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import { postgresBin } from "../support/OwnPostgres.ts"
import * as Chaos from "./support/Chaos.ts"

it.live.skipIf(postgresBin === undefined)("chaos 1: kill -9 five times during 600 jobs on 20 accounts", () =>
  Effect.gen(function*() {
    const scenario = "1"
    const { fleet, query, accounts, receiver } = yield* Chaos.begin(scenario, ["a"], 20)
    const server = fleet.servers[0]
    const jobs = Chaos.plan(accounts, 30, () => 0)
    // Five distinct steps among the first 30 (the jobs are created over the first 20).
    const killAt = new Set<number>()
    while (killAt.size < 5) killAt.add(randomInt(2, 31))
    const restarts: Array<string> = []
    const driven = yield* Chaos.drive({
      scenario,
      fleet,
      query,
      jobs,
      receiver,
      wave: 30,
      budgetMs: 150_000,
      during: (step) =>
        killAt.has(step)
          ? Effect.gen(function*() {
            yield* Chaos.realSleep(randomInt(0, 400))
            yield* fleet.kill(server)
            const killed = Date.now()
            yield* fleet.start(server)
            restarts.push(`step ${step}: ready ${Date.now() - killed} ms after kill -9`)
            Chaos.log(scenario, `kill -9 at step ${step}, restarted`)
          })
          : Effect.void
    })
    yield* Chaos.drainWebhooks(scenario, fleet, query, receiver, driven.nowMs)
    const counts = yield* Chaos.count(query, jobs, receiver)
    Chaos.report("1. kill -9 five times during 600 jobs on 20 accounts (one server, restarted at once)", counts, [
      `driving: ${driven.ended}, ${driven.testClockHours.toFixed(1)} h of test clock`,
      fleet.settled(),
      ...restarts
    ])
    assert.deepStrictEqual({ lost: counts.lost, doubled: counts.doubled, stuck: counts.stuck }, { lost: 0, doubled: 0, stuck: 0 })
  }))
