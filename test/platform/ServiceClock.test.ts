/** The service's clock, its test clock saved in a database, held to the clock's spec (`ServiceClockContract.ts`). */
import { assert, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import { Notices } from "../../src/platform/Notices.ts"
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

layer(Notices.layer.pipe(Layer.provideMerge(TestDatabase.layer)))("ServiceClock, servers sharing a database", (it) => {
  it.effect("a move of one server's test clock is made on the others' too", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = Effect.map(Effect.flatMap(ServiceClock.storedClock, ServiceClock.makeTestClock), Context.get(ServiceClock.ServiceClock))
      const one = yield* server
      const two = yield* server
      // The second resumed at the instant the first saved.
      assert.strictEqual(yield* two.now, yield* one.now)
      const heard = (clock: ServiceClock.ServiceClock["Service"], at: number) =>
        Effect.repeat(Effect.andThen(Effect.yieldNow, clock.now), { until: (now) => now === at })
      const moved = yield* one.advance(3_600_000)
      yield* heard(two, moved)
      const set = yield* two.setTo(moved + 86_400_000)
      yield* heard(one, set)
      // Each move was saved: a third server starts where they are.
      assert.strictEqual(yield* (yield* server).now, set)
    })), { timeout: 60_000 })
})
