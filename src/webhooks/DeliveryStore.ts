/**
 * Webhook deliveries and their attempts: the one module with SQL on
 * `webhook_deliveries` and `webhook_attempts` (issue #19, one owner per
 * table). Statements only, each joining the caller's transaction when there
 * is one; when to attempt and what an outcome means is the dispatcher's,
 * who may read the history is the endpoints'.
 *
 * @since 1.0.0
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { Delivery } from "../api/WebhooksApi.ts"
import type { Subscriber } from "./EndpointTable.ts"
import { EventTypeSchema } from "../domain/Events.ts"
import { NullableTimestamp, Timestamp } from "../platform/Rows.ts"

/** A delivery with its attempts, as the history shows it. */
export type DeliveryRecord = typeof Delivery.Type

const DeliveryRow = Schema.Struct({
  id: Schema.String,
  eventId: Schema.String,
  eventType: EventTypeSchema,
  status: Schema.Literals(["pending", "succeeded", "failed"]),
  attemptCount: Schema.Number,
  nextAttemptAt: NullableTimestamp,
  createdAt: Timestamp,
  /** The automatic attempt that succeeded, kept on the row (migrations/0180). */
  succeededAt: NullableTimestamp,
  succeededStatus: Schema.NullOr(Schema.Number),
  succeededDurationMs: Schema.NullOr(Schema.Number)
})
const decodeDeliveries = Schema.decodeUnknownEffect(Schema.Array(DeliveryRow))

const AttemptRow = Schema.Struct({
  deliveryId: Schema.String,
  at: Timestamp,
  trigger: Schema.Literals(["automatic", "manual"]),
  statusCode: Schema.NullOr(Schema.Number),
  error: Schema.NullOr(Schema.String),
  durationMs: Schema.Number
})
const decodeAttempts = Schema.decodeUnknownEffect(Schema.Array(AttemptRow))

/** A delivery due for an attempt. */
export const DueRow = Schema.Struct({ id: Schema.String, endpointId: Schema.String })
export type DueRow = typeof DueRow.Type
const decodeDue = Schema.decodeUnknownEffect(Schema.Array(DueRow))

/** The delivery an attempt sends (its endpoint's address and secrets are `EndpointTable`'s). */
export const DeliveryToAttempt = Schema.Struct({
  id: Schema.String,
  endpointId: Schema.String,
  eventType: EventTypeSchema,
  body: Schema.String,
  status: Schema.Literals(["pending", "succeeded", "failed"]),
  attemptCount: Schema.Number
})
export type DeliveryToAttempt = typeof DeliveryToAttempt.Type
const decodeToAttempt = Schema.decodeUnknownEffect(Schema.Array(DeliveryToAttempt))

/** An event to fan out, with the request body for each endpoint mode, fixed so every retry signs the same bytes. */
export interface FanOutSource {
  readonly seq: number
  readonly id: string
  readonly workspaceId: string
  readonly type: string
  readonly createdAt: string
  /** The transaction that wrote the event (an xid8 as text). */
  readonly writerXid: string
  readonly fatBody: string
  readonly thinBody: string
}

/** The leases the fan-out takes on what it writes: until when, and at most how many of each endpoint's new deliveries. */
export interface FanOutLease {
  readonly untilIso: string
  /** Per endpoint id; an endpoint not in it gets none. */
  readonly capOf: (endpointId: string) => number
}

/** One attempt as it is recorded. */
export interface AttemptRecord {
  readonly deliveryId: string
  readonly trigger: "automatic" | "manual"
  readonly atIso: string
  readonly statusCode: number | null
  readonly error: string | null
  readonly durationMs: number
  readonly succeeded: boolean
}

/** What an attempt does to its delivery (a manual attempt that failed changes nothing). */
export type DeliveryChange =
  /** `counted` adds the attempt to its count (automatic attempts only). */
  | { readonly _tag: "succeeded"; readonly counted: boolean }
  | { readonly _tag: "failed"; readonly attemptCount: number }
  | { readonly _tag: "retry"; readonly attemptCount: number; readonly atIso: string }

/** An attempt and what it changes, as recorded. */
export interface AttemptOutcome {
  readonly attempt: AttemptRecord
  readonly change: DeliveryChange | undefined
}

/** An automatic attempt that succeeded is kept on its delivery's row (migrations/0180), not as an attempt row. */
const keptOnRow = (attempt: AttemptRecord): boolean => attempt.succeeded && attempt.trigger === "automatic"

export class DeliveryStore extends Context.Service<DeliveryStore, {
  /**
   * In one statement, a pending delivery due now of each event to each of
   * `subscribers` (enabled endpoints, `EndpointTable.subscribers`) of its
   * workspace subscribed to its type that was created before the event
   * committed; nothing where the endpoint already has one for the event.
   * The first of each endpoint's, up to `lease.capOf` it, are written leased
   * until `lease.untilIso` and returned, oldest first: the caller attempts them
   * without leasing them again.
   */
  readonly fanOut: (
    events: ReadonlyArray<FanOutSource>,
    subscribers: ReadonlyArray<Subscriber>,
    nowIso: string,
    lease: FanOutLease
  ) => Effect.Effect<ReadonlyArray<DeliveryToAttempt>>
  readonly toAttempt: (deliveryId: string) => Effect.Effect<DeliveryToAttempt | undefined>
  /** Pending deliveries due and not leased, but those of the `disabled` endpoints, the earliest first. */
  readonly due: (nowIso: string, limit: number, disabled: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<DueRow>>
  /** Leases these deliveries until `untilIso` where no other holds a lease; the deliveries leased. */
  readonly lease: (
    ids: ReadonlyArray<string>,
    untilIso: string,
    nowIso: string
  ) => Effect.Effect<ReadonlyArray<DeliveryToAttempt>>
  /** Gives up the leases of these deliveries (leased ahead and never attempted). */
  readonly release: (ids: ReadonlyArray<string>) => Effect.Effect<void>
  /** Records attempts and their changes to their deliveries: one statement however many, atomic on its own. */
  readonly record: (outcomes: ReadonlyArray<AttemptOutcome>) => Effect.Effect<void>
  /** The endpoint's last `limit` deliveries, newest first, with their attempts. */
  readonly history: (endpointId: string, limit: number) => Effect.Effect<ReadonlyArray<DeliveryRecord>>
  /** One delivery of the endpoint, with its attempts. */
  readonly ofEndpoint: (endpointId: string, deliveryId: string) => Effect.Effect<DeliveryRecord | undefined>
}>()("outreach/WebhookDeliveryStore") {
  static readonly layer = Layer.effect(
    DeliveryStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const toAttemptColumns = sql`d.id::text AS id, d.endpoint_id::text AS "endpointId", d.event_type AS "eventType",
        d.body, d.status, d.attempt_count AS "attemptCount"`

      const fanOut = (
        events: ReadonlyArray<FanOutSource>,
        subscribers: ReadonlyArray<Subscriber>,
        nowIso: string,
        lease: FanOutLease
      ) => {
        if (events.length === 0 || subscribers.length === 0) return Effect.succeed([])
        // One parameter for the batch: a JSON array reads the same on PostgreSQL and PGlite.
        const batch = JSON.stringify(events.map((event) => ({
          seq: event.seq,
          id: event.id,
          workspace_id: event.workspaceId,
          type: event.type,
          created_at: event.createdAt,
          writer_xid: event.writerXid,
          fat_body: event.fatBody,
          thin_body: event.thinBody
        })))
        const endpoints = JSON.stringify(subscribers.map((endpoint) => ({
          id: endpoint.id,
          workspace_id: endpoint.workspaceId,
          mode: endpoint.mode,
          events: endpoint.events,
          created_at: endpoint.createdAt,
          snapshot: endpoint.snapshot,
          lease_cap: lease.capOf(endpoint.id)
        })))
        return sql`
          WITH targets AS (
            SELECT ev.workspace_id, e.id AS endpoint_id, ev.id AS event_id, ev.type AS event_type,
                   CASE e.mode WHEN 'thin' THEN ev.thin_body ELSE ev.fat_body END AS body,
                   row_number() OVER (PARTITION BY e.id ORDER BY ev.seq) <= e.lease_cap AS leased,
                   row_number() OVER (ORDER BY ev.seq, e.created_at, e.id) AS n
            FROM jsonb_to_recordset(${batch}::jsonb) AS ev(seq bigint, id uuid, workspace_id uuid, type text,
                   created_at timestamptz, writer_xid text, fat_body text, thin_body text)
            JOIN jsonb_to_recordset(${endpoints}::jsonb) AS e(id uuid, workspace_id uuid, mode text, events jsonb,
                   created_at timestamptz, snapshot text, lease_cap integer) ON e.workspace_id = ev.workspace_id
              -- Only events committed after the endpoint was created (migrations/0130).
              AND CASE WHEN e.snapshot IS NULL THEN e.created_at <= ev.created_at
                       ELSE NOT pg_visible_in_snapshot(ev.writer_xid::xid8, e.snapshot::pg_snapshot) END
              AND (e.events = '[]'::jsonb OR e.events @> jsonb_build_array(ev.type))
          ), d AS (
            INSERT INTO webhook_deliveries
              (id, workspace_id, endpoint_id, event_id, event_type, body, status, next_attempt_at, created_at, lease_until)
            SELECT gen_random_uuid(), workspace_id, endpoint_id, event_id, event_type, body,
                   'pending', ${nowIso}::timestamptz, ${nowIso}::timestamptz,
                   CASE WHEN leased THEN ${lease.untilIso}::timestamptz END
            FROM targets ORDER BY n
            ON CONFLICT (endpoint_id, event_id) DO NOTHING
            RETURNING *
          )
          SELECT ${toAttemptColumns} FROM d WHERE d.lease_until IS NOT NULL ORDER BY d.seq`.pipe(
          Effect.flatMap(decodeToAttempt),
          Effect.orDie
        )
      }

      const toAttempt = (deliveryId: string) =>
        sql`SELECT ${toAttemptColumns} FROM webhook_deliveries d WHERE d.id = ${deliveryId}`.pipe(
          Effect.flatMap(decodeToAttempt),
          Effect.orDie,
          Effect.map((rows) => rows[0])
        )

      const due = (nowIso: string, limit: number, disabled: ReadonlyArray<string>) =>
        sql`
          SELECT d.id::text AS id, d.endpoint_id::text AS "endpointId"
          FROM webhook_deliveries d
          WHERE d.status = 'pending' AND d.next_attempt_at <= ${nowIso}::timestamptz
            AND (d.lease_until IS NULL OR d.lease_until <= ${nowIso}::timestamptz)
            ${disabled.length === 0 ? sql`` : sql`AND d.endpoint_id NOT IN ${sql.in(disabled)}`}
          ORDER BY d.next_attempt_at, d.seq LIMIT ${limit}`.pipe(Effect.flatMap(decodeDue), Effect.orDie)

      const lease = (ids: ReadonlyArray<string>, untilIso: string, nowIso: string) =>
        sql`
          UPDATE webhook_deliveries d SET lease_until = ${untilIso}::timestamptz
          WHERE ${sql.in("d.id", [...ids])} AND d.status = 'pending'
            AND (d.lease_until IS NULL OR d.lease_until <= ${nowIso}::timestamptz)
          RETURNING ${toAttemptColumns}`.pipe(Effect.flatMap(decodeToAttempt), Effect.orDie)

      const release = (ids: ReadonlyArray<string>) =>
        ids.length === 0 ? Effect.void : sql`
          UPDATE webhook_deliveries SET lease_until = NULL WHERE ${sql.in("id", [...ids])} AND status = 'pending'`.pipe(
            Effect.asVoid,
            Effect.orDie
          )

      const record = (outcomes: ReadonlyArray<AttemptOutcome>) => {
        if (outcomes.length === 0) return Effect.void
        const attempts = JSON.stringify(outcomes.map(({ attempt }) => ({
          delivery_id: attempt.deliveryId,
          trigger: attempt.trigger,
          attempted_at: attempt.atIso,
          status_code: attempt.statusCode,
          error: attempt.error,
          duration_ms: attempt.durationMs,
          succeeded: attempt.succeeded,
          on_row: keptOnRow(attempt)
        })))
        const changed = outcomes.flatMap(({ attempt, change }) => change === undefined ? [] : [{ attempt, change }])
        const changes = JSON.stringify(changed.map(({ attempt, change }) => {
          const id = attempt.deliveryId
          switch (change._tag) {
            case "succeeded": {
              const onRow = keptOnRow(attempt)
              return {
                id,
                status: "succeeded",
                next_attempt_at: null,
                attempt_count: null,
                added: change.counted ? 1 : 0,
                succeeded_at: onRow ? attempt.atIso : null,
                succeeded_status: onRow ? attempt.statusCode : null,
                succeeded_duration_ms: onRow ? attempt.durationMs : null
              }
            }
            case "failed":
              return { id, status: "failed", next_attempt_at: null, attempt_count: change.attemptCount, added: 0 }
            case "retry":
              return { id, status: "pending", next_attempt_at: change.atIso, attempt_count: change.attemptCount, added: 0 }
          }
        }))
        // One statement, so atomic without a transaction of its own (and one round trip): the
        // deliveries' changes run to completion as a data-modifying WITH, then the attempts not
        // kept on their delivery's row are inserted. A delivery's row keeps one success: one
        // already there (a second automatic success, after a lease lapsed) stays, and the new one
        // becomes an attempt row, so no attempt is ever dropped from the history.
        return sql`
          WITH changed AS (
            UPDATE webhook_deliveries d SET status = c.status, next_attempt_at = c.next_attempt_at, lease_until = NULL,
              attempt_count = COALESCE(c.attempt_count, d.attempt_count + c.added),
              succeeded_at = COALESCE(d.succeeded_at, c.succeeded_at),
              succeeded_status = CASE WHEN d.succeeded_at IS NULL THEN c.succeeded_status ELSE d.succeeded_status END,
              succeeded_duration_ms = CASE WHEN d.succeeded_at IS NULL THEN c.succeeded_duration_ms
                ELSE d.succeeded_duration_ms END
            FROM jsonb_to_recordset(${changes}::jsonb) AS c(id uuid, status text, next_attempt_at timestamptz,
                   attempt_count integer, added integer, succeeded_at timestamptz, succeeded_status integer,
                   succeeded_duration_ms integer)
            WHERE d.id = c.id
            RETURNING d.id, c.succeeded_at IS NOT NULL AND (d.succeeded_at, d.succeeded_status, d.succeeded_duration_ms)
              IS NOT DISTINCT FROM (c.succeeded_at, c.succeeded_status, c.succeeded_duration_ms) AS on_row
          )
          INSERT INTO webhook_attempts (delivery_id, trigger, attempted_at, status_code, error, duration_ms, succeeded)
          SELECT a.delivery_id, a.trigger, a.attempted_at, a.status_code, a.error, a.duration_ms, a.succeeded
          FROM jsonb_to_recordset(${attempts}::jsonb) AS a(delivery_id uuid, trigger text,
                 attempted_at timestamptz, status_code integer, error text, duration_ms integer, succeeded boolean,
                 on_row boolean)
          -- A delivery deleted with its endpoint meanwhile has nothing left to record, and must not fail the batch.
          JOIN webhook_deliveries d ON d.id = a.delivery_id
          WHERE NOT (a.on_row AND EXISTS (SELECT 1 FROM changed WHERE changed.id = a.delivery_id AND changed.on_row))`
          .pipe(Effect.asVoid, Effect.orDie)
      }

      const deliveryColumns = sql`id::text AS id, event_id::text AS "eventId", event_type AS "eventType", status,
        attempt_count AS "attemptCount", next_attempt_at AS "nextAttemptAt", created_at AS "createdAt",
        succeeded_at AS "succeededAt", succeeded_status AS "succeededStatus", succeeded_duration_ms AS "succeededDurationMs"`

      const withAttempts = Effect.fnUntraced(function*(
        rows: ReadonlyArray<typeof DeliveryRow.Type>
      ) {
        if (rows.length === 0) return []
        const attempts = yield* sql`
          SELECT delivery_id::text AS "deliveryId", attempted_at AS at, trigger, status_code AS "statusCode", error,
                 duration_ms AS "durationMs"
          FROM webhook_attempts WHERE ${sql.in("delivery_id", rows.map((row) => row.id))}
          ORDER BY id`.pipe(Effect.flatMap(decodeAttempts), Effect.orDie)
        return rows.map(({ succeededAt, succeededDurationMs, succeededStatus, ...row }): DeliveryRecord => {
          const recorded = attempts.filter((a) => a.deliveryId === row.id).map(({ deliveryId: _, ...attempt }) => attempt)
          if (succeededAt === null) return { ...row, attempts: recorded }
          const success: DeliveryRecord["attempts"][number] = {
            at: succeededAt,
            trigger: "automatic",
            statusCode: succeededStatus,
            error: null,
            durationMs: succeededDurationMs ?? 0
          }
          // Oldest first: the success kept on the row among the attempt rows (a stable sort keeps their order).
          return { ...row, attempts: [...recorded, success].sort((x, y) => Date.parse(x.at) - Date.parse(y.at)) }
        })
      })

      const history = (endpointId: string, limit: number) =>
        sql`
          SELECT ${deliveryColumns} FROM webhook_deliveries WHERE endpoint_id = ${endpointId}
          ORDER BY seq DESC LIMIT ${limit}`.pipe(Effect.flatMap(decodeDeliveries), Effect.orDie, Effect.flatMap(withAttempts))

      const ofEndpoint = (endpointId: string, deliveryId: string) =>
        sql`
          SELECT ${deliveryColumns} FROM webhook_deliveries WHERE id = ${deliveryId} AND endpoint_id = ${endpointId}`
          .pipe(Effect.flatMap(decodeDeliveries), Effect.orDie, Effect.flatMap(withAttempts), Effect.map((found) => found[0]))

      return DeliveryStore.of({
        fanOut,
        toAttempt,
        due,
        lease,
        release,
        record,
        history,
        ofEndpoint
      })
    })
  )
}
