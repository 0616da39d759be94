/**
 * `Jobs` in memory, for fast tests of the API's job routes without a
 * database. It knows the accounts it is given, with their modes. A job is
 * created as the stored service creates one (awaiting approval when the
 * account's mode asks for it, queued otherwise), read and long-polled,
 * listed newest first a page at a time, and cancelled by the same rules, as
 * `Jobs.ts` states them. Nothing runs the jobs: each stays as created until
 * it is cancelled.
 */
import { Duration, Effect, Layer } from "effect"
import { accountNotFound } from "../accounts/Accounts.ts"
import type { Mode } from "../domain/Account.ts"
import { cancellableStatuses, type JobFailure, isFinished } from "../domain/Job.ts"
import * as Time from "../domain/Time.ts"
import { type JobRow, toJobRecord } from "./JobRow.ts"
import {
  cancelledByCaller,
  cancelledByRemoval,
  type JobListing,
  type JobRequest,
  jobNotFound,
  Jobs,
  newJobOf,
  notCancellable,
  pageOf
} from "./Jobs.ts"
import { JobWatch } from "./JobWatch.ts"

/** An account the in-memory jobs know. */
export interface MemoryAccount {
  readonly workspaceId: string
  readonly accountId: string
  readonly mode: Mode
}

/** The in-memory `Jobs` for `accounts`; needs `JobWatch` (which tells long-polls a job finished). */
export const layerNoDeps = (accounts: ReadonlyArray<MemoryAccount>) =>
  Layer.effect(
    Jobs,
    Effect.gen(function*() {
      const watch = yield* JobWatch
      /** Oldest first; `seq` is the position, as the table's. */
      const rows: Array<JobRow> = []

      const modeOf = (request: JobRequest) =>
        accounts.find((account) => account.workspaceId === request.workspaceId && account.accountId === request.accountId)?.mode

      /** The job as it is when the effect runs (a long-poll runs it again and again). */
      const found = (workspaceId: string, id: string) =>
        Effect.suspend(() => {
          const row = rows.find((candidate) => candidate.id === id && candidate.workspaceId === workspaceId)
          return row === undefined ? Effect.fail(jobNotFound(id)) : Effect.succeed(row)
        })

      /** Ends an open job as cancelled, and tells its long-polls. */
      const cancelled = (row: JobRow, error: JobFailure) =>
        Effect.gen(function*() {
          const now = yield* Time.now
          const ended: JobRow = { ...row, status: "cancelled", error, finishedAt: now.iso, waitingReason: null, waitingUntil: null }
          rows[rows.indexOf(row)] = ended
          yield* watch.finished(row.id)
          return ended
        })

      const create = Effect.fn("JobsMemory.create")(function*(request: JobRequest) {
        const mode = modeOf(request)
        if (mode === undefined) return yield* Effect.fail(accountNotFound(request.accountId))
        const job = yield* newJobOf(request, mode)
        const now = yield* Time.now
        const row: JobRow = {
          id: crypto.randomUUID(),
          seq: rows.length + 1,
          workspaceId: job.workspaceId,
          accountId: job.accountId,
          kind: job.kind,
          isWrite: job.isWrite,
          origin: job.origin,
          status: job.approval === null ? "queued" : "awaiting_approval",
          input: job.input,
          result: null,
          error: null,
          eta: null,
          waitingReason: null,
          waitingUntil: null,
          approvalId: job.approval === null ? null : crypto.randomUUID(),
          attemptStartedAt: null,
          fence: null,
          attempt: 0,
          createdAt: now.iso,
          startedAt: null,
          finishedAt: null
        }
        rows.push(row)
        return toJobRecord(row)
      })

      const get = Effect.fn("JobsMemory.get")(function*(workspaceId: string, id: string, waitSeconds?: number) {
        const row = yield* found(workspaceId, id)
        if (waitSeconds !== undefined && waitSeconds > 0 && !isFinished(row.status)) {
          const isDone = Effect.map(found(workspaceId, id), (current) => isFinished(current.status)).pipe(Effect.orDie)
          yield* watch.await(id, isDone, Duration.seconds(waitSeconds))
        }
        return toJobRecord(yield* found(workspaceId, id))
      })

      const list = Effect.fn("JobsMemory.list")((workspaceId: string, listing: JobListing) =>
        pageOf(listing, (beforeSeq, limit) =>
          Effect.sync(() =>
            rows
              .filter((row) =>
                row.workspaceId === workspaceId &&
                (listing.accountId === undefined || row.accountId === listing.accountId) &&
                (listing.status === undefined || row.status === listing.status) &&
                (listing.kind === undefined || row.kind === listing.kind) &&
                (beforeSeq === undefined || row.seq < beforeSeq)
              )
              .reverse()
              .slice(0, limit)
          )))

      const cancel = Effect.fn("JobsMemory.cancel")(function*(workspaceId: string, id: string) {
        const row = yield* found(workspaceId, id)
        if (!cancellableStatuses.has(row.status)) return yield* Effect.fail(notCancellable(row))
        return toJobRecord(yield* cancelled(row, cancelledByCaller))
      })

      const cancelOpenOf = Effect.fn("JobsMemory.cancelOpenOf")(function*(accountId: string) {
        const open = rows.filter((row) => row.accountId === accountId && cancellableStatuses.has(row.status))
        yield* Effect.forEach(open, (row) => cancelled(row, cancelledByRemoval), { discard: true })
        return open.length
      })

      return Jobs.of({ create, get, list, cancel, cancelOpenOf })
    })
  )

/** `layerNoDeps` with the job watch; needs `Notices` (in memory where there is no PostgreSQL). */
export const layer = (accounts: ReadonlyArray<MemoryAccount>) => layerNoDeps(accounts).pipe(Layer.provide(JobWatch.layer))
