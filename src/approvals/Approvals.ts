/**
 * Approvals as the API sees them: the pending writes with their target and
 * exact text, and a person's decision (approve, optionally with the text to
 * send instead; or reject, optionally with a reason).
 */
import { Context, Effect, Layer, Schema } from "effect"
import { ActivityLog, type NewActivity } from "../activity/ActivityLog.ts"
import { foreignCursor } from "../domain/Cursor.ts"
import { Expired, Invalid, Missing, WrongState } from "../domain/Failures.ts"
import { commands, isCommandName } from "../domain/Commands.ts"
import type { ApprovalStatus } from "../domain/Job.ts"
import * as Time from "../domain/Time.ts"
import { commandInWords } from "../domain/Words.ts"
import { Governor } from "../jobs/Governor.ts"
import { type JobRecord, toJobRecord } from "../jobs/JobRow.ts"
import { JobStore } from "../jobs/JobStore.ts"
import { JobWatch } from "../jobs/JobWatch.ts"
import { withText } from "../jobs/WriteTarget.ts"
import { type ApprovalFilters, type ApprovalRow, ApprovalStore, type Decision } from "./ApprovalStore.ts"
import type { ApprovalQueueQuery } from "./ApprovalTable.ts"

/** An approval in its API form. */
export interface ApprovalRecord {
  readonly id: string
  readonly accountId: string
  readonly jobId: string
  readonly kind: string
  readonly status: ApprovalStatus
  readonly target: string | null
  readonly text: string | null
  readonly reason: string | null
  readonly createdAt: string
  readonly expiresAt: string
  readonly decidedAt: string | null
}

/** An approval with who decided it (`user:<id>`, `key:<id>`, `expiry`, `cancellation`), for people. */
export interface DecidedApproval extends ApprovalRecord {
  readonly decidedBy: string | null
}

/** Filters of `GET /v1/approvals`. */
export interface ApprovalListing {
  readonly status?: ApprovalStatus | undefined
  readonly accountId?: string | undefined
  readonly cursor?: string | undefined
  readonly limit: number
}

/** The API form at `nowMs`: a pending approval past its time is already expired. */
export const toRecord = (row: ApprovalRow, nowMs: number): ApprovalRecord => ({
  id: row.id,
  accountId: row.accountId,
  jobId: row.jobId,
  kind: row.kind,
  status: row.status === "pending" && row.expiresMs <= nowMs ? "expired" : row.status,
  target: row.target,
  text: row.text,
  reason: row.reason,
  createdAt: row.createdAt,
  expiresAt: row.expiresAt,
  decidedAt: row.decidedAt
})

/** A listing's cursor: the position of the page's last approval (oldest first). */
const encodeCursor = (row: ApprovalRow) => Buffer.from(`approval:${row.createdMs}:${row.id}`).toString("base64url")
/** The position a cursor names; undefined for one this listing did not give. */
const decodeCursor = (cursor: string) => {
  const match = /^approval:(\d+):([0-9a-f-]{36})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"))
  return match === null ? undefined : { createdMs: Number(match[1]), id: match[2] }
}

export const approvalNotFound = (id: string) =>
  new Missing({ message: `No approval ${id} in this workspace.`, advice: { _tag: "ListApprovals" } })

/** The refusal of deciding an approval past its 72 hours (422 `approvalExpired`). */
export const expired = (row: ApprovalRow) =>
  new Expired({
    message: `The approval expired at ${row.expiresAt} (72 hours after it was asked for); the write was not sent and its job failed.`,
    advice: { _tag: "CreateJobAgain", kind: row.kind }
  })

/** The refusal of deciding an approval that is no longer pending (409). */
export const alreadyDecided = (row: ApprovalRow) =>
  new WrongState({ message: `The approval is already ${row.status}.`, advice: { _tag: "ReadItsJob", jobId: row.jobId } })

/**
 * A page of the approvals, oldest first, from the cursor on: `fetch` reads the approvals the
 * filters name (one more than the page, which tells whether there is a next).
 */
export const approvalsPage = (
  listing: ApprovalListing,
  fetch: (filters: ApprovalFilters) => Effect.Effect<ReadonlyArray<ApprovalRow>>
) =>
  Effect.gen(function*() {
    const after = listing.cursor === undefined ? undefined : decodeCursor(listing.cursor)
    if (listing.cursor !== undefined && after === undefined) {
      return yield* Effect.fail(foreignCursor("the oldest"))
    }
    const rows = yield* fetch({ status: listing.status, accountId: listing.accountId, after, limit: listing.limit + 1 })
    const now = yield* Time.now
    const page = rows.slice(0, listing.limit)
    const last = page[page.length - 1]
    return {
      approvals: page.map((row) => toRecord(row, now.ms)),
      nextCursor: rows.length > listing.limit && last !== undefined ? encodeCursor(last) : null
    }
  })

/** A page of the people's queue, as the approvals are now, with who decided each. */
export const queuePage = (found: Effect.Effect<{ readonly rows: ReadonlyArray<ApprovalRow>; readonly total: number }>) =>
  Effect.gen(function*() {
    const { rows, total } = yield* found
    const now = yield* Time.now
    return { approvals: rows.map((row) => ({ ...toRecord(row, now.ms), decidedBy: row.decidedBy })), total }
  })

/** The job's input with the person's text (none: as it is), checked against the command's schema. */
export const revisedInput = (kind: string, jobInput: unknown, text: string | undefined) =>
  Effect.gen(function*() {
    if (text === undefined) return jobInput
    const input = withText(kind, jobInput, text)
    if (input === undefined || !isCommandName(kind)) {
      return yield* Effect.fail(
        new Invalid({ message: `A ${kind} sends no text, so there is none to replace.`, advice: { _tag: "ApproveWithoutText" } })
      )
    }
    const decode = Schema.decodeUnknownEffect(commands[kind].input)
    return yield* decode(input).pipe(
      Effect.as(input),
      Effect.mapError((issue) =>
        new Invalid({
          message: `The edited text does not fit a ${kind}: ${String(issue.message)}`,
          advice: { _tag: "FixApprovedText" }
        })
      )
    )
  })

/** The write an approval is for, in words: "invitation to maria-garcia". */
const what = (row: ApprovalRow) => `${commandInWords(row.kind).toLowerCase()}${row.target === null ? "" : ` to ${row.target}`}`

/** The activity entry of approving `row` (asked for as `id`; with `text` to send instead, when given) by `by`. */
export const approvedActivity = (id: string, row: ApprovalRow, text: string | undefined, by: string): NewActivity => {
  const edited = text !== undefined && text !== row.text
  return {
    workspaceId: row.workspaceId,
    actor: by,
    action: edited ? "approval.edited" : "approval.approved",
    resource: { type: "approval", id },
    summary: `${edited ? "edited and approved" : "approved"} the ${what(row)}`,
    ...(edited ? { before: { text: row.text }, after: { text } } : { after: { text: row.text } })
  }
}

/** The activity entry of rejecting `row` (asked for as `id`; for `reason`, when given) by `by`. */
export const rejectedActivity = (id: string, row: ApprovalRow, reason: string | undefined, by: string): NewActivity => ({
  workspaceId: row.workspaceId,
  actor: by,
  action: "approval.rejected",
  resource: { type: "approval", id },
  summary: `rejected the ${what(row)}${reason === undefined ? "" : `: ${reason}`}`,
  after: { reason: reason ?? null }
})

export class Approvals extends Context.Service<Approvals, {
  readonly list: (workspaceId: string, listing: ApprovalListing) => Effect.Effect<
    { readonly approvals: ReadonlyArray<ApprovalRecord>; readonly nextCursor: string | null },
    Invalid
  >
  /** A page of the people's queue (pending, or decided) with the full count of what matches. */
  readonly queue: (workspaceId: string, query: ApprovalQueueQuery) => Effect.Effect<{
    readonly approvals: ReadonlyArray<DecidedApproval>
    readonly total: number
  }>
  /** Approves a pending write; `text` replaces what it sends. */
  readonly approve: (workspaceId: string, id: string, text: string | undefined, by: string) => Effect.Effect<
    { readonly approval: ApprovalRecord; readonly job: JobRecord },
    Missing | WrongState | Expired | Invalid
  >
  /** Rejects a pending write: its job fails with `approvalRejected`. */
  readonly reject: (workspaceId: string, id: string, reason: string | undefined, by: string) => Effect.Effect<
    { readonly approval: ApprovalRecord; readonly job: JobRecord },
    Missing | WrongState | Expired
  >
}>()("outreach/Approvals") {
  static readonly layerNoDeps = Layer.effect(
    Approvals,
    Effect.gen(function*() {
      const store = yield* ApprovalStore
      const jobs = yield* JobStore
      const governor = yield* Governor
      const watch = yield* JobWatch
      const activity = yield* ActivityLog

      const list = Effect.fn("Approvals.list")((workspaceId: string, listing: ApprovalListing) =>
        approvalsPage(listing, (filters) => store.list(workspaceId, filters))
      )

      const queue = Effect.fn("Approvals.queue")((workspaceId: string, query: ApprovalQueueQuery) =>
        queuePage(store.queue(workspaceId, query))
      )

      const pending = (workspaceId: string, id: string) =>
        Effect.gen(function*() {
          const row = yield* store.get(workspaceId, id)
          if (row === undefined) return yield* Effect.fail(approvalNotFound(id))
          const now = yield* Time.now
          if (row.status === "expired") return yield* Effect.fail(expired(row))
          if (row.status !== "pending") return yield* Effect.fail(alreadyDecided(row))
          if (row.expiresMs <= now.ms) {
            // Past its time but not yet swept: deciding records the expiry (the job fails) and answers approvalExpired.
            yield* decided(row, { _tag: "Reject", reason: null }, "expiry")
          }
          return row
        })

      /** Applies the decision, then reports the approval and its job as they now are. */
      const decided = (row: ApprovalRow, decision: Decision, by: string) =>
        Effect.gen(function*() {
          const outcome = yield* store.decide(row, decision, by)
          const after = yield* store.get(row.workspaceId, row.id)
          const job = yield* jobs.byId(row.jobId)
          if (after === undefined || job === undefined) return yield* Effect.fail(approvalNotFound(row.id))
          if (outcome === "expired") {
            yield* watch.finished(row.jobId)
            return yield* Effect.fail(expired(after))
          }
          if (outcome === "notPending") return yield* Effect.fail(alreadyDecided(after))
          if (decision._tag === "Approve") yield* governor.wake(row.accountId)
          else yield* watch.finished(row.jobId)
          const now = yield* Time.now
          return { approval: toRecord(after, now.ms), job: toJobRecord(job) }
        })

      /** The job's input with the person's text, checked against the command's schema. */
      const revised = (row: ApprovalRow, text: string | undefined) =>
        Effect.gen(function*() {
          const job = yield* jobs.byId(row.jobId)
          if (job === undefined) return yield* Effect.fail(approvalNotFound(row.id))
          return yield* revisedInput(row.kind, job.input, text)
        })

      const approve = Effect.fn("Approvals.approve")(function*(
        workspaceId: string,
        id: string,
        text: string | undefined,
        by: string
      ) {
        const row = yield* pending(workspaceId, id)
        const input = yield* revised(row, text)
        const outcome = yield* decided(row, { _tag: "Approve", text: text ?? null, input }, by)
        yield* activity.record(approvedActivity(id, row, text, by))
        return outcome
      })

      const reject = Effect.fn("Approvals.reject")(function*(
        workspaceId: string,
        id: string,
        reason: string | undefined,
        by: string
      ) {
        const row = yield* pending(workspaceId, id)
        const outcome = yield* decided(row, { _tag: "Reject", reason: reason ?? null }, by)
        yield* activity.record(rejectedActivity(id, row, reason, by))
        return outcome
      })

      return Approvals.of({ list, queue, approve, reject })
    })
  )

  /** `layerNoDeps` with its services' layers. */
  static readonly layer = Approvals.layerNoDeps.pipe(
    Layer.provide([ApprovalStore.layer, Governor.layer, JobStore.layer, JobWatch.layer, ActivityLog.layer])
  )
}
