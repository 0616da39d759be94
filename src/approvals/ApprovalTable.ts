/**
 * The `approvals` table: the one module with SQL on it (issue #19, one owner
 * per table). Statements only, each joining the caller's transaction when
 * there is one; what a decision does to the job is `ApprovalStore`'s, and a
 * job's own approval (created with it, rejected when it is cancelled) is
 * written through here by `jobs/`, through its port `JobApprovals`
 * (`ApprovalTable.jobApprovals`).
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { ApprovalStatus } from "../domain/Job.ts"
import * as Time from "../domain/Time.ts"
import { JobApprovals, type NewApproval } from "../jobs/JobApprovals.ts"
import { EpochMillis, Nullable, Timestamp } from "../platform/Rows.ts"

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
  decidedAt: Nullable(Timestamp),
  /** `user:<id>`, `key:<id>`, `expiry` or `cancellation`; null while pending. */
  decidedBy: Schema.NullOr(Schema.String)
})
export type ApprovalRow = typeof ApprovalRow.Type
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(ApprovalRow))

const columns = `
  a.id::text AS id, a.workspace_id::text AS "workspaceId", a.account_id::text AS "accountId", a.job_id::text AS "jobId",
  a.kind, a.target, a.text, a.status, a.reason, a.created_at AS "createdAt", a.created_at AS "createdMs",
  a.expires_at AS "expiresAt", a.expires_at AS "expiresMs", a.decided_at AS "decidedAt", a.decided_by AS "decidedBy"`

/** Filters of an approval listing, oldest first. */
export interface ApprovalFilters {
  readonly status?: ApprovalStatus | undefined
  readonly accountId?: string | undefined
  /** Only approvals after this position (the cursor): creation instant and id. */
  readonly after?: { readonly createdMs: number; readonly id: string } | undefined
  readonly limit: number
}

/**
 * A page of the people's queue: `pending` (still open, the soonest to expire first) or
 * `decided` (approved, rejected or expired, the latest decision first), with the filters of
 * the dashboard, counted in full.
 */
export interface ApprovalQueueQuery {
  readonly view: "pending" | "decided"
  readonly accountId?: string | undefined
  readonly kind?: string | undefined
  /** Only pending approvals expiring within this many milliseconds. */
  readonly expiresWithinMs?: number | undefined
  readonly offset: number
  readonly limit: number
}

export class ApprovalTable extends Context.Service<ApprovalTable, {
  readonly get: (workspaceId: string, id: string) => Effect.Effect<ApprovalRow | undefined>
  readonly byJob: (jobId: string) => Effect.Effect<ApprovalRow | undefined>
  readonly list: (workspaceId: string, filters: ApprovalFilters) => Effect.Effect<ReadonlyArray<ApprovalRow>>
  /** A page of the queue and how many match in all. */
  readonly queue: (workspaceId: string, query: ApprovalQueueQuery) => Effect.Effect<{
    readonly rows: ReadonlyArray<ApprovalRow>
    readonly total: number
  }>
  /** The approval, its row locked until the caller's transaction ends. */
  readonly lock: (id: string) => Effect.Effect<ApprovalRow | undefined>
  readonly insertPending: JobApprovals["Service"]["insertPending"]
  /** Expires a pending approval; false when it was no longer pending. */
  readonly markExpired: (id: string, nowIso: string) => Effect.Effect<boolean>
  readonly markApproved: (id: string, text: string | null, nowIso: string, by: string) => Effect.Effect<void>
  readonly markRejected: (id: string, reason: string | null, nowIso: string, by: string) => Effect.Effect<void>
  readonly rejectPendingOfJob: JobApprovals["Service"]["rejectPendingOfJob"]
  /** Pending approvals past their time, the earliest first, up to 500. */
  readonly due: (nowIso: string) => Effect.Effect<ReadonlyArray<ApprovalRow>>
  /** When the next pending approval expires (epoch ms), if any. */
  readonly nextExpiry: Effect.Effect<number | null>
}>()("outreach/ApprovalTable") {
  static readonly layer = Layer.effect(
    ApprovalTable,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
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

      const queue = (workspaceId: string, query: ApprovalQueueQuery) =>
        Effect.flatMap(Time.now, (now) => {
          const open = sql`a.status = 'pending' AND a.expires_at > ${now.iso}::timestamptz`
          const where = sql`a.workspace_id = ${workspaceId}
            AND ${query.view === "pending" ? open : sql`NOT (${open})`}
            ${query.accountId === undefined ? sql`` : sql`AND a.account_id = ${query.accountId}`}
            ${query.kind === undefined ? sql`` : sql`AND a.kind = ${query.kind}`}
            ${
            query.expiresWithinMs === undefined
              ? sql``
              : sql`AND a.expires_at <= ${Time.toIso(now.ms + query.expiresWithinMs)}::timestamptz`
          }`
          const order = query.view === "pending"
            ? sql`ORDER BY a.expires_at, a.id`
            : sql`ORDER BY COALESCE(a.decided_at, a.expires_at) DESC, a.id`
          return Effect.all({
            rows: rows(sql`SELECT ${select} FROM approvals a WHERE ${where} ${order} LIMIT ${query.limit} OFFSET ${query.offset}`),
            total: sql`SELECT count(*)::int AS total FROM approvals a WHERE ${where}`.pipe(
              Effect.flatMap(Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ total: Schema.Number })))),
              Effect.map((found) => found[0]?.total ?? 0),
              Effect.orDie
            )
          })
        })

      const lock = (id: string) =>
        rows(sql`SELECT ${select} FROM approvals a WHERE a.id = ${id} FOR UPDATE`).pipe(Effect.map((found) => found[0]))

      const insertPending = (approval: NewApproval) =>
        sql`
          INSERT INTO approvals (id, workspace_id, account_id, job_id, kind, target, text, status, created_at, expires_at)
          VALUES (${approval.id}, ${approval.workspaceId}, ${approval.accountId}, ${approval.jobId}, ${approval.kind},
                  ${approval.target}, ${approval.text}, 'pending', ${approval.createdIso}::timestamptz,
                  ${Time.toIso(approval.expiresAt)}::timestamptz)`.pipe(Effect.asVoid, Effect.orDie)

      const markExpired = (id: string, nowIso: string) =>
        sql`
          UPDATE approvals SET status = 'expired', decided_at = ${nowIso}::timestamptz
          WHERE id = ${id} AND status = 'pending' RETURNING id`.pipe(
          Effect.map((changed) => changed.length > 0),
          Effect.orDie
        )

      const markApproved = (id: string, text: string | null, nowIso: string, by: string) =>
        sql`
          UPDATE approvals SET status = 'approved', text = ${text},
            decided_at = ${nowIso}::timestamptz, decided_by = ${by}
          WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)

      const markRejected = (id: string, reason: string | null, nowIso: string, by: string) =>
        sql`
          UPDATE approvals SET status = 'rejected', reason = ${reason},
            decided_at = ${nowIso}::timestamptz, decided_by = ${by}
          WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)

      const rejectPendingOfJob = (jobId: string, reason: string, nowIso: string) =>
        sql`
          UPDATE approvals SET status = 'rejected', reason = ${reason},
            decided_at = ${nowIso}::timestamptz, decided_by = 'cancellation'
          WHERE job_id = ${jobId} AND status = 'pending'`.pipe(Effect.asVoid, Effect.orDie)

      const due = (nowIso: string) =>
        rows(sql`
          SELECT ${select} FROM approvals a
          WHERE a.status = 'pending' AND a.expires_at <= ${nowIso}::timestamptz ORDER BY a.expires_at LIMIT 500`)

      const nextExpiry = sql<{ at: unknown }>`
        SELECT MIN(expires_at) AS at FROM approvals WHERE status = 'pending'`.pipe(
        Effect.flatMap(Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ at: Nullable(EpochMillis) })))),
        Effect.map((found) => found[0]?.at ?? null),
        Effect.orDie
      )

      return ApprovalTable.of({
        get,
        byJob,
        list,
        queue,
        lock,
        insertPending,
        markExpired,
        markApproved,
        markRejected,
        rejectPendingOfJob,
        due,
        nextExpiry
      })
    })
  )

  /** The port `jobs/` writes a job's own approval through (`jobs/JobApprovals.ts`), answered by this table. */
  static readonly jobApprovals = Layer.effect(
    JobApprovals,
    Effect.map(ApprovalTable, (table) => JobApprovals.of({ insertPending: table.insertPending, rejectPendingOfJob: table.rejectPendingOfJob }))
  ).pipe(Layer.provide(ApprovalTable.layer))
}
