/**
 * Chaos 1: one server, `kill -9` five times at random moments while 20 autopilot
 * accounts work through 600 writes, restarted at once each time.
 */
import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Chaos from "./support/Chaos.ts"

it.live("chaos 1: kill -9 five times during 600 jobs on 20 accounts", () =>
  Effect.gen(function*() {
    // Five steps among the first 30 (the jobs are created over the first 20).
    const killAt = Chaos.randomSteps(5, 2, 30)
    const checked = yield* Chaos.runScenario({
      id: "1",
      title: "1. kill -9 five times during 600 jobs on 20 accounts (one server, restarted at once)",
      servers: ["a"],
      jobsPerAccount: 30,
      wave: 30,
      chaos: (world) => (step, _done, moved) =>
        killAt.has(step) ? Chaos.killAndRestart(world, world.fleet.servers[0], step, moved) : Effect.void
    })
    assert.deepStrictEqual(checked, { lost: 0, doubled: 0, stuck: 0 })
  }))
