/**
 * When a failed webhook delivery is tried again: 8 attempts in total, the
 * first retry about a minute after the first attempt, each wait three times
 * the previous one, capped at 6 hours, with ±20% jitter so endpoints that
 * failed together are not retried together.
 *
 * Nominal waits: 1 min, 3 min, 9 min, 27 min, 81 min, 243 min, 6 h (the
 * 729 min step is capped); the last attempt comes about 12 hours after the
 * first.
 *
 * The curve is defined once (`retryDelayMs`). `webhookBackoff` is the Effect
 * `Schedule` form for in-memory retries; `nextAttemptAt` is the form for a
 * persisted scheduler, which after a restart knows only how many attempts
 * were made.
 */
import { Cause, Duration, Effect, Option, Random, Schedule } from "effect"

/** Attempts per delivery, the first one included. */
export const maxAttempts = 8

/** Retries per delivery: every attempt after the first. */
export const maxRetries = maxAttempts - 1

/** The nominal wait before the first retry. */
export const firstRetryDelayMs = Duration.toMillis(Duration.minutes(1))

/** No wait between two attempts is longer than this. */
export const maxRetryDelayMs = Duration.toMillis(Duration.hours(6))

/** Each nominal wait is this many times the previous one. */
export const growthFactor = 3

/** Each wait is the nominal one scaled by a factor in [1 - jitter, 1 + jitter), then capped. */
export const jitterRatio = 0.2

/**
 * The nominal (jitter-free) wait in milliseconds before retry `retry`
 * (1-based: retry 1 follows attempt 1).
 */
export const nominalRetryDelayMs = (retry: number): number =>
  Math.min(firstRetryDelayMs * growthFactor ** (retry - 1), maxRetryDelayMs)

/** The nominal waits before each of the 7 retries, in milliseconds. */
export const retryDelays: ReadonlyArray<number> = Array.from(
  { length: maxRetries },
  (_, index) => nominalRetryDelayMs(index + 1)
)

/**
 * THE curve: the wait in milliseconds before retry `retry` (1-based), for a
 * `random` number in [0, 1). Never above 6 hours.
 */
export const retryDelayMs = (retry: number, random: number): number => {
  const factor = 1 - jitterRatio + 2 * jitterRatio * random
  return Math.min(Math.round(nominalRetryDelayMs(retry) * factor), maxRetryDelayMs)
}

/**
 * When to make the next attempt of a delivery whose attempt number
 * `attemptNumber` (1-based) just failed at `nowMs`; `None` once all 8
 * attempts are used. `random` is a number in [0, 1), drawn by the caller.
 */
export const nextAttemptAt = (attemptNumber: number, nowMs: number, random: number): Option.Option<number> =>
  attemptNumber >= 1 && attemptNumber < maxAttempts
    ? Option.some(nowMs + retryDelayMs(attemptNumber, random))
    : Option.none()

/**
 * The retry schedule of a webhook delivery, for `Effect.retry`: at most 7
 * retries after the first attempt, waiting `retryDelayMs` (jitter from
 * Effect's `Random`). Outputs the number of the retry about to be made.
 */
export const webhookBackoff: Schedule.Schedule<number> = Schedule.fromStepWithMetadata(
  Effect.succeed((meta: Schedule.InputMetadata<unknown>) =>
    meta.attempt > maxRetries
      ? Cause.done(meta.attempt - 1)
      : Effect.map(
        Random.next,
        (random): [number, Duration.Duration] => [meta.attempt, Duration.millis(retryDelayMs(meta.attempt, random))]
      )
  )
)
