/**
 * The current instant from Effect's `Clock`, so tests and the sandbox's test
 * clock control every time-based rule.
 */
import { Clock, type Duration, Effect } from "effect"

/** Now as epoch milliseconds and as an ISO 8601 string. */
export const now: Effect.Effect<{ readonly ms: number; readonly iso: string }> = Effect.map(
  Clock.currentTimeMillis,
  (ms) => ({ ms, iso: new Date(ms).toISOString() })
)

/** An instant in epoch milliseconds as an ISO 8601 string. */
export const toIso = (ms: number): string => new Date(ms).toISOString()

/**
 * Records newest first, and by id among those made at the same instant: a table's
 * `ORDER BY created_at DESC, id`, for what keeps records in memory.
 */
export const newestFirst = (
  a: { readonly createdAt: string; readonly id: string },
  b: { readonly createdAt: string; readonly id: string }
): number => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/**
 * Runs `effect` on real time, whatever the service's clock: its sleeps, timeouts and retries' delays
 * elapse while a test clock stands still (the cluster's sends, a request's bound on how long it waits).
 */
export const onRealTime = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.provideService(effect, Clock.Clock, Clock.Clock.defaultValue())

/**
 * Sleeps in real time, whatever the service's clock: background polling and a
 * caller's long-poll wait must go on while a test clock stands still.
 */
export const liveSleep = (duration: Duration.Input): Effect.Effect<void> => onRealTime(Effect.sleep(duration))

/** Effect's real clock, whatever clock the service runs on. */
const realClock = Clock.Clock.defaultValue()

/**
 * Now in real time (epoch ms), whatever the service's clock: how long something was kept, say. Read off the real
 * clock directly: providing it as the `Clock` for one read cost a context change at every job (issue #36).
 */
export const liveNow: Effect.Effect<number> = Effect.sync(() => realClock.currentTimeMillisUnsafe())

/**
 * A monotonic instant in real time (ms, with the fraction the clock gives): for how long something took, it
 * never jumps with the wall clock, and of two instants read one after the other the second is later (a lease
 * refreshed right after it was doubted, in the same millisecond, counts as after).
 */
export const monotonicMs: Effect.Effect<number> = Effect.sync(() => Number(realClock.monotonicTimeNanosUnsafe()) / 1_000_000)
