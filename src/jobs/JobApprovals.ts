/**
 * What a job needs of its approval: a port, because `approvals/` stands above
 * `jobs/` in the import rule (deciding an approval moves its job, and the
 * decision waits for the job and wakes the Governor). A job in `approve` or
 * `assist` mode is created with its pending approval in one transaction, and a
 * cancelled job rejects it in its ending's; both rows are the approvals' owner's
 * to write (`approvals/ApprovalTable.ts`, which answers this port:
 * `ApprovalTable.jobApprovals`). `App.ts` wires the two.
 */
import { Context, type Effect } from "effect"

/** A pending approval to record with its job. */
export interface NewApproval {
  readonly id: string
  readonly workspaceId: string
  readonly accountId: string
  readonly jobId: string
  readonly kind: string
  readonly target: string | null
  readonly text: string | null
  readonly createdIso: string
  readonly expiresAt: number
}

export class JobApprovals extends Context.Service<JobApprovals, {
  /** Records a new job's pending approval, inside the caller's transaction (the job's). */
  readonly insertPending: (approval: NewApproval) => Effect.Effect<void>
  /** Rejects the job's approval if it is still pending (the job was cancelled), inside the caller's transaction. */
  readonly rejectPendingOfJob: (jobId: string, reason: string, nowIso: string) => Effect.Effect<void>
}>()("outreach/JobApprovals") {}
