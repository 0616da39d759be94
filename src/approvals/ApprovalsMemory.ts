/**
 * `Approvals` in memory, for fast tests of the approval routes without a database: the rules of
 * the stored approvals (`Approvals.ts`, `ApprovalStore.ts`), for one process, on the in-memory
 * jobs (`jobs/JobsMemory.ts`). A job in `approve` or `assist` mode records its pending approval
 * through the port `JobApprovals` ({@link tableLayer} answers it), and a cancelled job rejects it.
 * Approvals are listed oldest first a page at a time, and queued for people as the table queues
 * them. A decision is taken once, within the approval's 72 hours: approving (with the text to send
 * instead, checked against the command's schema) queues the job, rejecting fails it; one past its
 * time expires as it is decided, and fails its job. Each decision is recorded in the `ActivityLog`
 * it is given. Nothing sweeps expired approvals (the stored `ApprovalExpiry` does): a pending one
 * past its time reads as expired, as it does before the sweep.
 */
import { Context, Effect, Layer } from "effect"
import { ActivityLog } from "../activity/ActivityLog.ts"
import * as Time from "../domain/Time.ts"
import { JobApprovals, type NewApproval } from "../jobs/JobApprovals.ts"
import { toJobRecord } from "../jobs/JobRow.ts"
import * as JobsMemory from "../jobs/JobsMemory.ts"
import {
  alreadyDecided,
  type ApprovalListing,
  approvalNotFound,
  Approvals,
  approvalsPage,
  approvedActivity,
  expired,
  queuePage,
  rejectedActivity,
  revisedInput,
  toRecord
} from "./Approvals.ts"
import { type ApprovalRow, expiredFailure, rejectedFailure } from "./ApprovalStore.ts"
import type { ApprovalFilters, ApprovalQueueQuery } from "./ApprovalTable.ts"

/** The in-memory approvals table, oldest first, which the in-memory jobs write through `JobApprovals`. */
class ApprovalTableMemory extends Context.Service<ApprovalTableMemory, Array<ApprovalRow>>()("outreach/ApprovalTableMemory") {}

/** A fresh approvals table, and the port `JobApprovals` the in-memory jobs write a job's approval through. */
export const tableLayer = Layer.effectContext(Effect.sync(() => {
  const rows: Array<ApprovalRow> = []
  const insertPending = (approval: NewApproval) =>
    Effect.sync(() => {
      rows.push({
        id: approval.id,
        workspaceId: approval.workspaceId,
        accountId: approval.accountId,
        jobId: approval.jobId,
        kind: approval.kind,
        target: approval.target,
        text: approval.text,
        status: "pending",
        reason: null,
        createdAt: approval.createdIso,
        createdMs: Date.parse(approval.createdIso),
        expiresAt: Time.toIso(approval.expiresAt),
        expiresMs: approval.expiresAt,
        decidedAt: null,
        decidedBy: null
      })
    })
  const rejectPendingOfJob = (jobId: string, reason: string, nowIso: string) =>
    Effect.sync(() => {
      const row = rows.find((candidate) => candidate.jobId === jobId && candidate.status === "pending")
      if (row !== undefined) {
        rows[rows.indexOf(row)] = { ...row, status: "rejected", reason, decidedAt: nowIso, decidedBy: "cancellation" }
      }
    })
  return Context.make(ApprovalTableMemory, rows).pipe(
    Context.add(JobApprovals, JobApprovals.of({ insertPending, rejectPendingOfJob }))
  )
}))

/** Ordering by a key, then by id (as the table's `ORDER BY …, id`). */
const byThenId = (key: (row: ApprovalRow) => number, direction: 1 | -1) => (a: ApprovalRow, b: ApprovalRow) =>
  key(a) === key(b) ? (a.id < b.id ? -1 : 1) : (key(a) < key(b) ? -direction : direction)

/** The in-memory `Approvals`; needs the approvals table ({@link tableLayer}), the in-memory jobs' table and the `ActivityLog`. */
export const layerNoDeps = Layer.effect(
  Approvals,
  Effect.gen(function*() {
    const rows = yield* ApprovalTableMemory
    const jobs = yield* JobsMemory.JobTableMemory
    const activity = yield* ActivityLog

    const isOpen = (row: ApprovalRow, nowMs: number) => row.status === "pending" && row.expiresMs > nowMs

    const fetch = (workspaceId: string, filters: ApprovalFilters) =>
      Effect.map(Time.now, (now) =>
        rows
          .filter((row) =>
            row.workspaceId === workspaceId &&
            (filters.status === undefined || toRecord(row, now.ms).status === filters.status) &&
            (filters.accountId === undefined || row.accountId === filters.accountId) &&
            (filters.after === undefined || row.createdMs > filters.after.createdMs ||
              (row.createdMs === filters.after.createdMs && row.id > filters.after.id))
          )
          .toSorted(byThenId((row) => row.createdMs, 1))
          .slice(0, filters.limit))

    const list = Effect.fn("ApprovalsMemory.list")((workspaceId: string, listing: ApprovalListing) =>
      approvalsPage(listing, (filters) => fetch(workspaceId, filters))
    )

    const queue = Effect.fn("ApprovalsMemory.queue")((workspaceId: string, query: ApprovalQueueQuery) =>
      queuePage(Effect.map(Time.now, (now) => {
        const matching = rows
          .filter((row) =>
            row.workspaceId === workspaceId &&
            (query.view === "pending") === isOpen(row, now.ms) &&
            (query.accountId === undefined || row.accountId === query.accountId) &&
            (query.kind === undefined || row.kind === query.kind) &&
            (query.expiresWithinMs === undefined || row.expiresMs <= now.ms + query.expiresWithinMs)
          )
          .toSorted(
            query.view === "pending"
              ? byThenId((row) => row.expiresMs, 1)
              : byThenId((row) => Date.parse(row.decidedAt ?? row.expiresAt), -1)
          )
        return { rows: matching.slice(query.offset, query.offset + query.limit), total: matching.length }
      }))
    )

    /** Changes the approval in place; answers it as changed. */
    const change = (row: ApprovalRow, changed: Partial<ApprovalRow>) =>
      Effect.sync(() => {
        const after: ApprovalRow = { ...row, ...changed }
        rows[rows.indexOf(row)] = after
        return after
      })

    /** The approval still open for a decision; one past its time is expired now (its job fails) and refused. */
    const pending = (workspaceId: string, id: string) =>
      Effect.gen(function*() {
        const row = rows.find((candidate) => candidate.workspaceId === workspaceId && candidate.id === id.toLowerCase())
        if (row === undefined) return yield* Effect.fail(approvalNotFound(id))
        const now = yield* Time.now
        if (row.status === "expired") return yield* Effect.fail(expired(row))
        if (row.status !== "pending") return yield* Effect.fail(alreadyDecided(row))
        if (row.expiresMs <= now.ms) {
          const after = yield* change(row, { status: "expired", decidedAt: now.iso })
          yield* jobs.fail(row.jobId, expiredFailure)
          return yield* Effect.fail(expired(after))
        }
        return row
      })

    /** The approval's job, which must still await it; then the decision, and both as they now are. */
    const decided = (row: ApprovalRow, decide: (nowIso: string) => Effect.Effect<ApprovalRow>) =>
      Effect.gen(function*() {
        const job = yield* jobs.byId(row.jobId)
        if (job === undefined) return yield* Effect.fail(approvalNotFound(row.id))
        if (job.status !== "awaiting_approval") return yield* Effect.fail(alreadyDecided(row))
        const now = yield* Time.now
        const after = yield* decide(now.iso)
        const moved = yield* jobs.byId(row.jobId)
        return { approval: toRecord(after, now.ms), job: toJobRecord(moved ?? job) }
      })

    const approve = Effect.fn("ApprovalsMemory.approve")(function*(workspaceId: string, id: string, text: string | undefined, by: string) {
      const row = yield* pending(workspaceId, id)
      const job = yield* jobs.byId(row.jobId)
      if (job === undefined) return yield* Effect.fail(approvalNotFound(row.id))
      const input = yield* revisedInput(row.kind, job.input, text)
      const outcome = yield* decided(row, (nowIso) =>
        Effect.tap(
          change(row, { status: "approved", text: text ?? row.text, decidedAt: nowIso, decidedBy: by }),
          () => jobs.release(row.jobId, input)
        ))
      yield* activity.record(approvedActivity(id, row, text, by))
      return outcome
    })

    const reject = Effect.fn("ApprovalsMemory.reject")(function*(workspaceId: string, id: string, reason: string | undefined, by: string) {
      const row = yield* pending(workspaceId, id)
      const outcome = yield* decided(row, (nowIso) =>
        Effect.tap(
          change(row, { status: "rejected", reason: reason ?? null, decidedAt: nowIso, decidedBy: by }),
          () => jobs.fail(row.jobId, rejectedFailure(reason ?? null))
        ))
      yield* activity.record(rejectedActivity(id, row, reason, by))
      return outcome
    })

    return Approvals.of({ list, queue, approve, reject })
  })
)

/**
 * The in-memory approvals on in-memory jobs for `accounts`, with the jobs (`Jobs`) and their
 * table; needs `Notices` and the `ActivityLog`.
 */
export const withJobs = (accounts: ReadonlyArray<JobsMemory.MemoryAccount>) =>
  layerNoDeps.pipe(Layer.provideMerge(JobsMemory.layer(accounts)), Layer.provideMerge(tableLayer))
