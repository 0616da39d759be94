/**
 * What `ServiceClock` promises, run against the service's clock (`ServiceClock.test.ts`, its test
 * clock saved in a database) and against its in-memory fake, which the fast route tests of the
 * sandbox clock use (`ServiceClockMemory.test.ts`): the same expectations, so the fake cannot drift
 * from the service it stands in for. The fixture builds a clock of either mode, each build one
 * run of the service on the same saved instant (a restart).
 */
import { assert, layer } from "@effect/vitest"
import { Clock, Context, type Duration, Effect, Exit, Fiber, Layer, Scope } from "effect"
import { TestClock } from "effect/testing"
import { type ClockMode, ClockNotAdjustable, ClockWouldGoBack, ServiceClock } from "../../src/platform/ServiceClock.ts"
import type { Backend } from "../support/Backends.ts"

/** A clock of `mode`, each build of it resuming where the last one left the clock. */
export interface Clocks {
  readonly clock: (mode: ClockMode) => Layer.Layer<ServiceClock>
}

const day = 86_400_000

/** Builds `clock` in its own scope, as one run of the service. */
const start = (clock: Layer.Layer<ServiceClock>) =>
  Effect.gen(function*() {
    const scope = yield* Scope.make()
    const context = yield* Layer.buildWithScope(clock, scope)
    return { context, service: Context.get(context, ServiceClock), stop: Scope.close(scope, Exit.void) }
  })

export const serviceClockExpectations = <R>(backend: Backend<R, never, Clocks>) =>
  layer(backend.services)(`ServiceClock (${backend.name})`, (it) => {
    it.effect("the test clock starts at the real time, moves only forward, and survives a restart", () =>
      backend.withFixture(({ clock }) =>
        Effect.gen(function*() {
          const first = yield* start(clock("test"))
          assert.strictEqual(first.service.mode, "test")
          const begun = yield* first.service.now
          // TestClock alone starts at 1970; the service starts at the real time, read from the live clock.
          assert.isBelow(Math.abs(begun - (yield* TestClock.withLive(Clock.currentTimeMillis))), 60_000)
          // Nothing moves it but a move: not the passing of real time.
          yield* first.service.withRealTime(Effect.sleep("20 millis")).pipe(Effect.provideContext(first.context))
          assert.strictEqual(yield* first.service.now, begun)
          // Operational timeouts can still use the real time.
          const real = yield* first.service.withRealTime(Clock.currentTimeMillis).pipe(Effect.provideContext(first.context))
          assert.isAtLeast(real, begun)

          assert.strictEqual(yield* first.service.advance(30 * day), begun + 30 * day)
          assert.strictEqual(yield* first.service.setTo(begun + 31 * day + 5), begun + 31 * day + 5)
          const moved = yield* first.service.now
          // It is the Clock of everything run on the layer.
          assert.strictEqual(yield* Effect.provideContext(Clock.currentTimeMillis, first.context), moved)
          yield* first.stop

          const second = yield* start(clock("test"))
          assert.strictEqual(yield* second.service.now, moved, "the restart jumped")
          assert.strictEqual(yield* Effect.provideContext(Clock.currentTimeMillis, second.context), moved)
          yield* second.service.advance(1000)
          yield* second.stop

          const third = yield* start(clock("test"))
          assert.strictEqual(yield* third.service.now, moved + 1000)
          yield* third.stop
        })), { timeout: 60_000 })

    it.effect("a move back in time, or beyond the latest instant a date holds, is refused and the clock stays", () =>
      backend.withFixture(({ clock }) =>
        Effect.gen(function*() {
          const run = yield* start(clock("test"))
          const now = yield* run.service.now
          // The current instant is no move back.
          assert.strictEqual(yield* run.service.setTo(now), now)
          const back = yield* Effect.flip(run.service.setTo(now - 1))
          assert.instanceOf(back, ClockWouldGoBack)
          assert.deepStrictEqual({ now: back.now, requested: back.requested }, { now, requested: now - 1 })
          assert.strictEqual(back.message, `The clock is at ${new Date(now).toISOString()} and only moves forward.`)
          assert.instanceOf(yield* Effect.flip(run.service.advance(-1)), ClockWouldGoBack)
          const far = yield* Effect.flip(run.service.setTo(8_640_000_000_000_001))
          assert.instanceOf(far, ClockWouldGoBack)
          assert.strictEqual(far.message, "The clock cannot move that far.")
          assert.instanceOf(yield* Effect.flip(run.service.setTo(Number.NaN)), ClockWouldGoBack)
          assert.strictEqual(yield* run.service.now, now)
          yield* run.stop
          // Nor was a refused move saved.
          const again = yield* start(clock("test"))
          assert.strictEqual(yield* again.service.now, now)
          yield* again.stop
        })), { timeout: 60_000 })

    it.effect("sleepers on the test clock wake in order, each at its own instant, only when the clock passes it", () =>
      backend.withFixture(({ clock }) =>
        Effect.gen(function*() {
          const run = yield* start(clock("test"))
          const t0 = yield* run.service.now
          const sleeper = (duration: Duration.Input) =>
            Effect.sleep(duration).pipe(
              Effect.andThen(Clock.currentTimeMillis),
              Effect.provideContext(run.context),
              Effect.forkChild
            )
          const late = yield* sleeper("10 minutes")
          const early = yield* sleeper("5 minutes")
          yield* Effect.yieldNow

          yield* run.service.advance(5 * 60_000 - 1)
          assert.isUndefined(early.pollUnsafe(), "woke before its time")
          yield* run.service.advance(2 * 60_000 + 1)
          const woke = early.pollUnsafe()
          assert.isDefined(woke, "did not wake when the clock passed its time")
          assert.strictEqual(yield* Fiber.join(early), t0 + 5 * 60_000)
          assert.isUndefined(late.pollUnsafe())
          yield* run.service.setTo(t0 + 60 * 60_000)
          assert.strictEqual(yield* Fiber.join(late), t0 + 10 * 60_000)
          yield* run.stop
        })), { timeout: 60_000 })

    it.effect("the system clock reads the fiber's Clock and refuses every move", () =>
      backend.withFixture(({ clock }) =>
        Effect.gen(function*() {
          const run = yield* start(clock("system"))
          assert.strictEqual(run.service.mode, "system")
          yield* TestClock.adjust("3 days")
          assert.strictEqual(yield* run.service.now, yield* Clock.currentTimeMillis)
          assert.instanceOf(yield* Effect.flip(run.service.advance(1000)), ClockNotAdjustable)
          assert.instanceOf(yield* Effect.flip(run.service.setTo(4 * day)), ClockNotAdjustable)
          yield* run.stop
        })))
  })
