/**
 * Attempts recorded: each outcome with its change to its delivery (delivered; the next attempt on
 * the `Backoff` curve from `Clock` time; after 8, `failed`), written in batches: whatever finished
 * while the last batch was written and `recordWindow` after, in one statement
 * (`DeliveryStore.record`). A held delivery still unwritten is written with its outcome. Until it
 * is recorded a delivery stays leased, so a crash in between means one more attempt later, as a
 * crash during it does.
 */
import { Duration, Effect, LogLevel, Option, Queue, Random, References, type Scope } from "effect"
import * as Time from "../domain/Time.ts"
import { maxAttempts, nextAttemptAt } from "./Backoff.ts"
import {
  type AttemptOutcome,
  type AttemptRecord,
  type DeliveryChange,
  DeliveryStore,
  type DeliveryToAttempt
} from "./DeliveryStore.ts"
import type { Unwritten } from "./HeldDeliveries.ts"
import type { HeldWriter } from "./HeldWriter.ts"
import type { DeliveryOutcome } from "./SafeTransport.ts"

/** Live time the recorder waits after an outcome for more to record in the same statement. */
const recordWindow = Duration.millis(5)

/** Who started an attempt. */
export type AttemptTrigger = "automatic" | "manual"

/** An attempt made, waiting to be recorded. */
export interface FinishedAttempt {
  readonly target: DeliveryToAttempt
  readonly trigger: AttemptTrigger
  readonly outcome: DeliveryOutcome
  /** When its outcome was known (Clock time). */
  readonly atMs: number
}

/** An attempt made, as it is recorded. */
export const attemptRecord = ({ atMs, outcome, target, trigger }: FinishedAttempt): AttemptRecord => ({
  deliveryId: target.id,
  trigger,
  atIso: Time.toIso(atMs),
  statusCode: outcome.status,
  error: outcome.error ?? null,
  durationMs: Math.round(outcome.durationMs),
  response: outcome.response ?? null,
  succeeded: outcome.ok
})

/** What a failed attempt does to its delivery: the next on the `Backoff` curve, or failed for good; a manual one, nothing. */
const changeOfFailure = Effect.fnUntraced(function*(finished: FinishedAttempt) {
  if (finished.trigger === "manual") return undefined
  const made = finished.target.attemptCount + 1
  return Option.match(nextAttemptAt(made, finished.atMs, yield* Random.next), {
    onNone: (): DeliveryChange => ({ _tag: "failed", attemptCount: made }),
    onSome: (at): DeliveryChange => ({ _tag: "retry", attemptCount: made, atIso: Time.toIso(at) })
  })
})

export interface AttemptRecorder {
  /** An automatic attempt's outcome, recorded with the next batch. */
  readonly later: (finished: FinishedAttempt) => void
  /**
   * Records outcomes, each with its change to its delivery, in one statement; a held delivery
   * still unwritten is written with its outcome, and the claims that leaves with nothing
   * unwritten are ended. Under the writer's lock (`HeldWriter.exclusive`).
   */
  readonly record: (batch: ReadonlyArray<FinishedAttempt>) => Effect.Effect<void>
  /** What waits to be recorded, recorded now (on shutdown). Under the writer's lock. */
  readonly recordWaiting: Effect.Effect<void>
}

/**
 * The recorder, its batches written by a fiber of the scope; on shutdown (after that fiber has
 * stopped), what is left is recorded rather than attempted again.
 */
export const make = (writer: HeldWriter): Effect.Effect<AttemptRecorder, never, DeliveryStore | Scope.Scope> =>
  Effect.gen(function*() {
    const deliveries = yield* DeliveryStore
    const { held } = writer
    /** Automatic attempts' outcomes waiting to be recorded. */
    const finished = yield* Queue.unbounded<FinishedAttempt>()

    const record = Effect.fn("WebhookDispatcher.record")(function*(batch: ReadonlyArray<FinishedAttempt>) {
      const outcomes: Array<AttemptOutcome> = []
      const written: Array<Unwritten> = []
      for (const finished of batch) {
        const { outcome, target, trigger } = finished
        const fresh = held.take(target.id)
        if (fresh !== undefined) written.push(fresh)
        outcomes.push({
          attempt: attemptRecord(finished),
          change: outcome.ok
            ? { _tag: "succeeded", counted: trigger === "automatic" }
            : yield* changeOfFailure(finished),
          fresh: fresh?.delivery
        })
      }
      yield* deliveries.record(outcomes)
      yield* deliveries.endClaims(held.written(written))
      // A line per delivery only when debug lines are let through: building each one's annotations costs as much as the line.
      const debug = !LogLevel.isGreaterThan(yield* References.MinimumLogLevel, "Debug")
      for (const { outcome, target, trigger } of batch) {
        const failedForGood = !outcome.ok && trigger === "automatic" && target.attemptCount + 1 >= maxAttempts
        if (!failedForGood && !debug) continue
        yield* (outcome.ok ? Effect.logDebug("webhook delivered") : failedForGood
          ? Effect.logWarning("webhook delivery failed after every attempt")
          : Effect.logDebug("webhook attempt failed")).pipe(
            Effect.annotateLogs({ deliveryId: target.id, status: outcome.status ?? "none", error: outcome.error ?? "" })
          )
      }
    })

    const recordWaiting = Effect.flatMap(Queue.clear(finished), (batch) => batch.length === 0 ? Effect.void : record(batch))

    // Whatever finished while the last batch was written makes the next; a batch that fails is logged and its leases lapse.
    const recordFinished = Queue.takeAll(finished).pipe(
      // What finishes within a short wait joins the batch: one statement for many outcomes. The
      // wait is uninterruptible with the statement, so a shutdown never drops what was taken.
      Effect.flatMap((first) =>
        Effect.uninterruptible(Effect.andThen(
          Time.liveSleep(recordWindow),
          writer.exclusive(Effect.flatMap(Queue.clear(finished), (rest) => record([...first, ...rest])))
        ))
      ),
      Effect.catchCause((cause) => Effect.logError("recording webhook attempts failed", cause))
    )
    yield* Effect.addFinalizer(() =>
      recordWaiting.pipe(
        writer.exclusive,
        Effect.catchCause((cause) => Effect.logError("recording webhook attempts failed", cause))
      )
    )
    yield* recordFinished.pipe(Effect.forever, Effect.forkScoped)

    return {
      later: (attempt) => Queue.offerUnsafe(finished, attempt),
      record,
      recordWaiting
    }
  })
