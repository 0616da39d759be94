/**
 * `ActivityLog` in memory, for fast tests of the routes that record or read the log without a
 * database: the rules of the stored log (`ActivityLog.ts`), for one process. An entry is kept as
 * the table keeps it (its `before` and `after` as JSON, null when absent, stamped with the
 * business clock's time); a listing is the workspace's entries newest first, filtered by action,
 * actor and resource type, a page at a time with the stored log's cursors.
 */
import { Effect, Layer } from "effect"
import * as Time from "../domain/Time.ts"
import { ActivityLog, type ActivityListing, type NewActivity, pageOf, type SequencedActivity } from "./ActivityLog.ts"

/** A value as a `jsonb` column gives it back: JSON's own, and null for nothing. */
const asStored = (value: unknown): unknown => value === undefined ? null : JSON.parse(JSON.stringify(value))

/** The in-memory `ActivityLog`; needs nothing. */
export const layer = Layer.sync(ActivityLog, () => {
  /** Oldest first, each with the workspace it belongs to. */
  const entries: Array<SequencedActivity & { readonly workspaceId: string }> = []

  const record = Effect.fn("ActivityMemory.record")(function*(entry: NewActivity) {
    const now = yield* Time.now
    entries.push({
      seq: entries.length + 1,
      workspaceId: entry.workspaceId,
      id: crypto.randomUUID(),
      at: now.iso,
      actor: entry.actor,
      action: entry.action,
      resourceType: entry.resource.type,
      resourceId: entry.resource.id,
      summary: entry.summary,
      before: asStored(entry.before),
      after: asStored(entry.after)
    })
  })

  const list = Effect.fn("ActivityMemory.list")((workspaceId: string, listing: ActivityListing) =>
    pageOf(listing, (beforeSeq, limit) =>
      Effect.sync(() =>
        entries
          .filter((entry) =>
            entry.workspaceId === workspaceId &&
            (listing.action === undefined || entry.action === listing.action) &&
            (listing.actor === undefined || entry.actor === listing.actor) &&
            (listing.resourceType === undefined || entry.resourceType === listing.resourceType) &&
            (beforeSeq === undefined || entry.seq < beforeSeq)
          )
          .reverse()
          .slice(0, limit)
          .map(({ workspaceId: _workspaceId, ...entry }) => entry)
      )))

  return ActivityLog.of({ record, list })
})
