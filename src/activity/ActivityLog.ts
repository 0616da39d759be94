/**
 * The activity log: what people and keys did to the workspace, and when. The
 * one module with SQL on the `activity` table; the services that make such a
 * change record it here (approvals, the team, keys, seats), so REST, MCP and
 * the dashboard leave the same trace.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { seqPaging } from "../domain/Cursor.ts"
import type { Invalid } from "../domain/Failures.ts"
import * as Time from "../domain/Time.ts"
import { ActivityAction, type ActivityResource } from "../domain/Activity.ts"
import { BigIntNumber, Timestamp } from "../platform/Rows.ts"

export { ActivityAction } from "../domain/Activity.ts"

/** Who did it: `user:<id>`, `key:<id>`, or `operator` (the command line). */
export type Actor = string

/** One thing done, to record. */
export interface NewActivity {
  readonly workspaceId: string
  readonly actor: Actor
  readonly action: ActivityAction
  readonly resource: { readonly type: ActivityResource; readonly id: string }
  /** In words: "approved the invitation to …". */
  readonly summary: string
  readonly before?: unknown
  readonly after?: unknown
}

const ActivityRow = Schema.Struct({
  seq: BigIntNumber,
  id: Schema.String,
  at: Timestamp,
  actor: Schema.String,
  action: ActivityAction,
  resourceType: Schema.String,
  resourceId: Schema.String,
  summary: Schema.String,
  before: Schema.Unknown,
  after: Schema.Unknown
})
export type ActivityRecord = Omit<typeof ActivityRow.Type, "seq">
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(ActivityRow))

/** Filters of a listing, newest first. */
export interface ActivityListing {
  readonly action?: ActivityAction | undefined
  readonly actor?: Actor | undefined
  readonly resourceType?: string | undefined
  readonly cursor?: string | undefined
  readonly limit: number
}

const activityPages = seqPaging("activity", "the newest")

/** An entry with its place in the log (the table's `seq`: later entries have greater ones). */
export type SequencedActivity = typeof ActivityRow.Type

/**
 * One page of `listing`: `newest(beforeSeq, limit)` gives at most `limit` entries, newest first,
 * before `beforeSeq` when it is given. 422 for a cursor the log did not give out.
 */
export const pageOf = (
  listing: ActivityListing,
  newest: (beforeSeq: number | undefined, limit: number) => Effect.Effect<ReadonlyArray<SequencedActivity>>
) =>
  Effect.map(activityPages(listing, newest), ({ rows, nextCursor }) => ({
    entries: rows.map(({ seq: _seq, ...entry }) => entry),
    nextCursor
  }))

export class ActivityLog extends Context.Service<ActivityLog, {
  /** Records one thing done (joining the caller's transaction when there is one). */
  readonly record: (entry: NewActivity) => Effect.Effect<void>
  readonly list: (workspaceId: string, listing: ActivityListing) => Effect.Effect<
    { readonly entries: ReadonlyArray<ActivityRecord>; readonly nextCursor: string | null },
    Invalid
  >
}>()("outreach/ActivityLog") {
  static readonly layer = Layer.effect(
    ActivityLog,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // jsonb in, as text: the same on PostgreSQL and PGlite.
      const json = (value: unknown) => value === undefined ? null : JSON.stringify(value)

      const record = Effect.fn("ActivityLog.record")(function*(entry: NewActivity) {
        const now = yield* Time.now
        yield* sql`
          INSERT INTO activity (id, workspace_id, at, actor, action, resource_type, resource_id, summary, before, after)
          VALUES (${crypto.randomUUID()}, ${entry.workspaceId}, ${now.iso}::timestamptz, ${entry.actor}, ${entry.action},
                  ${entry.resource.type}, ${entry.resource.id}, ${entry.summary},
                  ${json(entry.before)}::jsonb, ${json(entry.after)}::jsonb)`.pipe(Effect.orDie)
      })

      const list = Effect.fn("ActivityLog.list")((workspaceId: string, listing: ActivityListing) =>
        pageOf(listing, (beforeSeq, limit) =>
          sql`
            SELECT seq, id::text AS id, at, actor, action, resource_type AS "resourceType", resource_id AS "resourceId",
                   summary, before, after
            FROM activity
            WHERE workspace_id = ${workspaceId}
              ${listing.action === undefined ? sql`` : sql`AND action = ${listing.action}`}
              ${listing.actor === undefined ? sql`` : sql`AND actor = ${listing.actor}`}
              ${listing.resourceType === undefined ? sql`` : sql`AND resource_type = ${listing.resourceType}`}
              ${beforeSeq === undefined ? sql`` : sql`AND seq < ${beforeSeq}`}
            ORDER BY seq DESC LIMIT ${limit}`.pipe(Effect.flatMap(decodeRows), Effect.orDie)))

      return ActivityLog.of({ record, list })
    })
  )
}
