/**
 * Waiting in real time for what background fibers do: the test clock stands
 * still, so these sleep on the live clock.
 */
import { inspect } from "node:util"
import { Duration, Effect } from "effect"
import { TestClock } from "effect/testing"

/** Sleeps in real time (the test clock stands still). */
export const liveSleep = (ms: number) => TestClock.withLive(Effect.sleep(Duration.millis(ms)))

/** Waits in real time until `check` holds, probing every `intervalMs`; dies after `timeoutMs`, telling the last value it saw. */
export const eventually = <A, R>(
  label: string,
  probe: Effect.Effect<A, never, R>,
  check: (value: A) => boolean,
  timeoutMs = 5000,
  intervalMs = 20
): Effect.Effect<A, never, R> =>
  Effect.gen(function*() {
    for (let waited = 0;; waited += intervalMs) {
      const value = yield* probe
      if (check(value)) return value
      if (waited > timeoutMs) return yield* Effect.die(new Error(`timed out waiting for ${label} (last seen: ${inspect(value, { depth: 2 })})`))
      yield* liveSleep(intervalMs)
    }
  })
