/**
 * A job as stored, and its API form. Inputs and results are stored in their
 * JSON (encoded) form; the API layer decodes them with the command's schema.
 */
import { Schema } from "effect"
import { JobStatus, WaitReason } from "../domain/Job.ts"
import { BigIntNumber, EpochMillis, Nullable, NullableTimestamp, Timestamp } from "../platform/Rows.ts"

/** The columns every job query selects (table alias `j`), in this shape. */
export const JobRow = Schema.Struct({
  id: Schema.String,
  seq: BigIntNumber,
  workspaceId: Schema.String,
  accountId: Schema.String,
  kind: Schema.String,
  isWrite: Schema.Boolean,
  origin: Schema.Literals(["api", "service"]),
  status: JobStatus,
  input: Schema.Unknown,
  result: Schema.Unknown,
  error: Schema.Unknown,
  eta: NullableTimestamp,
  waitingReason: Schema.NullOr(WaitReason),
  waitingUntil: NullableTimestamp,
  approvalId: Schema.NullOr(Schema.String),
  attemptStartedAt: Nullable(EpochMillis),
  /** The owner epoch (fencing token) of the runner that claimed its running attempt; null before any. */
  fence: Nullable(BigIntNumber),
  /** How many write attempts were recorded for it (each before its driver call). */
  attempt: Schema.Number,
  createdAt: Timestamp,
  startedAt: NullableTimestamp,
  finishedAt: NullableTimestamp
})
export type JobRow = typeof JobRow.Type

/** Decodes query results into rows. */
export const decodeJobRows = Schema.decodeUnknownEffect(Schema.Array(JobRow))

/** The SQL select list producing a {@link JobRow}. */
export const jobColumns = `
  j.id::text AS id, j.seq, j.workspace_id::text AS "workspaceId", j.account_id::text AS "accountId", j.kind,
  j.is_write AS "isWrite", j.origin, j.status, j.input, j.result, j.error, j.eta,
  j.waiting_reason AS "waitingReason", j.waiting_until AS "waitingUntil", j.approval_id::text AS "approvalId",
  j.attempt_started_at AS "attemptStartedAt", j.fence, j.attempt, j.created_at AS "createdAt", j.started_at AS "startedAt",
  j.finished_at AS "finishedAt"`

/** A job in its API (JSON) form; `input` and `result` are the command's encoded forms. */
export interface JobRecord {
  readonly id: string
  readonly accountId: string
  readonly kind: string
  readonly status: JobStatus
  readonly input: unknown
  readonly result: unknown
  readonly error: unknown
  readonly eta: string | null
  readonly waitingFor: { readonly reason: WaitReason; readonly until: string | null } | null
  readonly approvalId: string | null
  readonly createdAt: string
  readonly startedAt: string | null
  readonly finishedAt: string | null
}

const waitingFor = (row: JobRow): JobRecord["waitingFor"] => {
  switch (row.status) {
    case "awaiting_approval":
      return { reason: "approval", until: null }
    case "queued":
    case "scheduled":
      // A queued job the Governor has not looked at yet waits behind the account's other work.
      return row.waitingReason === null
        ? { reason: "queue", until: null }
        : { reason: row.waitingReason, until: row.waitingUntil }
    default:
      return null
  }
}

/** The API form of a stored job. */
export const toJobRecord = (row: JobRow): JobRecord => ({
  id: row.id,
  accountId: row.accountId,
  kind: row.kind,
  status: row.status,
  input: row.input,
  result: row.result ?? null,
  error: row.error ?? null,
  eta: row.status === "scheduled" ? row.eta : null,
  waitingFor: waitingFor(row),
  approvalId: row.approvalId,
  createdAt: row.createdAt,
  startedAt: row.startedAt,
  finishedAt: row.finishedAt
})
