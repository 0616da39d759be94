/**
 * What `People` needs of the jobs about a person: a port, because `jobs/`
 * stands above `people/` in the import rule (a job's ending records its
 * person and invitation here). `JobStore` answers it (`JobStore.personJobs`),
 * with its own SQL on its own table; `App.ts` wires the two.
 */
import { Context, type Effect, Schema } from "effect"
import { JobStatus } from "../domain/Job.ts"
import { NullableTimestamp, Timestamp } from "../platform/Rows.ts"

/** A job linked to a person, as their timeline shows it. */
export const PersonJob = Schema.Struct({
  personId: Schema.String,
  accountId: Schema.String,
  jobId: Schema.String,
  kind: Schema.String,
  status: JobStatus,
  error: Schema.Unknown,
  result: Schema.Unknown,
  createdAt: Timestamp,
  startedAt: NullableTimestamp,
  finishedAt: NullableTimestamp
})
export type PersonJob = typeof PersonJob.Type

/**
 * A job of some account that may hold the person: a `connect` or
 * `send_message` running now (`in_flight`, since it started), or a cold
 * message (an InMail) a completed `send_message` sent (`cold_message`, since
 * it was sent).
 */
export const JobHold = Schema.Struct({
  accountId: Schema.String,
  reason: Schema.Literals(["in_flight", "cold_message"]),
  since: Timestamp
})
export type JobHold = typeof JobHold.Type

export class PersonJobs extends Context.Service<PersonJobs, {
  /** The workspace's jobs linked to these people (one query for them all). */
  readonly about: (workspaceId: string, personIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<PersonJob>>
  /**
   * The jobs of any account that may hold the person: those in flight, and the cold messages sent after
   * `coldSinceIso`; inside the caller's transaction when there is one.
   */
  readonly holding: (personId: string, coldSinceIso: string) => Effect.Effect<ReadonlyArray<JobHold>>
}>()("outreach/PersonJobs") {}
