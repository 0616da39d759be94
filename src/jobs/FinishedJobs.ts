/**
 * Finished jobs kept in memory for `GET /v1/jobs/{id}`.
 *
 * A job's row never changes once the job is completed, failed or cancelled: every statement that
 * changes a job (`JobStore`: wait, start, finish, requeue, release, cancel) is guarded by the
 * statuses it moves from, none of them a finished one, and the service deletes no job (only the
 * deletion of its account or workspace would, and neither is ever deleted). So a finished job read
 * once answers every later read of it exactly, on any server; a job not finished is read each time,
 * since another server may move it. At most {@link capacity} are kept; the oldest goes first.
 */
import { isFinished } from "../domain/Job.ts"
import * as Recent from "../platform/Recent.ts"
import type { JobRecord } from "./JobRow.ts"

/** How many finished jobs one process keeps. */
export const capacity = 1000

export interface FinishedJobs {
  /** The job, when it is kept and belongs to `workspaceId`. */
  readonly get: (workspaceId: string, id: string) => JobRecord | undefined
  /** Keeps the job if it is finished; a job not finished is not kept. */
  readonly keep: (workspaceId: string, job: JobRecord) => void
}

/** An empty store of finished jobs, keeping at most `max`. */
export const make = (max: number = capacity): FinishedJobs => {
  const kept = Recent.make<string, { readonly workspaceId: string; readonly job: JobRecord }>(max)
  return {
    get: (workspaceId, id) => {
      const entry = kept.get(id)
      return entry !== undefined && entry.workspaceId === workspaceId ? entry.job : undefined
    },
    keep: (workspaceId, job) => {
      if (isFinished(job.status)) kept.add(job.id, { workspaceId, job })
    }
  }
}
