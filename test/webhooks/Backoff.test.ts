import { assert, describe, it } from "@effect/vitest"
import { Clock, Effect, Fiber, Option, Random } from "effect"
import { TestClock } from "effect/testing"
import {
  jitterRatio,
  maxAttempts,
  maxRetryDelayMs,
  nextAttemptAt,
  retryDelayMs,
  retryDelays,
  webhookBackoff
} from "../../src/webhooks/Backoff.ts"

const minute = 60_000
const sixHours = 6 * 60 * minute

/** A Random that always answers `value`, so the jitter is known. */
const fixedRandom = (value: number) =>
  Effect.provideService(Random.Random, { nextDoubleUnsafe: () => value, nextIntUnsafe: () => 0 })

/**
 * Runs an always-failing delivery under `webhookBackoff`, moving the test
 * clock far enough for every retry, and returns the clock time of each attempt.
 */
const attemptTimes = <R>(provide: (self: Effect.Effect<void, string>) => Effect.Effect<void, string, R>) =>
  Effect.gen(function*() {
    const times: Array<number> = []
    const attempt = Effect.gen(function*() {
      times.push(yield* Clock.currentTimeMillis)
      return yield* Effect.fail("endpoint answered 500")
    })
    const fiber = yield* Effect.forkChild(provide(Effect.retry(attempt, webhookBackoff)))
    yield* TestClock.adjust("3 days")
    const exit = yield* Fiber.await(fiber)
    assert.isTrue(exit._tag === "Failure", "gives up with the last error")
    return times
  })

const gaps = (times: ReadonlyArray<number>): Array<number> => times.slice(1).map((t, i) => t - (times[i] ?? 0))

describe("Backoff", () => {
  it("the nominal curve starts at one minute, grows exponentially and is capped at 6 hours", () => {
    assert.deepStrictEqual(retryDelays, [
      1 * minute,
      3 * minute,
      9 * minute,
      27 * minute,
      81 * minute,
      243 * minute,
      sixHours
    ])
    assert.strictEqual(retryDelays.length, maxAttempts - 1)
    assert.strictEqual(maxRetryDelayMs, sixHours)
  })

  it("jittered delays stay within ±20% and never exceed 6 hours", () => {
    for (let retry = 1; retry <= retryDelays.length; retry++) {
      const nominal = retryDelays[retry - 1] ?? 0
      for (const random of [0, 0.1, 0.25, 0.5, 0.75, 0.999999]) {
        const delay = retryDelayMs(retry, random)
        assert.isAtLeast(delay, Math.floor(nominal * (1 - jitterRatio)), `retry ${retry} random ${random}`)
        assert.isAtMost(delay, Math.ceil(nominal * (1 + jitterRatio)), `retry ${retry} random ${random}`)
        assert.isAtMost(delay, sixHours, `retry ${retry} random ${random}`)
      }
      assert.strictEqual(retryDelayMs(retry, 0.5), nominal)
    }
    assert.strictEqual(retryDelayMs(1, 0), 48_000)
    assert.strictEqual(retryDelayMs(1, 0.999999), 72_000)
    // Jitter must not lift the capped step above 6 hours.
    assert.strictEqual(retryDelayMs(7, 0.999999), sixHours)
  })

  it("nextAttemptAt follows the same curve from a stored attempt count and stops after attempt 8", () => {
    const now = 1_750_000_000_000
    for (let attempt = 1; attempt < maxAttempts; attempt++) {
      assert.deepStrictEqual(nextAttemptAt(attempt, now, 0.3), Option.some(now + retryDelayMs(attempt, 0.3)))
    }
    assert.deepStrictEqual(nextAttemptAt(1, now, 0.5), Option.some(now + minute))
    assert.isTrue(Option.isNone(nextAttemptAt(8, now, 0.5)))
    assert.isTrue(Option.isNone(nextAttemptAt(9, now, 0.5)))
    assert.isTrue(Option.isNone(nextAttemptAt(0, now, 0.5)))
  })

  it.effect("the schedule makes 8 attempts at the nominal times (no jitter) and stops", () =>
    Effect.gen(function*() {
      const times = yield* attemptTimes(fixedRandom(0.5))
      assert.strictEqual(times.length, 8)
      assert.deepStrictEqual(gaps(times), [...retryDelays])
    }))

  it.effect("the schedule and a persisted scheduler using nextAttemptAt agree", () =>
    Effect.gen(function*() {
      const times = yield* attemptTimes(fixedRandom(0.9))
      let at = times[0] ?? 0
      const persisted = [at]
      for (let attempt = 1; ; attempt++) {
        const next = nextAttemptAt(attempt, at, 0.9)
        if (Option.isNone(next)) break
        at = next.value
        persisted.push(at)
      }
      assert.deepStrictEqual(times, persisted)
      assert.strictEqual(gaps(times)[6], sixHours)
    }))

  it.effect("does not retry before the first delay has passed", () =>
    Effect.gen(function*() {
      let attempts = 0
      const attempt = Effect.suspend(() => {
        attempts++
        return Effect.fail("timeout")
      })
      const fiber = yield* Effect.forkChild(fixedRandom(0.5)(Effect.retry(attempt, webhookBackoff)))
      yield* TestClock.adjust(minute - 1)
      assert.strictEqual(attempts, 1)
      yield* TestClock.adjust(1)
      assert.strictEqual(attempts, 2)
      yield* TestClock.adjust(3 * minute - 1)
      assert.strictEqual(attempts, 2)
      yield* TestClock.adjust(1)
      assert.strictEqual(attempts, 3)
      yield* Fiber.interrupt(fiber)
    }))

  it.effect("with real jitter every gap stays within bounds, at most 6 hours", () =>
    Effect.gen(function*() {
      for (const seed of ["a", "b", "c", "d"]) {
        const times = yield* attemptTimes(Random.withSeed(seed))
        assert.strictEqual(times.length, 8, seed)
        const observed = gaps(times)
        observed.forEach((gap, i) => {
          const nominal = retryDelays[i] ?? 0
          assert.isAtLeast(gap, Math.floor(nominal * (1 - jitterRatio)), `${seed} retry ${i + 1}`)
          assert.isAtMost(gap, Math.min(Math.ceil(nominal * (1 + jitterRatio)), sixHours), `${seed} retry ${i + 1}`)
        })
        // Jitter really varies the waits.
        assert.notDeepEqual(observed, [...retryDelays], seed)
      }
    }))

  it.effect("a delivery that succeeds on a retry stops there", () =>
    Effect.gen(function*() {
      let attempts = 0
      const attempt = Effect.suspend(() => {
        attempts++
        return attempts < 3 ? Effect.fail("500") : Effect.succeed("delivered")
      })
      const fiber = yield* Effect.forkChild(Effect.retry(attempt, webhookBackoff))
      yield* TestClock.adjust("1 day")
      assert.strictEqual(yield* Fiber.join(fiber), "delivered")
      assert.strictEqual(attempts, 3)
    }))
})
