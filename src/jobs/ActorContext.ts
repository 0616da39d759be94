/**
 * What the actors of one runner (`AccountActor.ts`) share, for the scope's lifetime: the job services, the
 * accounts whose actor lives here, the jobs its fibers run, the fencing of their writes and the runner's write
 * slots; and the recording of a job's ending. Each part of an actor takes it (or what of it the part needs).
 */
import { Effect, Random } from "effect"
import { SqlClient } from "effect/sql"
import { type JobFailure, type JobStatus, runnableStatuses } from "../domain/Job.ts"
import * as Time from "../domain/Time.ts"
import type { Actor } from "./ActorState.ts"
import { type Ending, JobEndings } from "./Endings.ts"
import { Executor } from "./Executor.ts"
import * as Fencing from "./Fencing.ts"
import { GovernorSettings } from "./GovernorSettings.ts"
import type { JobRow } from "./JobRow.ts"
import { JobStore } from "./JobStore.ts"
import { JobWatch } from "./JobWatch.ts"
import { pacingGap } from "./Plan.ts"
import * as WriteSlots from "./WriteSlots.ts"

/** The failure of a job whose account was removed before it ran. */
export const removed: JobFailure = {
  type: "accountRemoved",
  message: "The account was removed before this job ran.",
  next: "Connect the account again and create the job anew."
}

/** The context of the actors of one runner. */
export type ActorContext = Effect.Success<ReturnType<typeof make>>

/** The context, for the scope's lifetime. */
export const make = (options: {
  /** The runner's address, on the spans of the jobs it starts. */
  readonly runner: string
  /** Runs an actor's work on the service's clock (the cluster runs its entities on real time). */
  readonly onServiceTime: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}) =>
  Effect.gen(function*() {
    const { runner } = options
    const sql = yield* SqlClient.SqlClient
    const store = yield* JobStore
    const endings = yield* JobEndings
    const executor = yield* Executor
    const watch = yield* JobWatch
    const settings = yield* GovernorSettings

    /** The accounts whose actor lives here. */
    const actors = new Map<string, Actor>()
    /** Jobs a fiber of this process is running: any other running job of an account owned here is a dead process's. */
    const inFlight = new Set<string>()

    const fencing = yield* Fencing.make({
      onLoss: (lost) =>
        Effect.sync(() => {
          for (const actor of actors.values()) if (lost(actor.accountId)) actor.epoch = undefined
        })
    })
    /** A write left running by a previous owner is settled this long after its account was taken. */
    const settleAfterMs = fencing.deadlineMs + 1_000

    const aboutJob = (job: JobRow) => Effect.annotateLogs({ jobId: job.id, accountId: job.accountId, kind: job.kind })
    const log = (job: JobRow, message: string) => Effect.logWarning(message).pipe(aboutJob(job))

    const finish = (
      job: JobRow,
      ending: Ending,
      from: ReadonlyArray<JobStatus>,
      fence?: number | null
    ) =>
      Effect.gen(function*() {
        const done = yield* endings.finish(job, ending, from, fence)
        if (done !== undefined) {
          yield* watch.finished(job.id)
          yield* Effect.logInfo(`job ${done.status}`).pipe(aboutJob(job))
        }
      })

    /**
     * Takes the account for this actor's writes (a new owner epoch), while this runner's lease of its shard
     * holds; the epoch, or undefined when the lease does not hold.
     */
    const take = (actor: Actor) =>
      Effect.gen(function*() {
        if (actor.epoch !== undefined) return actor.epoch
        if (!(yield* fencing.holds(actor.accountId))) return undefined
        const epoch = yield* store.takeAccount(actor.accountId, runner)
        actor.takenAt = yield* Time.monotonicMs
        actor.epoch = epoch
        yield* Effect.logDebug(`took the account for its writes (epoch ${epoch})`)
        return epoch
      })

    const writeSlots = yield* WriteSlots.make(settings.writeConcurrency)

    /** When the account may write again after a write attempt: now plus a pacing gap. */
    const nextWriteAt = Effect.map(Effect.zip(Time.now, Random.next), ([now, draw]) => now.ms + pacingGap(draw))

    const failUnstarted = (job: JobRow, error: JobFailure) =>
      finish(job, { _tag: "Failed", error, writesNotBefore: null }, runnableStatuses)

    return {
      ...options,
      sql,
      store,
      executor,
      settings,
      actors,
      inFlight,
      fencing,
      settleAfterMs,
      log,
      finish,
      take,
      writeSlots,
      nextWriteAt,
      failUnstarted
    }
  })
