/**
 * Long-polling (`GET /v1/jobs/{id}?wait=N`) without a query per waiter: a job
 * that finishes in this process is announced in memory; for jobs finished by
 * another server, one shared query per second checks every job someone is
 * waiting for, whatever the number of waiters.
 *
 * @since 1.0.0
 */
import { Context, Duration, Effect, Layer, PubSub, Schema, Stream } from "effect"
import { SqlClient } from "effect/sql"
import { liveSleep } from "../domain/Time.ts"

const FinishedRow = Schema.Struct({ id: Schema.String })
const decodeFinished = Schema.decodeUnknownEffect(Schema.Array(FinishedRow))

export class JobWatch extends Context.Service<JobWatch, {
  /** Announces that a job finished; call after the change commits. */
  readonly finished: (jobId: string) => Effect.Effect<void>
  /**
   * Waits up to `timeout` for the job to finish; `isDone` reads its state
   * (once first, then after each announcement for it).
   */
  readonly await: (jobId: string, isDone: Effect.Effect<boolean>, timeout: Duration.Duration) => Effect.Effect<void>
  /** Every job announced as finished from now on (workflows waiting on jobs look at once). */
  readonly announced: Stream.Stream<string>
}>()("outreach/JobWatch") {
  static readonly layer = Layer.effect(
    JobWatch,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const hub = yield* PubSub.sliding<string>(4096)
      const watched = new Map<string, number>()

      const finished = (jobId: string) => PubSub.publish(hub, jobId).pipe(Effect.asVoid)

      const watch = (jobId: string) =>
        Effect.acquireRelease(
          Effect.sync(() => watched.set(jobId, (watched.get(jobId) ?? 0) + 1)),
          () =>
            Effect.sync(() => {
              const left = (watched.get(jobId) ?? 1) - 1
              if (left <= 0) watched.delete(jobId)
              else watched.set(jobId, left)
            })
        )

      const await_ = (jobId: string, isDone: Effect.Effect<boolean>, timeout: Duration.Duration) =>
        Effect.scoped(Effect.gen(function*() {
          const subscription = yield* PubSub.subscribe(hub)
          yield* watch(jobId)
          if (yield* isDone) return
          const announced = Effect.gen(function*() {
            while (true) {
              const id = yield* PubSub.take(subscription)
              if (id === jobId && (yield* isDone)) return
            }
          })
          yield* Effect.raceFirst(announced, liveSleep(timeout))
        }))

      // One query a second for every watched job, to hear of those another server finished.
      yield* Effect.gen(function*() {
        yield* liveSleep(Duration.seconds(1))
        if (watched.size === 0) return
        const ids = [...watched.keys()]
        const done = yield* sql`
          SELECT id::text AS id FROM jobs
          WHERE ${sql.in("id", ids)} AND status IN ('completed', 'failed', 'cancelled')`.pipe(
          Effect.flatMap(decodeFinished)
        )
        yield* Effect.forEach(done, (row) => finished(row.id), { discard: true })
      }).pipe(
        Effect.catchCause((cause) => Effect.logWarning("job watch poll failed", cause)),
        Effect.forever,
        Effect.forkScoped
      )

      return JobWatch.of({ finished, await: await_, announced: Stream.fromPubSub(hub) })
    })
  )
}
