import { assert, it } from "@effect/vitest"
import { Clock, Effect, Ref, Schedule } from "effect"
import { TestClock } from "effect/testing"
import { nextSyncAt, SYNC_INTERVAL_MS, type SyncAttempt, syncCadence } from "../../src/inbox/Cadence.ts"

const start = Date.UTC(2026, 10, 23, 9, 0)

it.effect("nextSyncAt: an interval after an attempt nothing held; the instant hours or budget allow otherwise", () =>
  Effect.gen(function*() {
    assert.strictEqual(yield* nextSyncAt({ heldUntil: null }, start), start + SYNC_INTERVAL_MS)
    assert.strictEqual(SYNC_INTERVAL_MS, 10 * 60_000)
    // Held until the next opening (or the budget's refill): due at that very instant, however far.
    assert.strictEqual(yield* nextSyncAt({ heldUntil: start + 47 * 3_600_000 }, start), start + 47 * 3_600_000)
    assert.strictEqual(yield* nextSyncAt({ heldUntil: start + 60_000 }, start), start + 60_000)
    // A hold already over does not make it wait.
    assert.strictEqual(yield* nextSyncAt({ heldUntil: start - 1 }, start), start)
  }))

it.effect("syncCadence drives a repeated sync on the TestClock: every 10 minutes, then waits out a hold", () =>
  Effect.gen(function*() {
    yield* TestClock.setTime(start)
    const runs = yield* Ref.make<ReadonlyArray<number>>([])
    // The third attempt finds the hours closed until an hour later; the rest sync.
    const attempt = Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const count = (yield* Ref.updateAndGet(runs, (all) => [...all, now])).length
      const outcome: SyncAttempt = { heldUntil: count === 3 ? now + 3_600_000 : null }
      return outcome
    })
    yield* attempt.pipe(Effect.repeat(syncCadence.pipe(Schedule.upTo({ times: 4 }))), Effect.forkChild)
    yield* TestClock.adjust(3 * 3_600_000)
    const minutes = (yield* Ref.get(runs)).map((ms) => (ms - start) / 60_000)
    assert.deepStrictEqual(minutes, [0, 10, 20, 80, 90])
  }))
