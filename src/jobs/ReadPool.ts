/**
 * The Governor's reads of one runner wait their turn in one queue, taken by a fixed number of
 * fibers: a burst of thousands is thousands of entries, not thousands of fibers waiting on a
 * semaphore. Reads never queue behind an account's writes. Each read runs traced beneath the span
 * that handed it over (one job, one trace).
 */
import { Effect, Option, Queue, Tracer } from "effect"
import * as Spans from "../platform/Spans.ts"
import type { JobRow } from "./JobRow.ts"

/** Who a read belongs to: its account's actor (`AccountActor.ts`). */
export interface ReadOwner {
  readonly accountId: string
  /** Its reads queued, running or waiting for an instant. */
  reads: number
}

/** The pool's queue and fibers, for the scope's lifetime. */
export const make = <Owner extends ReadOwner>(options: {
  /** How many reads run at once. */
  readonly concurrency: number
  /** Runs one read; `known`: its row as just read (else it is read first). */
  readonly run: (owner: Owner, jobId: string, known: JobRow | undefined) => Effect.Effect<void>
  /** Whether the owner still lives here: a read of an account that left meanwhile is its new owner's to run. */
  readonly stillHere: (owner: Owner) => boolean
  /** Whether a fiber of this process runs the job already. */
  readonly running: (jobId: string) => boolean
  /** Told when a read handed over by `submit` is done with (run or not). */
  readonly done: (owner: Owner) => Effect.Effect<void>
}) =>
  Effect.gen(function*() {
    const queue = yield* Queue.unbounded<{
      readonly owner: Owner
      readonly jobId: string
      readonly known: JobRow | undefined
      readonly from: Option.Option<Tracer.AnySpan>
    }>()
    /** Reads handed over and not done with yet. */
    const starting = new Set<string>()

    /** Gives a read a run, once however often it is handed over; counted as its owner's open work until done. */
    const submit = (owner: Owner, jobId: string, known?: JobRow): Effect.Effect<void> =>
      Effect.suspend(() => {
        if (starting.has(jobId) || options.running(jobId)) return Effect.void
        starting.add(jobId)
        owner.reads++
        // `serviceOption`, not `option(currentParentSpan)`: without a parent span (a takeover's reads) that fails
        // with an error, stack trace included, for every read.
        return Effect.flatMap(Effect.serviceOption(Tracer.ParentSpan), (from) =>
          Effect.asVoid(Queue.offer(queue, { owner, jobId, known, from })))
      })

    const reader = Queue.take(queue).pipe(
      Effect.flatMap(({ from, jobId, known, owner }) =>
        (options.stillHere(owner)
          ? options.run(owner, jobId, known).pipe((run) => Option.isSome(from) ? Effect.withParentSpan(run, from.value, Spans.perJob) : run)
          : Effect.void).pipe(
          Effect.ensuring(Effect.andThen(Effect.sync(() => starting.delete(jobId)), options.done(owner)))
        )
      ),
      Effect.forever
    )
    yield* Effect.forEach(Array.from({ length: options.concurrency }), () => Effect.forkScoped(reader), { discard: true })

    return {
      submit,
      /** Whether the read was handed over and is not done with yet. */
      starting: (jobId: string) => starting.has(jobId)
    }
  })
