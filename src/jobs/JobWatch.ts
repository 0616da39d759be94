/**
 * Long-polling (`GET /v1/jobs/{id}?wait=N`) without a query per waiter: a job
 * that finishes is announced to every server of the database at once
 * (`platform/Notices.ts`: PostgreSQL's NOTIFY, or memory on PGlite), wherever
 * its account's owner ran it, many jobs to a notice; a waiter looks at its job when its id is
 * announced, and again after its server could not listen for a while.
 */
import { Array as Arr, Context, Duration, Effect, Layer, PubSub, Queue, Stream } from "effect"
import { liveSleep } from "../domain/Time.ts"
import { channels, Notices, resumed } from "../platform/Notices.ts"

export class JobWatch extends Context.Service<JobWatch, {
  /**
   * Announces to every server that a job finished; call after the change commits. It does not wait for the
   * notice: the job's fiber goes on while the announcements queued meanwhile go out together.
   */
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
      const notices = yield* Notices
      const hub = yield* PubSub.sliding<string>(4096)

      // Announced in batches by one fiber: one notice names up to 200 jobs (a notice carries at most 8,000 bytes);
      // those queued while a notice goes out go in the next. What is queued when the service stops goes out first.
      const announcements = yield* Queue.unbounded<string>()
      const announce = (ids: ReadonlyArray<string>) => notices.publish(channels.jobFinished, ids.join(","))
      yield* Queue.takeBetween(announcements, 1, 200).pipe(Effect.flatMap(announce), Effect.forever, Effect.forkScoped)
      yield* Effect.addFinalizer(() =>
        Effect.flatMap(Queue.clear(announcements), (left) =>
          Effect.forEach(Arr.chunksOf(left, 200), announce, { discard: true }))
      )
      const finished = (jobId: string) => Effect.asVoid(Queue.offer(announcements, jobId))

      const await_ = (jobId: string, isDone: Effect.Effect<boolean>, timeout: Duration.Duration) =>
        Effect.scoped(Effect.gen(function*() {
          const subscription = yield* PubSub.subscribe(hub)
          if (yield* isDone) return
          const announced = Effect.gen(function*() {
            while (true) {
              const id = yield* PubSub.take(subscription)
              if ((id === jobId || id === resumed) && (yield* isDone)) return
            }
          })
          yield* Effect.raceFirst(announced, liveSleep(timeout))
        }))

      // What every server announces, this one's included, reaches this server's waiters.
      yield* notices.listen(channels.jobFinished).pipe(
        Stream.runForEach((ids) => PubSub.publishAll(hub, ids.split(","))),
        Effect.forkScoped
      )

      return JobWatch.of({
        finished,
        await: await_,
        announced: Stream.fromPubSub(hub).pipe(Stream.filter((id) => id !== resumed))
      })
    })
  )
}
