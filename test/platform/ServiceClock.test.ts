/** The service's clock, its test clock saved in a database, held to the clock's spec (`ServiceClockContract.ts`). */
import { Effect, Layer } from "effect"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import * as ServiceClock from "../../src/platform/ServiceClock.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { serviceClockExpectations } from "./ServiceClockContract.ts"

serviceClockExpectations({
  name: `stored, ${TestDatabase.backend}`,
  services: Layer.empty,
  withFixture: (test) =>
    Effect.scoped(Effect.flatMap(TestDatabase.reopenable, (open) =>
      test({
        clock: (clock) => ServiceClock.layer.pipe(Layer.provide(open()), Layer.provide(AppConfig.layerWith({ clock })))
      })))
})
