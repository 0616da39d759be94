/**
 * The outbox: every event is written in the same transaction as the change it
 * reports, so nothing is lost between "done" and "told". Webhook delivery reads
 * from here.
 */
import { Array as Arr, Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import * as Time from "../domain/Time.ts"
import { BigIntNumber, Timestamp } from "../platform/Rows.ts"
import { EventData, type EventType, EventTypeSchema, type NewEvent } from "../domain/Events.ts"

/** A recorded event, as the webhook envelope carries it. */
export interface RecordedEvent {
  readonly id: string
  readonly workspaceId: string
  readonly type: EventType
  readonly createdAt: string
  readonly data: unknown
}

const EventRow = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  type: EventTypeSchema,
  createdAt: Timestamp,
  data: Schema.Unknown
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(EventRow))

/** An event as the webhook fan-out reads it: its position, and whether an older transaction may still commit before it. */
export const FanOutEvent = Schema.Struct({
  seq: BigIntNumber,
  id: Schema.String,
  workspaceId: Schema.String,
  type: EventTypeSchema,
  createdAt: Timestamp,
  data: Schema.Unknown,
  /** The transaction that wrote the event, to tell which endpoints existed before it committed. */
  writerXid: Schema.String,
  settled: Schema.Boolean
})
export type FanOutEvent = typeof FanOutEvent.Type
const decodeFanOutEvents = Schema.decodeUnknownEffect(Schema.Array(FanOutEvent))

/** An event's data in its stored form: a synchronous encode (a defect when it does not fit), one per event, no effect each. */
const encodeData = (event: NewEvent): unknown => Schema.encodeUnknownSync(EventData[event.type])(event.data)

/**
 * Events written by one INSERT: a statement's parameters are bounded (a 10,000-event append failed to
 * encode), so a larger append is several statements in one transaction.
 */
const rowsPerInsert = 1000

export class Outbox extends Context.Service<Outbox, {
  /** Records events; call it inside the transaction of the change they report. */
  readonly append: (workspaceId: string, events: ReadonlyArray<NewEvent>) => Effect.Effect<void>
  /** Records events of any workspaces, in this order, in one statement; inside the transaction of their changes. */
  readonly appendAll: (
    events: ReadonlyArray<{ readonly workspaceId: string; readonly event: NewEvent }>
  ) => Effect.Effect<void>
  /** Events of a workspace in the order they happened (oldest first), optionally of one type. */
  readonly list: (workspaceId: string, options?: { readonly type?: EventType }) => Effect.Effect<
    ReadonlyArray<RecordedEvent>
  >
  /** The position of the workspace's newest event (0 without one): it moves whenever something happened there. */
  readonly latestSeq: (workspaceId: string) => Effect.Effect<number>
  /** Whether any event lies past `afterSeq` (a fragment, so the caller's cursor is read in the same statement). */
  readonly anyAfter: (afterSeq: Statement.Fragment) => Effect.Effect<boolean>
  /**
   * The oldest transaction of this database that may still commit an event
   * (as text, an xid8); events written by older ones are settled.
   */
  readonly writerHorizon: Effect.Effect<string>
  /** Up to `limit` events past `afterSeq`, oldest first, each marked settled against `horizon`. */
  readonly fanOutBatch: (afterSeq: number, horizon: string, limit: number) => Effect.Effect<ReadonlyArray<FanOutEvent>>
}>()("outreach/Outbox") {
  static readonly layer = Layer.effect(
    Outbox,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const appendAll = Effect.fn("Outbox.appendAll")(function*(
        events: ReadonlyArray<{ readonly workspaceId: string; readonly event: NewEvent }>
      ) {
        if (!Arr.isReadonlyArrayNonEmpty(events)) return
        const now = yield* Time.now
        const rows = yield* Effect.sync(() =>
          events.map(({ event, workspaceId }) =>
            sql`(${crypto.randomUUID()}::uuid, ${workspaceId}::uuid, ${event.type}, ${JSON.stringify(encodeData(event))}::jsonb,
                 ${now.iso}::timestamptz)`
          )
        )
        // One statement per {@link rowsPerInsert} events, in order: they take their places (seq) in the order given.
        const inserts = Arr.chunksOf(rows, rowsPerInsert).map((chunk) =>
          sql`INSERT INTO outbox_events (id, workspace_id, type, data, created_at) VALUES ${sql.csv(chunk)}`
        )
        const all = Effect.forEach(inserts, (insert) => insert, { discard: true })
        // Several statements are one transaction (a savepoint inside the caller's), so none lands alone.
        yield* (inserts.length > 1 ? sql.withTransaction(all) : all).pipe(Effect.orDie)
      })

      const append = (workspaceId: string, events: ReadonlyArray<NewEvent>) =>
        appendAll(events.map((event) => ({ workspaceId, event })))

      const list = Effect.fn("Outbox.list")((workspaceId: string, options?: { readonly type?: EventType }) =>
        sql`
          SELECT id::text AS id, workspace_id::text AS "workspaceId", type, created_at AS "createdAt", data
          FROM outbox_events
          WHERE workspace_id = ${workspaceId} ${options?.type === undefined ? sql`` : sql`AND type = ${options.type}`}
          ORDER BY seq`.pipe(Effect.flatMap(decodeRows), Effect.orDie)
      )

      const latestSeq = (workspaceId: string) =>
        sql<{ readonly seq: string | null }>`SELECT max(seq)::text AS seq FROM outbox_events WHERE workspace_id = ${workspaceId}`.pipe(
          Effect.map((rows) => Number(rows[0]?.seq ?? 0)),
          Effect.orDie
        )

      // Most rounds find nothing new: one plain read says so.
      const anyAfter = (afterSeq: Statement.Fragment) =>
        sql<{ readonly any: boolean }>`
          SELECT EXISTS (SELECT 1 FROM outbox_events WHERE seq > ${afterSeq}) AS any`.pipe(
          Effect.map((rows) => rows[0]?.any === true),
          Effect.orDie
        )

      /**
       * The oldest transaction of this database that may still commit an
       * outbox event: every one that holds the insert lock on
       * `outbox_events`. Events written by older transactions are settled.
       * Counting only these, not the whole server's oldest running
       * transaction (`pg_snapshot_xmin`), keeps webhooks flowing while other
       * databases on the same server, or unrelated work here, run long
       * transactions. A writer holding the lock without a transaction id yet
       * may already hold a lower `seq`: then nothing is settled this round.
       */
      const writerHorizon = sql<{ readonly horizon: string }>`
        WITH writers AS (
          SELECT a.backend_xid AS xid
          FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE l.locktype = 'relation' AND l.relation = 'outbox_events'::regclass AND l.mode = 'RowExclusiveLock'
            AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
            AND l.pid <> pg_backend_pid()
        )
        SELECT CASE WHEN EXISTS (SELECT 1 FROM writers WHERE xid IS NULL) THEN '0'
               ELSE COALESCE(
                 (SELECT min(x) FROM pg_snapshot_xip(pg_current_snapshot()) x WHERE xid(x) IN (SELECT xid FROM writers)),
                 pg_snapshot_xmax(pg_current_snapshot()))::text END AS horizon`.pipe(
        Effect.map((rows) => rows[0]?.horizon ?? "0"),
        Effect.orDie
      )

      const fanOutBatch = (afterSeq: number, horizon: string, limit: number) =>
        sql`
          SELECT seq, id::text AS id, workspace_id::text AS "workspaceId", type, created_at AS "createdAt", data,
                 writer_xid::text AS "writerXid", writer_xid < ${horizon}::xid8 AS settled
          FROM outbox_events WHERE seq > ${afterSeq} ORDER BY seq LIMIT ${limit}`
          .pipe(Effect.flatMap(decodeFanOutEvents), Effect.orDie)

      return Outbox.of({ append, appendAll, list, latestSeq, anyAfter, writerHorizon, fanOutBatch })
    })
  )
}
