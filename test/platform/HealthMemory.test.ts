/**
 * The in-memory `Health` (`platform/HealthMemory.ts`) held to the health check's spec (`HealthContract.ts`).
 */
import { Effect } from "effect"
import * as HealthMemory from "../../src/platform/HealthMemory.ts"
import { healthExpectations } from "./HealthContract.ts"

healthExpectations({
  name: "in memory",
  services: HealthMemory.layer,
  withFixture: (test) =>
    Effect.gen(function*() {
      const database = yield* HealthMemory.HealthSwitch
      return yield* test({
        whileDown: (effect) => Effect.ensuring(Effect.andThen(database.set(false), effect), database.set(true))
      })
    })
}, true)
