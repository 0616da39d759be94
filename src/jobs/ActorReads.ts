/**
 * The read side of the accounts' actors (`AccountActor.ts`): reads run beside an account's writes without
 * waiting for them, a fixed number at once over the runner (`ReadPool.ts`), each planned from its account's
 * facts now; a read that must wait for an instant waits on a fiber of its account's, one that waits for the
 * account to change is parked until it does. A read's ending is recorded on a fiber of its own, so that the
 * pool's places run reads rather than wait for commits.
 */
import { Duration, Effect, FiberSet, Queue, Semaphore } from "effect"
import { categoryOfJob } from "../domain/Commands.ts"
import { runnableStatuses } from "../domain/Job.ts"
import type { PlanRow } from "./AccountFacts.ts"
import { type ActorContext, removed } from "./ActorContext.ts"
import type { Actor } from "./ActorState.ts"
import type { JobRow } from "./JobRow.ts"
import type * as KeptFacts from "./KeptFacts.ts"
import { planJob } from "./Plan.ts"
import * as ReadPool from "./ReadPool.ts"

/** Whether the job is a read that has not started. */
export const isOpenRead = (job: JobRow) => !job.isWrite && runnableStatuses.includes(job.status)

/** Where reads that ran hand their endings over (`start`): made before the jobs' start, which uses it. */
export const endings = ({ inFlight, settings }: Pick<ActorContext, "inFlight" | "settings">) =>
  Effect.gen(function*() {
    /** The endings of reads that gave their place in the read pool back (`start`), until recorded. */
    const readEndings = yield* FiberSet.make()
    /**
     * Reads whose endings wait for their batch, at most 8 times the pool's places (a batch ends up to 500): beyond
     * that a place waits for an ending to be recorded, so a slow database holds reads back rather than piling
     * their endings up in memory.
     */
    const endingsWaiting = yield* Semaphore.make(settings.readConcurrency * 8)

    return {
      /**
       * Hands the recording of a read's ending (`record`) over to a fiber of its own, once the endings waiting
       * leave room; `handedOver` is told when it goes, and the fiber takes the job out of `inFlight` once recorded.
       */
      handOver: (jobId: string, record: Effect.Effect<void>, handedOver: () => void) =>
        // The permit, once taken, goes with the ending's fiber (no interruption in between to lose it).
        Effect.uninterruptibleMask((restore) =>
          Effect.andThen(restore(endingsWaiting.take(1)), () => {
            handedOver()
            return FiberSet.run(
              readEndings,
              Effect.ensuring(record, Effect.andThen(Effect.sync(() => inFlight.delete(jobId)), endingsWaiting.release(1)))
            )
          })
        )
    }
  })

/** The read pool of the actors of one runner, for the scope's lifetime, and the reads' way through it. */
export const make = (
  { actors, failUnstarted, inFlight, onServiceTime, settings, store }: ActorContext,
  { factsOf, start }: {
    readonly factsOf: ReturnType<typeof KeptFacts.make>["factsOf"]
    /** Starts a job the plan let through, runs it, records the ending (`AccountActor.ts`). */
    readonly start: (actor: Actor, job: JobRow, row: PlanRow) => Effect.Effect<boolean>
  }
) =>
  Effect.gen(function*() {
    /**
     * Plans a job that has not started from its account's state now. A refusal fails it and a wait is
     * recorded on it here; what is left to the caller is starting it, or sleeping until the wait's end.
     */
    const decide = (actor: Actor, job: JobRow) =>
      Effect.gen(function*() {
        const current = yield* factsOf(actor)
        if (current === undefined) {
          yield* failUnstarted(job, removed)
          return { _tag: "Done" } as const
        }
        const plan = planJob({
          nowMs: current.nowMs,
          job: { isWrite: job.isWrite, category: categoryOfJob(job.kind, job.input) },
          account: current.account
        })
        switch (plan._tag) {
          case "Run":
            return { _tag: "Run", row: current.row, nowMs: current.nowMs } as const
          case "Fail":
            yield* failUnstarted(job, plan.error)
            return { _tag: "Done" } as const
          case "Wait":
            yield* store.setWaiting(job.id, plan.reason, plan.until)
            return { _tag: "Wait", until: plan.until, nowMs: current.nowMs } as const
        }
      })

    /** Runs (or parks) one read of an account owned here; reads never queue behind writes. */
    const runRead = (actor: Actor, jobId: string, known: JobRow | undefined): Effect.Effect<void> =>
      Effect.gen(function*() {
        const job = known ?? (yield* store.byId(jobId))
        if (job === undefined || !runnableStatuses.includes(job.status)) return
        const decision = yield* decide(actor, job)
        if (decision._tag === "Run") return yield* Effect.asVoid(start(actor, job, decision.row))
        // A wait without an end lasts until the account changes (a `Changed` message retries it).
        if (decision._tag === "Wait" && decision.until === null) actor.parked.add(job.id)
        if (decision._tag === "Wait" && decision.until !== null) {
          const delay = Math.max(0, decision.until - decision.nowMs)
          yield* busyWith(actor, Effect.andThen(Effect.sleep(Duration.millis(delay)), submitRead(actor, job.id)))
        }
      }).pipe(Effect.catchCause((cause) => Effect.logError("read job crashed", cause)))

    /**
     * Ends a piece of an account's open work: the actor looks again when the account's last one is done (an
     * account with nothing left may leave memory), or while it does not keep the account in memory yet (it
     * keeps it while reads are open); not at every read of a burst.
     */
    const doneWith = (actor: Actor) =>
      Effect.suspend(() => --actor.reads === 0 || actor.kept !== true ? Effect.asVoid(Queue.offer(actor.mailbox, true)) : Effect.void)

    /** Runs `work` (a read's wait for its turn) in the account's scope, counted as the account's open work. */
    const busyWith = (actor: Actor, work: Effect.Effect<void>) =>
      Effect.suspend(() => {
        actor.reads++
        return Effect.asVoid(FiberSet.run(actor.fibers, work.pipe(Effect.ensuring(doneWith(actor)))))
      })

    const readPool = yield* ReadPool.make<Actor>({
      concurrency: settings.readConcurrency,
      run: (actor, jobId, known) => onServiceTime(runRead(actor, jobId, known)),
      stillHere: (actor) => actors.get(actor.accountId) === actor,
      running: (jobId) => inFlight.has(jobId),
      done: doneWith
    })
    const submitRead = readPool.submit

    /** Gives these reads of the account (not started yet) a run: at activation, and when the account changed. */
    const retryReads = (actor: Actor, reads: ReadonlyArray<JobRow>) =>
      Effect.forEach(reads, (job) => {
        actor.parked.delete(job.id)
        return submitRead(actor, job.id, job)
      }, { discard: true })

    return {
      submitRead,
      /** Whether the read pool has the job: handed over and not done with yet. */
      starting: readPool.starting,
      retryReads,
      /** Gives the account's open reads (not started yet) a run: when the account changed, or its message was lost. */
      retryOpenReads: (actor: Actor) =>
        Effect.flatMap(store.openOf(actor.accountId), (open) => retryReads(actor, open.filter(isOpenRead)))
    }
  })
