/**
 * `Jobs` in memory, for fast tests of the API's job routes without a
 * database. A job is created as the stored service creates one (awaiting
 * approval when the account's mode asks for it, queued otherwise), read and long-polled,
 * listed newest first a page at a time, and cancelled by the same rules, as
 * `Jobs.ts` states them. Nothing runs the jobs: each stays as created until
 * it is cancelled, or its approval decided. A job's approval is written
 * through the port `JobApprovals`, as the stored jobs write theirs; the
 * in-memory approvals (`approvals/ApprovalsMemory.ts`) answer it, and read and
 * move the jobs through {@link JobTableMemory}, as the stored approvals do
 * through `JobStore` and `JobEndings`. The table also answers the in-memory forecast and Daily
 * brief what `JobStore` answers the stored ones (open writes, open jobs counted, people written to).
 * It knows the accounts it is given, or (`layerOnAccounts`) the in-memory accounts' modes.
 */
import { Context, Duration, Effect, Layer } from "effect"
import { accountNotFound } from "../accounts/Accounts.ts"
import { AccountRowsMemory } from "../accounts/AccountsMemory.ts"
import type { Mode } from "../domain/Account.ts"
import { cancellableStatuses, type JobFailure, isFinished } from "../domain/Job.ts"
import * as Time from "../domain/Time.ts"
import { JobApprovals } from "./JobApprovals.ts"
import { type OpenCount, openWriteStatuses, type OpenWrite } from "./JobStore.ts"
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

/** The in-memory jobs as the in-memory approvals see them: a job, and its moves when its approval is decided. */
export class JobTableMemory extends Context.Service<JobTableMemory, {
  readonly byId: (id: string) => Effect.Effect<JobRow | undefined>
  /** An approved job: queued, with the input to send (`JobStore.release`). */
  readonly release: (id: string, input: unknown) => Effect.Effect<void>
  /** A job whose approval was rejected or expired: failed with `error`, its long-polls told. */
  readonly fail: (id: string, error: JobFailure) => Effect.Effect<void>
  /** The account's open writes in creation order, as `JobStore.openWritesOf` reads them (the in-memory forecast's). */
  readonly openWritesOf: (accountId: string) => Effect.Effect<ReadonlyArray<OpenWrite>>
  /** The account's open jobs counted by status and kind, as `JobStore.openCounts` counts them (the in-memory Daily brief's). */
  readonly openCounts: (accountId: string) => Effect.Effect<ReadonlyArray<OpenCount>>
  /** Those of `providerIds` a `send_message` job of the account has written to, as `JobStore.messagedAmong` reads them. */
  readonly messagedAmong: (accountId: string, providerIds: ReadonlyArray<string>) => Effect.Effect<ReadonlySet<string>>
}>()("outreach/JobTableMemory") {}

/** An account's mode, as the stored jobs ask `AccountStore.modeOf` when a job is created; undefined when it is not the workspace's. */
type ModeOf = (workspaceId: string, accountId: string) => Effect.Effect<Mode | undefined>

/** Whom a `send_message` job's result says it wrote to. */
const recipientOf = (result: unknown) =>
  typeof result === "object" && result !== null && "recipientProviderId" in result && typeof result.recipientProviderId === "string"
    ? result.recipientProviderId
    : undefined

/**
 * The in-memory `Jobs` on the modes `modes` reads, and the {@link JobTableMemory} under it; needs `JobWatch`
 * (which tells long-polls a job finished), `JobApprovals` (which keeps a job's approval) and what `modes` needs.
 */
const jobsOn = <R>(modes: Effect.Effect<ModeOf, never, R>) =>
  Layer.effectContext(
    Effect.gen(function*() {
      const watch = yield* JobWatch
      const approvals = yield* JobApprovals
      const accountMode = yield* modes
      /** Oldest first; `seq` is the position, as the table's. */
      const rows: Array<JobRow> = []

      const modeOf = (request: JobRequest) => accountMode(request.workspaceId, request.accountId)

      /** The job as it is when the effect runs (a long-poll runs it again and again). */
      const found = (workspaceId: string, id: string) =>
        Effect.suspend(() => {
          const row = rows.find((candidate) => candidate.id === id && candidate.workspaceId === workspaceId)
          return row === undefined ? Effect.fail(jobNotFound(id)) : Effect.succeed(row)
        })

      /** Ends an open job (as cancelled or failed), and tells its long-polls; a cancelled job's pending approval is rejected. */
      const ended = (row: JobRow, status: "cancelled" | "failed", error: JobFailure) =>
        Effect.gen(function*() {
          const now = yield* Time.now
          const done: JobRow = { ...row, status, error, finishedAt: now.iso, eta: null, waitingReason: null, waitingUntil: null }
          rows[rows.indexOf(row)] = done
          if (status === "cancelled") yield* approvals.rejectPendingOfJob(row.id, error.message, now.iso)
          yield* watch.finished(row.id)
          return done
        })
      const cancelled = (row: JobRow, error: JobFailure) => ended(row, "cancelled", error)
      const byId = (id: string) => Effect.sync(() => rows.find((row) => row.id === id))
      /** The job if it still awaits its approval (a decision moves only such a job). */
      const awaiting = (id: string) => Effect.map(byId(id), (row) => row?.status === "awaiting_approval" ? row : undefined)

      const create = Effect.fn("JobsMemory.create")(function*(request: JobRequest) {
        const mode = yield* modeOf(request)
        if (mode === undefined) return yield* Effect.fail(accountNotFound(request.accountId))
        const job = yield* newJobOf(request, mode)
        const now = yield* Time.now
        const pending = job.approval === null ? null : { ...job.approval, id: crypto.randomUUID() }
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
          approvalId: pending?.id ?? null,
          attemptStartedAt: null,
          fence: null,
          attempt: 0,
          createdAt: now.iso,
          startedAt: null,
          finishedAt: null
        }
        rows.push(row)
        if (pending !== null) {
          yield* approvals.insertPending({
            id: pending.id,
            workspaceId: job.workspaceId,
            accountId: job.accountId,
            jobId: row.id,
            kind: job.kind,
            target: pending.target,
            text: pending.text,
            createdIso: now.iso,
            expiresAt: pending.expiresAt
          })
        }
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

      const release = (id: string, input: unknown) =>
        Effect.map(awaiting(id), (row) => {
          if (row !== undefined) rows[rows.indexOf(row)] = { ...row, status: "queued", input }
        })

      const fail = (id: string, error: JobFailure) =>
        Effect.flatMap(awaiting(id), (row) => row === undefined ? Effect.void : Effect.asVoid(ended(row, "failed", error)))

      const openWritesOf = (accountId: string) =>
        Effect.sync(() =>
          rows
            .filter((row) => row.accountId === accountId && row.isWrite && openWriteStatuses.has(row.status))
            .map(({ id, kind, status, input }): OpenWrite => ({ id, kind, status, input }))
        )

      const ofAccount = (accountId: string) => rows.filter((row) => row.accountId === accountId)

      const openCounts = (accountId: string) =>
        Effect.sync(() => {
          const counts = new Map<string, OpenCount>()
          for (const row of ofAccount(accountId).filter((candidate) => openWriteStatuses.has(candidate.status))) {
            const key = `${row.status} ${row.kind}`
            counts.set(key, { status: row.status, kind: row.kind, count: (counts.get(key)?.count ?? 0) + 1 })
          }
          return [...counts.values()]
        })

      const messagedAmong = (accountId: string, providerIds: ReadonlyArray<string>) =>
        Effect.sync((): ReadonlySet<string> =>
          new Set(
            ofAccount(accountId)
              .filter((row) => row.kind === "send_message")
              .flatMap((row) => {
                const recipient = recipientOf(row.result)
                return recipient !== undefined && providerIds.includes(recipient) ? [recipient] : []
              })
          )
        )

      return Context.make(Jobs, Jobs.of({ create, get, list, cancel, cancelOpenOf })).pipe(
        Context.add(JobTableMemory, JobTableMemory.of({ byId, release, fail, openWritesOf, openCounts, messagedAmong }))
      )
    })
  )

/** The in-memory `Jobs` for `accounts`, and the {@link JobTableMemory} under it; needs `JobWatch` and `JobApprovals`. */
export const layerNoDeps = (accounts: ReadonlyArray<MemoryAccount>) =>
  jobsOn(Effect.succeed<ModeOf>((workspaceId, accountId) =>
    Effect.sync(() => accounts.find((account) => account.workspaceId === workspaceId && account.accountId === accountId)?.mode)
  ))

/** `layerNoDeps` with the job watch; needs `Notices` (in memory where there is no PostgreSQL) and `JobApprovals`. */
export const layer = (accounts: ReadonlyArray<MemoryAccount>) => layerNoDeps(accounts).pipe(Layer.provide(JobWatch.layer))

/**
 * The in-memory `Jobs` and {@link JobTableMemory} of the in-memory accounts (`accounts/AccountsMemory.ts`), each job
 * created in its account's mode at the time; needs `AccountRowsMemory`, `Notices` and `JobApprovals`.
 */
export const layerOnAccounts = jobsOn(Effect.gen(function*() {
  const accounts = yield* AccountRowsMemory
  const modeOf: ModeOf = (workspaceId, accountId) =>
    Effect.map(accounts.row(accountId), (row) => row?.workspaceId === workspaceId ? row.mode : undefined)
  return modeOf
})).pipe(Layer.provide(JobWatch.layer))
