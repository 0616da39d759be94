/**
 * A job's ending, the one way it goes: one transaction in which the jobs table
 * records the ending (`JobStore.markEnded`, guarded by the statuses the job may
 * move from and by its owner's fence), then each owner records what the ending
 * means to it, in this order, each owner a service whose statements join the
 * transaction (they take the same `SqlClient` from their layers):
 *
 * - the budget it spent (`Budgets`);
 * - its command's completion (`JobCompletions`: a connect's invitation in
 *   `Invitations`, the person touched through `PersonTouches`), and the job's
 *   link to that person (`JobStore`);
 * - the account's pacing gate (`AccountStore`);
 * - a cancelled job's pending approval, rejected (`JobApprovals`, the approvals' owner);
 * - the job's event (`Outbox`).
 *
 * Endings go in batches (group commit). A job whose row another session holds
 * (a peer frozen mid-transaction, an operator's `psql`) is left out of its
 * batch and ends on its own, waiting for the row.
 */
import { Array as Arr, Context, Duration, Effect, Layer, Schedule } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import { AccountStore } from "../accounts/AccountStore.ts"
import { Budgets } from "../accounts/Budgets.ts"
import type { NewEvent } from "../domain/Events.ts"
import { cancellableStatuses, type JobFailure, type JobStatus } from "../domain/Job.ts"
import type { Category } from "../domain/Limits.ts"
import * as Time from "../domain/Time.ts"
import { Outbox } from "../events/Outbox.ts"
import * as GroupCommit from "../platform/GroupCommit.ts"
import * as Spans from "../platform/Spans.ts"
import { JobCompletions } from "./Completions.ts"
import { JobApprovals } from "./JobApprovals.ts"
import type { JobRow } from "./JobRow.ts"
import { type EndedJob, JobStore } from "./JobStore.ts"

/** How a started job ended. */
export type Ending =
  | {
    readonly _tag: "Completed"
    /** The command's result, encoded. */
    readonly result: unknown
    /** The budget the job spent. */
    readonly spend: { readonly category: Category; readonly units: number } | null
    /** For writes: the earliest instant (epoch ms) the account's next write may start. */
    readonly writesNotBefore: number | null
  }
  | { readonly _tag: "Failed"; readonly error: JobFailure; readonly writesNotBefore: number | null }

/** A job to finish, and how it ended. */
interface Finishing {
  readonly job: JobRow
  readonly ending: Ending
  /** The running attempt's owner epoch it must still carry (see `finish`); undefined: any. */
  readonly fence: number | null | undefined
}

/** A job's row another session held when its batch ran: it is finished on its own. */
const heldElsewhere = "heldElsewhere"

/** What finishing a job answers in a batch: its row when the batch finished it, or that it was held elsewhere. */
type Finished = JobRow | undefined | typeof heldElsewhere

/** A statement given up because a row it needed was held (the lock timeout), or a deadlock: worth trying again. */
const isHeld = (error: unknown) =>
  SqlError.isSqlError(error) && (error.reason._tag === "LockTimeoutError" || error.reason._tag === "DeadlockError")

/** How a job finished on its own is tried again while its row is held: every half second, 12 times (with the lock timeout, about a minute). */
const heldRetry = { while: isHeld, schedule: Schedule.spaced(Duration.millis(500)), times: 12 }

/** The row the jobs table records for an ending. */
const endedRow = ({ ending, fence, job }: Finishing): EndedJob =>
  ending._tag === "Completed"
    ? { id: job.id, status: "completed", result: ending.result, error: null, fence }
    : { id: job.id, status: ending.error.type === "cancelled" ? "cancelled" : "failed", result: null, error: ending.error, fence }

/** The envelope fields of a stored job error, for job events. */
const errorFields = (error: unknown): { type: string; message: string; next: string } => {
  if (typeof error === "object" && error !== null) {
    const fields: Record<string, unknown> = { ...error }
    return { type: String(fields["type"] ?? "internal"), message: String(fields["message"] ?? ""), next: String(fields["next"] ?? "") }
  }
  return { type: "internal", message: String(error), next: "" }
}

/** The job's event, unless the service did it on its own. */
const eventOf = (row: JobRow): ReadonlyArray<{ readonly workspaceId: string; readonly event: NewEvent }> => {
  if (row.origin !== "api") return []
  const error = row.error === null ? null : errorFields(row.error)
  return [{
    workspaceId: row.workspaceId,
    event: row.status === "completed"
      ? {
        type: "job.completed",
        data: { jobId: row.id, accountId: row.accountId, kind: row.kind, status: row.status, result: row.result, error }
      }
      : { type: "job.failed", data: { jobId: row.id, accountId: row.accountId, kind: row.kind, status: row.status, error } }
  }]
}

export class JobEndings extends Context.Service<JobEndings, {
  /**
   * Finishes a job from one of `from`; the row when this call finished it. With `fence`, only the attempt
   * that owner claimed: an owner that lost the account can no longer finish what its successor runs.
   */
  readonly finish: (job: JobRow, ending: Ending, from: ReadonlyArray<JobStatus>, fence?: number | null) => Effect.Effect<JobRow | undefined>
  /** Cancels a job that has not started; the row when this call cancelled it. */
  readonly cancel: (workspaceId: string, id: string, error: JobFailure) => Effect.Effect<JobRow | undefined>
  /** Cancels every job of the account that has not started (the account was removed). */
  readonly cancelOpenOf: (accountId: string, error: JobFailure) => Effect.Effect<ReadonlyArray<JobRow>>
}>()("outreach/JobEndings") {
  static readonly layerNoDeps = Layer.effect(
    JobEndings,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const store = yield* JobStore
      const accounts = yield* AccountStore
      const budgets = yield* Budgets
      const completions = yield* JobCompletions
      const approvals = yield* JobApprovals
      const outbox = yield* Outbox
      const cancellable = [...cancellableStatuses]

      /** What each owner records of these endings, in the endings' transaction. */
      const recordOwners = (done: ReadonlyArray<Finishing & { readonly row: JobRow }>, now: { readonly iso: string }) =>
        Effect.gen(function*() {
          yield* budgets.recordSpends(
            done.flatMap(({ ending, job }) =>
              ending._tag === "Completed" && ending.spend !== null && ending.spend.units > 0
                ? [{ accountId: job.accountId, category: ending.spend.category, units: ending.spend.units, jobId: job.id, atIso: now.iso }]
                : []
            )
          )
          // The commands' completion effects (a connect's invitation, the person touched), then each job's
          // link to that person: a job the Executor linked before it ran keeps its link.
          for (const { ending, job } of done) {
            if (ending._tag !== "Completed") continue
            const personId = yield* completions.complete(job.kind, { ...job, at: now.iso }, ending.result)
            if (personId !== undefined) yield* store.linkPerson(job.id, personId, "keep")
          }
          yield* accounts.setWriteGates(done.flatMap(({ ending, job }) =>
            ending.writesNotBefore === null ? [] : [{ id: job.accountId, atMs: ending.writesNotBefore }]
          ))
          // Deciding for a job's approval is the approval store's; here only a cancelled job rejects it.
          for (const { ending, job } of done) {
            if (ending._tag === "Failed" && ending.error.type === "cancelled") {
              yield* approvals.rejectPendingOfJob(job.id, ending.error.message, now.iso)
            }
          }
          yield* outbox.appendAll(done.flatMap(({ row }) => eventOf(row)))
        })

      /** Finishes jobs, many at once, in one transaction. Each answer is the job's row when this call finished it. */
      const finishAll = (from: ReadonlyArray<JobStatus>, held: "skip" | "wait") => (batch: Arr.NonEmptyReadonlyArray<Finishing>) =>
        Effect.gen(function*() {
          const now = yield* Time.now
          return yield* sql.withTransaction(Effect.gen(function*() {
            const finished = new Map((yield* store.markEnded(Arr.map(batch, endedRow), from, now.iso, held)).map((row) => [row.id, row]))
            // A job named twice in one batch is finished by the first.
            const answers = batch.map(({ job }) => {
              const row = finished.get(job.id)
              finished.delete(job.id)
              return row
            })
            yield* recordOwners(batch.flatMap((item, index) => {
              const row = answers[index]
              return row === undefined ? [] : [{ ...item, row }]
            }), now)
            // Skipping held rows, a job the statement did not end may be held by another session (or no longer
            // end from `from`): it is finished on its own (`finish`), waiting for its row, which tells them apart.
            return answers.map((row): Finished => row !== undefined ? row : held === "skip" ? heldElsewhere : undefined)
          }))
        })

      const batches = new Map<string, GroupCommit.GroupCommit<Finishing, Finished>>()
      /**
       * Finishes one job from one of `from`, in the next batch finishing from the same statuses; when
       * another session holds its row, on its own, waiting for the row (within the lock timeout, tried
       * again while it is held) in a transaction of its own while the batches go on.
       */
      const finish = (job: JobRow, ending: Ending, from: ReadonlyArray<JobStatus>, fence?: number | null) =>
        Effect.suspend(() => {
          const key = [...from].sort().join(",")
          let batch = batches.get(key)
          if (batch === undefined) {
            batch = GroupCommit.make((items) => Effect.orDie(finishAll(from, "skip")(items)), { max: 500 })
            batches.set(key, batch)
          }
          return Effect.flatMap(batch.submit({ job, ending, fence }), (answer) =>
            answer !== heldElsewhere ? Effect.succeed(answer) : finishAll(from, "wait")([{ job, ending, fence }]).pipe(
              Effect.retry(heldRetry),
              Effect.map(([alone]) => alone === heldElsewhere ? undefined : alone),
              Effect.orDie
            ))
        }).pipe(Effect.withSpan("JobEndings.finish", { attributes: { jobId: job.id } }, Spans.perJob))

      const cancelled = (error: JobFailure): Ending => ({ _tag: "Failed", error, writesNotBefore: null })

      return JobEndings.of({
        finish,
        cancel: Effect.fn("JobEndings.cancel")(function*(workspaceId: string, id: string, error: JobFailure) {
          const job = yield* store.get(workspaceId, id)
          return job === undefined ? undefined : yield* finish(job, cancelled(error), cancellable)
        }),
        cancelOpenOf: Effect.fn("JobEndings.cancelOpenOf")(function*(accountId: string, error: JobFailure) {
          const done: Array<JobRow> = []
          for (const job of yield* store.cancellableOf(accountId)) {
            const row = yield* finish(job, cancelled(error), cancellable)
            if (row !== undefined) done.push(row)
          }
          return done
        })
      })
    })
  )

  /** `layerNoDeps` with its services' layers; needs the port `JobApprovals`, as `JobStore.layer` does. */
  static readonly layer = JobEndings.layerNoDeps.pipe(Layer.provide([AccountStore.layer, Budgets.layer, JobCompletions.layer, JobStore.layer, Outbox.layer]))
}
