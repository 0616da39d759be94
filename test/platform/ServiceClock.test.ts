import { assert, it } from "@effect/vitest"
import { Clock, Context, type Duration, Effect, Exit, Fiber, Layer, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import { ClockNotAdjustable, ClockWouldGoBack, ServiceClock } from "../../src/platform/ServiceClock.ts"
import * as ServiceClockModule from "../../src/platform/ServiceClock.ts"
import * as TestDatabase from "../support/TestDatabase.ts"

const day = 86_400_000

/** Builds the clock layer on `database` in its own scope, as one run of the service. */
const start = (database: Layer.Layer<SqlClient.SqlClient>, clock: "system" | "test") =>
  Effect.gen(function*() {
    const scope = yield* Scope.make()
    const context = yield* Layer.buildWithScope(
      ServiceClockModule.layer.pipe(Layer.provide(database), Layer.provide(AppConfig.layerWith({ clock }))),
      scope
    )
    return { context, service: Context.get(context, ServiceClock), stop: Scope.close(scope, Exit.void) }
  })

it.effect("the test clock starts at the real time, moves only forward, and survives a restart", () =>
  Effect.gen(function*() {
    const open = yield* TestDatabase.reopenable
    const first = yield* start(open(), "test")
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

    const back = yield* Effect.flip(first.service.setTo(moved - 1))
    assert.instanceOf(back, ClockWouldGoBack)
    assert.strictEqual(back.now, moved)
    assert.strictEqual(back.requested, moved - 1)
    assert.instanceOf(yield* Effect.flip(first.service.advance(-1)), ClockWouldGoBack)
    assert.strictEqual(yield* first.service.now, moved)
    yield* first.stop

    const second = yield* start(open(), "test")
    assert.strictEqual(yield* second.service.now, moved, "the restart jumped")
    assert.strictEqual(yield* Effect.provideContext(Clock.currentTimeMillis, second.context), moved)
    yield* second.service.advance(1000)
    yield* second.stop

    const third = yield* start(open(), "test")
    assert.strictEqual(yield* third.service.now, moved + 1000)
    yield* third.stop
  }), { timeout: 60_000 })

it.effect("sleepers on the test clock wake in order, each at its own instant, only when the clock passes it", () =>
  Effect.gen(function*() {
    const open = yield* TestDatabase.reopenable
    const run = yield* start(open(), "test")
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
  }), { timeout: 60_000 })

it.effect("the system clock reads the fiber's Clock and refuses every move", () =>
  Effect.gen(function*() {
    const run = yield* start(TestDatabase.layer, "system")
    assert.strictEqual(run.service.mode, "system")
    yield* TestClock.adjust("3 days")
    assert.strictEqual(yield* run.service.now, yield* Clock.currentTimeMillis)
    assert.instanceOf(yield* Effect.flip(run.service.advance(1000)), ClockNotAdjustable)
    assert.instanceOf(yield* Effect.flip(run.service.setTo(4 * day)), ClockNotAdjustable)
    yield* run.stop
  }))
