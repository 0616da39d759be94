/**
 * Chaos 4: webhook deliveries across kills. One server, `kill -9` three
 * times at random moments while 200 writes end and their `job.*` events go
 * out, restarted at once; the harness's receiver verifies every delivery
 * with the receiver's kit. Every `job.*` event in the outbox must reach it
 * at least once (the clock is moved on afterwards for the retries' backoff).
 */
import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Chaos from "./support/Chaos.ts"

it.live("chaos 4: webhook deliveries across kills", () =>
  Effect.gen(function*() {
    const killAt = Chaos.randomSteps(3, 2, 12)
    const checked = yield* Chaos.runScenario({
      id: "4",
      title: "4. webhook deliveries across three kill -9s (one server, 200 jobs, restarted at once)",
      servers: ["a"],
      jobsPerAccount: 10,
      wave: 50,
      deliveriesChecked: true,
      chaos: (world) => (step, _done, moved) =>
        killAt.has(step) ? Chaos.killAndRestart(world, world.fleet.servers[0], step, moved) : Effect.void
    })
    assert.deepStrictEqual(checked, { lost: 0, doubled: 0, stuck: 0, undelivered: 0 })
  }))
