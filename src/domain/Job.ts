/**
 * Jobs and approvals: their statuses, why a job waits, and the rules that
 * read those lists (one place: the store, the Governor, the API and the docs
 * all use these).
 */
import { Schema } from "effect"
import type { Mode } from "./Account.ts"

/**
 * A job's status (decisions, Statuses):
 * - `queued`: accepted, next in line for its account;
 * - `awaiting_approval`: a write waiting for a person (modes `approve` and `assist`);
 * - `scheduled`: waiting for a time (`eta`): working hours, budget, pacing;
 * - `running`: on the network now;
 * - `completed`, `failed`, `cancelled`: finished.
 */
export const jobStatuses = [
  "queued",
  "awaiting_approval",
  "scheduled",
  "running",
  "completed",
  "failed",
  "cancelled"
] as const
export const JobStatus = Schema.Literals(jobStatuses).annotate({
  description: "queued, awaiting_approval, scheduled (has an eta), running, completed, failed or cancelled"
})
export type JobStatus = typeof JobStatus.Type

/** Statuses of a job that will not change again. */
export const finishedStatuses: ReadonlySet<JobStatus> = new Set(["completed", "failed", "cancelled"])

/** Statuses of a job that has not started, so it can still be cancelled. */
export const cancellableStatuses: ReadonlySet<JobStatus> = new Set(["queued", "awaiting_approval", "scheduled"])

/** Statuses the Governor picks work from. */
export const runnableStatuses: ReadonlyArray<JobStatus> = ["queued", "scheduled"]

/** Whether a job has finished. */
export const isFinished = (status: JobStatus): boolean => finishedStatuses.has(status)

/**
 * Why an unfinished job is not running yet (decisions, `waitingFor`):
 * - `approval`: a person must approve it;
 * - `working_hours`: the account's working hours are closed;
 * - `budget`: the category's daily, weekly or monthly budget is used up;
 * - `account_paused`: the account is paused, stopped or restricted (reads only);
 * - `account_connecting`: the account has not finished connecting;
 * - `reconnect`: the network signed the account out;
 * - `pacing`: the randomised pause between two writes;
 * - `queue`: other writes of the account go first.
 */
export const waitReasons = [
  "approval",
  "working_hours",
  "budget",
  "account_paused",
  "account_connecting",
  "reconnect",
  "pacing",
  "queue"
] as const
export const WaitReason = Schema.Literals(waitReasons).annotate({ description: "Why the job is not running yet" })
export type WaitReason = typeof WaitReason.Type

/** The type of a job's error: the network's own, or one of the service's. */
export const jobErrorTypes = [
  "offHours",
  "approvalRejected",
  "approvalExpired",
  "cancelled",
  "lowInviteQuality",
  "guardrail",
  "noteQuotaExhausted",
  "cannotResendYet",
  "invalidInput",
  "notFound",
  "network",
  "notSupported",
  "providerRateLimited",
  "signedOut",
  "interrupted",
  "accountRemoved"
] as const
export type JobErrorType = typeof jobErrorTypes[number]

/** A job's error, in the envelope's fields; some types carry more (a score, a date). */
export interface JobFailure {
  readonly type: JobErrorType
  readonly message: string
  readonly next: string
  /** `lowInviteQuality`: the target's score. */
  readonly score?: number
  /** `cannotResendYet`, `noteQuotaExhausted`: when it becomes possible. */
  readonly until?: string
}

/** An approval's status (decisions, Statuses). */
export const approvalStatuses = ["pending", "approved", "rejected", "expired"] as const
export const ApprovalStatus = Schema.Literals(approvalStatuses).annotate({
  description: "pending, approved, rejected or expired"
})
export type ApprovalStatus = typeof ApprovalStatus.Type

/** How long an approval waits for a decision (spec, Constants). */
export const APPROVAL_TTL_MS = 72 * 3_600_000

/** Writes that `approve` mode lets through without a person (spec, Mode rules). */
const exemptInApproveMode: ReadonlySet<string> = new Set(["withdraw_invite", "decline_invite"])

/** Whether a write of `kind` waits for a person under `mode` (reads never do). */
export const needsApproval = (mode: Mode, kind: string, isWrite: boolean): boolean => {
  if (!isWrite) return false
  switch (mode) {
    case "assist":
      return true
    case "approve":
      return !exemptInApproveMode.has(kind)
    case "autopilot":
      return false
  }
}

/** The longest `wait` of `GET /v1/jobs/{id}` (spec, Constants). */
export const MAX_WAIT_SECONDS = 60

/** The randomised pause between two writes of one account, in milliseconds (decisions: about a minute). */
export const PACING_MIN_MS = 45_000
export const PACING_MAX_MS = 120_000
