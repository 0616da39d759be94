/**
 * Chaos 3: PostgreSQL crashes and restarts (`pg_ctl restart -m immediate`)
 * twice under load, one server, 20 autopilot accounts and 200 writes. The
 * server is not touched: it must ride through on its own.
 */
import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Chaos from "./support/Chaos.ts"

it.live("chaos 3: a PostgreSQL restart under load", () =>
  Effect.gen(function*() {
    const thresholds = [0.2, 0.55]
    const checked = yield* Chaos.runScenario({
      id: "3",
      title: "3. PostgreSQL restart (immediate) twice under load (one server, 200 jobs)",
      servers: ["a"],
      jobsPerAccount: 10,
      wave: 50,
      chaos: (world) => (step, doneRatio, moved) =>
        thresholds.length === 0 || doneRatio < thresholds[0] ? Effect.void : Effect.gen(function*() {
          thresholds.shift()
          yield* Chaos.randomMoment(moved)
          const began = Date.now()
          yield* world.postgres.control("restart")
          const restarted = Date.now() - began
          const healthy = yield* Chaos.healthy(world.fleet.base(world.fleet.servers[0]))
          world.notes.push(
            `PostgreSQL restart (immediate) at step ${step}: up in ${restarted} ms; the server answered /healthz 200 ` +
              (healthy ? `${Date.now() - began} ms after the crash` : "never within 60 s")
          )
          Chaos.log(world.scenario, `PostgreSQL restarted at step ${step}`)
        })
    })
    assert.deepStrictEqual(checked, { lost: 0, doubled: 0, stuck: 0 })
  }))
