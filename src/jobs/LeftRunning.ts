/**
 * The jobs a previous owner of an account left `running`, settled by the runner that took the account over (a
 * restart, or a dead runner's shards moving to it) when its actor looks at the account (`AccountActor.ts`): the
 * owner is the only runner that runs the account's jobs, so a running job no fiber of its own runs belongs to a
 * dead process. A read runs again; a write is settled by asking the network driver whether it happened
 * (`outcomeOf`): completed with its result if it did, run again if it surely did not, and failed as `interrupted`
 * only when the driver cannot tell.
 */
import { Effect } from "effect"
import type { JobFailure } from "../domain/Job.ts"
import * as Time from "../domain/Time.ts"
import type { ActorContext } from "./ActorContext.ts"
import type { Actor } from "./ActorState.ts"
import type { JobRow } from "./JobRow.ts"

const interrupted: JobFailure = {
  type: "interrupted",
  message:
    "The service stopped while this write was in flight, and the network cannot tell whether it went out, so it is not tried again: a write never runs twice.",
  next: "Check the account on the network (list_invites, get_conversation...) and create the job again if it did not go out."
}

/** The settling of the jobs left running on the accounts of one runner; `submitRead` gives a read a run again. */
export const make = (
  { executor, finish, log, nextWriteAt, settleAfterMs, store, take }: ActorContext,
  submitRead: (actor: Actor, jobId: string) => Effect.Effect<void>
) => {
  /**
   * A write a previous owner left running (a dead process, a runner that lost the account, or this one before it
   * took the account anew), once the lease rule allows: settled by what the network knows of it, asked as the
   * owner of epoch `epoch`, never sent twice. Each ending is guarded by the fence the job was read with.
   */
  const settleWrite = (job: JobRow, epoch: number) =>
    Effect.gen(function*() {
      const recovery = yield* executor.recover(job, epoch)
      switch (recovery._tag) {
        case "Completed": {
          yield* finish(job, { ...recovery, writesNotBefore: yield* nextWriteAt }, ["running"], job.fence)
          return yield* log(job, "write left running by a previous owner had reached the network: completed with its result")
        }
        case "Failed": {
          yield* finish(job, { _tag: "Failed", error: recovery.error, writesNotBefore: yield* nextWriteAt }, ["running"], job.fence)
          return yield* log(job, "write left running by a previous owner had been refused by the network: failed with its error, not sent again")
        }
        case "NotReached":
          yield* store.requeue(job.id, job.fence)
          return yield* log(job, "write left running by a previous owner had not reached the network: queued again")
        case "Unknown":
          yield* finish(job, { _tag: "Failed", error: interrupted, writesNotBefore: null }, ["running"], job.fence)
          return yield* log(job, "write left running by a previous owner: the network cannot tell whether it went out, so it failed")
      }
    })

  /**
   * Settles the account's running jobs that no fiber here runs (`left`), as its actor's look at the account
   * finds them: this runner owns the account, so they belong to a process that died (or to this runner's
   * previous life). Returns how many jobs it settled, and when (monotonic ms) to look again for the writes
   * left running that could not be settled yet (null: none wait).
   */
  const settle = (actor: Actor, left: ReadonlyArray<JobRow>) =>
    Effect.gen(function*() {
      let settled = 0
      /** When (monotonic ms) to look again for the writes left running that could not be settled yet. */
      let settleAt: number | null = null
      const later = (at: number) => settleAt = settleAt === null ? at : Math.min(settleAt, at)
      for (const job of left) {
        if (!job.isWrite) {
          yield* store.requeue(job.id)
          yield* log(job, "read left running by a dead process: queued again")
          yield* submitRead(actor, job.id)
          settled++
          continue
        }
        // This actor's own attempt whose ending it could not record: the account is taken anew first.
        if (actor.epoch !== undefined && job.fence === actor.epoch) actor.epoch = undefined
        const epoch = yield* take(actor)
        const now = yield* Time.monotonicMs
        if (epoch === undefined || (job.fence !== null && job.fence > epoch)) {
          // This runner's lease does not hold, or a newer owner wrote: nothing to settle here.
          actor.epoch = undefined
          later(now + 1_000)
          continue
        }
        // The lease rule: the previous owner's lease lapsed before this one took the account; its call, cut off
        // at its deadline, has then been over for a whole deadline more.
        if (now < actor.takenAt + settleAfterMs) {
          later(actor.takenAt + settleAfterMs)
          continue
        }
        yield* settleWrite(job, epoch)
        settled++
      }
      return { settled, settleAt }
    })

  return { settle }
}
