/**
 * Approvals in PostgreSQL: a pending write waits for a person for 72 hours.
 * Every decision is one transaction guarded by `status = 'pending'`, and the
 * job moves with it (approved: queued with the text that will be sent;
 * rejected or expired: failed, with its `job.failed` event).
 *
 * @since 1.0.0
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { ApprovalStatus, type JobFailure } from "../domain/Job.ts"
import * as Time from "../domain/Time.ts"
import { EpochMillis, Timestamp } from "../platform/Rows.ts"
import { JobStore } from "./JobStore.ts"

/** An approval as stored. */
export const ApprovalRow = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  accountId: Schema.String,
  jobId: Schema.String,
  kind: Schema.String,
  target: Schema.NullOr(Schema.String),
  text: Schema.NullOr(Schema.String),
  status: ApprovalStatus,
  reason: Schema.NullOr(Schema.String),
  createdAt: Timestamp,
  createdMs: EpochMillis,
  expiresAt: Timestamp,
  expiresMs: EpochMillis,
  decidedAt: Schema.NullOr(Timestamp)
})
export type ApprovalRow = typeof ApprovalRow.Type
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(ApprovalRow))

const columns = `
  a.id::text AS id, a.workspace_id::text AS "workspaceId", a.account_id::text AS "accountId", a.job_id::text AS "jobId",
  a.kind, a.target, a.text, a.status, a.reason, a.created_at AS "createdAt", a.created_at AS "createdMs",
  a.expires_at AS "expiresAt", a.expires_at AS "expiresMs", a.decided_at AS "decidedAt"`

/** Filters of an approval listing, oldest first. */
export interface ApprovalFilters {
  readonly status?: ApprovalStatus | undefined
  readonly accountId?: string | undefined
  /** Only approvals after this position (the cursor): creation instant and id. */
  readonly after?: { readonly createdMs: number; readonly id: string } | undefined
  readonly limit: number
}

/** A decision for a pending approval. */
export type Decision =
  | { readonly _tag: "Approve"; readonly text: string | null; readonly input: unknown }
  | { readonly _tag: "Reject"; readonly reason: string | null }

/** What became of a decision. */
export type DecisionOutcome = "decided" | "notPending" | "expired"

/** The job error of an expired approval. */
export const expiredFailure: JobFailure = {
  type: "approvalExpired",
  message: "Nobody approved this write within 72 hours, so its approval expired and it was not sent.",
  next: "Create the job again if the write should still go out."
}

/** The job error of a rejected approval. */
export const rejectedFailure = (reason: string | null): JobFailure => ({
  type: "approvalRejected",
  message: reason === null ? "A person rejected this write; it was not sent." : `A person rejected this write: ${reason}`,
  next: "Change the request and create a new job if it should still go out."
})

export class ApprovalStore extends Context.Service<ApprovalStore, {
  readonly get: (workspaceId: string, id: string) => Effect.Effect<ApprovalRow | undefined>
  readonly byJob: (jobId: string) => Effect.Effect<ApprovalRow | undefined>
  readonly list: (workspaceId: string, filters: ApprovalFilters) => Effect.Effect<ReadonlyArray<ApprovalRow>>
  /** Applies a decision to a pending approval (one that has expired meanwhile expires instead). */
  readonly decide: (approval: ApprovalRow, decision: Decision, by: string) => Effect.Effect<DecisionOutcome>
  /** Expires every pending approval past its time; how many. */
  readonly expireDue: Effect.Effect<number>
  /** When the next pending approval expires (epoch ms), if any. */
  readonly nextExpiry: Effect.Effect<number | null>
}>()("outreach/ApprovalStore") {
  static readonly layer = Layer.effect(
    ApprovalStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const jobs = yield* JobStore
      const select = sql.unsafe(columns)
      const rows = <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
        query.pipe(Effect.flatMap(decodeRows), Effect.orDie)

      const get = (workspaceId: string, id: string) =>
        rows(sql`SELECT ${select} FROM approvals a WHERE a.id = ${id} AND a.workspace_id = ${workspaceId}`).pipe(
          Effect.map((found) => found[0])
        )

      const byJob = (jobId: string) =>
        rows(sql`SELECT ${select} FROM approvals a WHERE a.job_id = ${jobId}`).pipe(Effect.map((found) => found[0]))

      const list = (workspaceId: string, filters: ApprovalFilters) =>
        Effect.flatMap(Time.now, (now) => {
          // A pending approval past its time is expired even before the sweeper gets to it.
          const status = filters.status === undefined
            ? sql``
            : filters.status === "pending"
            ? sql`AND a.status = 'pending' AND a.expires_at > ${now.iso}::timestamptz`
            : filters.status === "expired"
            ? sql`AND (a.status = 'expired' OR (a.status = 'pending' AND a.expires_at <= ${now.iso}::timestamptz))`
            : sql`AND a.status = ${filters.status}`
          const after = filters.after
          return rows(sql`
            SELECT ${select} FROM approvals a
            WHERE a.workspace_id = ${workspaceId} ${status}
              ${filters.accountId === undefined ? sql`` : sql`AND a.account_id = ${filters.accountId}`}
              ${
            after === undefined
              ? sql``
              : sql`AND (a.created_at, a.id) > (${Time.toIso(after.createdMs)}::timestamptz, ${after.id}::uuid)`
          }
            ORDER BY a.created_at, a.id LIMIT ${filters.limit}`)
        })

      /** Expires one pending approval and fails its job, inside the caller's transaction. */
      const expireOne = (approval: ApprovalRow) =>
        Effect.gen(function*() {
          const now = yield* Time.now
          const changed = yield* sql`
            UPDATE approvals SET status = 'expired', decided_at = ${now.iso}::timestamptz
            WHERE id = ${approval.id} AND status = 'pending' RETURNING id`
          if (changed.length === 0) return false
          const job = yield* jobs.byId(approval.jobId)
          if (job !== undefined) {
            yield* jobs.finish(job, { _tag: "Failed", error: expiredFailure, writesNotBefore: null }, ["awaiting_approval"])
          }
          return true
        })

      const decide = Effect.fn("ApprovalStore.decide")(function*(approval: ApprovalRow, decision: Decision, by: string) {
        const now = yield* Time.now
        return yield* sql.withTransaction(Effect.gen(function*() {
          const locked = yield* rows(sql`SELECT ${select} FROM approvals a WHERE a.id = ${approval.id} FOR UPDATE`)
          const current = locked[0]
          if (current === undefined || current.status !== "pending") {
            return current?.status === "expired" ? "expired" : "notPending"
          }
          if (current.expiresMs <= now.ms) {
            yield* expireOne(current)
            return "expired"
          }
          const job = yield* jobs.byId(current.jobId)
          if (job === undefined || job.status !== "awaiting_approval") return "notPending"
          if (decision._tag === "Approve") {
            yield* sql`
              UPDATE approvals SET status = 'approved', text = ${decision.text ?? current.text},
                decided_at = ${now.iso}::timestamptz, decided_by = ${by}
              WHERE id = ${current.id}`
            yield* sql`
              UPDATE jobs SET status = 'queued', input = ${JSON.stringify(decision.input)}::jsonb
              WHERE id = ${current.jobId} AND status = 'awaiting_approval'`
          } else {
            yield* sql`
              UPDATE approvals SET status = 'rejected', reason = ${decision.reason},
                decided_at = ${now.iso}::timestamptz, decided_by = ${by}
              WHERE id = ${current.id}`
            yield* jobs.finish(
              job,
              { _tag: "Failed", error: rejectedFailure(decision.reason), writesNotBefore: null },
              ["awaiting_approval"]
            )
          }
          return "decided"
        })).pipe(Effect.orDie)
      })

      const expireDue = Effect.gen(function*() {
        const now = yield* Time.now
        const due = yield* rows(sql`
          SELECT ${select} FROM approvals a
          WHERE a.status = 'pending' AND a.expires_at <= ${now.iso}::timestamptz ORDER BY a.expires_at LIMIT 500`)
        let expired = 0
        for (const approval of due) {
          if (yield* sql.withTransaction(expireOne(approval)).pipe(Effect.orDie)) expired++
        }
        return expired
      }).pipe(Effect.withSpan("ApprovalStore.expireDue"))

      const nextExpiry = sql<{ at: unknown }>`
        SELECT MIN(expires_at) AS at FROM approvals WHERE status = 'pending'`.pipe(
        Effect.flatMap(Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ at: Schema.NullOr(EpochMillis) })))),
        Effect.map((found) => found[0]?.at ?? null),
        Effect.orDie
      )

      return ApprovalStore.of({ get, byJob, list, decide, expireDue, nextExpiry })
    })
  )
}
