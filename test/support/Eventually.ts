/**
 * Waiting in real time for what background fibers do: the test clock stands
 * still, so these sleep on the live clock.
 */
import { inspect } from "node:util"
import { Clock, Duration, Effect } from "effect"
import { TestClock } from "effect/testing"

/** Sleeps in real time (the test clock stands still). */
export const liveSleep = (ms: number) => TestClock.withLive(Effect.sleep(Duration.millis(ms)))

/** Milliseconds on the live clock (the test clock stands still). */
const liveNow = TestClock.withLive(Clock.currentTimeMillis)

/**
 * Waits in real time until `check` holds, probing every `intervalMs`; dies after `timeoutMs` of real time
 * (probes included), telling the last value it saw. A wait ends at most one interval after its
 * condition holds; a probe of memory alone can take a shorter one than the default, which suits reads.
 */
export const eventually = <A, R>(
  label: string,
  probe: Effect.Effect<A, never, R>,
  check: (value: A) => boolean,
  timeoutMs = 5000,
  intervalMs = 10
): Effect.Effect<A, never, R> =>
  Effect.gen(function*() {
    const deadline = (yield* liveNow) + timeoutMs
    for (;;) {
      const value = yield* probe
      if (check(value)) return value
      if ((yield* liveNow) > deadline) return yield* Effect.die(new Error(`timed out waiting for ${label} (last seen: ${inspect(value, { depth: 2 })})`))
      yield* liveSleep(intervalMs)
    }
  })
