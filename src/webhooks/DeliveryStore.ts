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
  createdAt: Timestamp
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

/** What an attempt needs: the delivery, and its endpoint's address and secrets. */
export const AttemptTarget = Schema.Struct({
  id: Schema.String,
  endpointId: Schema.String,
  eventType: EventTypeSchema,
  body: Schema.String,
  status: Schema.Literals(["pending", "succeeded", "failed"]),
  attemptCount: Schema.Number,
  url: Schema.String,
  secret: Schema.String,
  previousSecret: Schema.NullOr(Schema.String),
  previousSecretExpiresAt: NullableTimestamp
})
export type AttemptTarget = typeof AttemptTarget.Type
const decodeAttemptTargets = Schema.decodeUnknownEffect(Schema.Array(AttemptTarget))

/** A delivery of one event to one endpoint, fanned out. */
export interface NewDelivery {
  readonly workspaceId: string
  readonly endpointId: string
  readonly eventId: string
  readonly eventType: string
  readonly body: string
  readonly nowIso: string
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

export class DeliveryStore extends Context.Service<DeliveryStore, {
  /** Records a pending delivery, due now; nothing when the endpoint already has one for the event. */
  readonly insertPending: (delivery: NewDelivery) => Effect.Effect<void>
  readonly attemptTarget: (deliveryId: string) => Effect.Effect<AttemptTarget | undefined>
  /** Pending deliveries of enabled endpoints, due and not leased, the earliest first. */
  readonly due: (nowIso: string, limit: number) => Effect.Effect<ReadonlyArray<DueRow>>
  /** Leases these deliveries until `untilIso` where no other holds a lease; the ids leased. */
  readonly lease: (ids: ReadonlyArray<string>, untilIso: string, nowIso: string) => Effect.Effect<ReadonlyArray<string>>
  readonly recordAttempt: (attempt: AttemptRecord) => Effect.Effect<void>
  /** Marks it succeeded; `counted` adds the attempt to its count (automatic attempts only). */
  readonly markSucceeded: (id: string, counted: boolean) => Effect.Effect<void>
  readonly markFailed: (id: string, attemptCount: number) => Effect.Effect<void>
  readonly scheduleRetry: (id: string, attemptCount: number, atIso: string) => Effect.Effect<void>
  /** The endpoint's last `limit` deliveries, newest first, with their attempts. */
  readonly history: (endpointId: string, limit: number) => Effect.Effect<ReadonlyArray<DeliveryRecord>>
  /** One delivery of the endpoint, with its attempts. */
  readonly ofEndpoint: (endpointId: string, deliveryId: string) => Effect.Effect<DeliveryRecord | undefined>
}>()("outreach/WebhookDeliveryStore") {
  static readonly layer = Layer.effect(
    DeliveryStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const insertPending = (delivery: NewDelivery) =>
        sql`
          INSERT INTO webhook_deliveries
            (id, workspace_id, endpoint_id, event_id, event_type, body, status, next_attempt_at, created_at)
          VALUES (${crypto.randomUUID()}, ${delivery.workspaceId}, ${delivery.endpointId}, ${delivery.eventId},
                  ${delivery.eventType}, ${delivery.body}, 'pending', ${delivery.nowIso}::timestamptz,
                  ${delivery.nowIso}::timestamptz)
          ON CONFLICT (endpoint_id, event_id) DO NOTHING`.pipe(Effect.asVoid, Effect.orDie)

      const attemptTarget = (deliveryId: string) =>
        sql`
          SELECT d.id::text AS id, d.endpoint_id::text AS "endpointId", d.event_type AS "eventType", d.body, d.status,
                 d.attempt_count AS "attemptCount", e.url, e.secret, e.previous_secret AS "previousSecret",
                 e.previous_secret_expires_at AS "previousSecretExpiresAt"
          FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
          WHERE d.id = ${deliveryId}`.pipe(Effect.flatMap(decodeAttemptTargets), Effect.orDie, Effect.map((rows) => rows[0]))

      const due = (nowIso: string, limit: number) =>
        sql`
          SELECT d.id::text AS id, d.endpoint_id::text AS "endpointId"
          FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
          WHERE d.status = 'pending' AND e.enabled AND d.next_attempt_at <= ${nowIso}::timestamptz
            AND (d.lease_until IS NULL OR d.lease_until <= ${nowIso}::timestamptz)
          ORDER BY d.next_attempt_at, d.seq LIMIT ${limit}`.pipe(Effect.flatMap(decodeDue), Effect.orDie)

      const lease = (ids: ReadonlyArray<string>, untilIso: string, nowIso: string) =>
        sql<{ id: string }>`
          UPDATE webhook_deliveries SET lease_until = ${untilIso}::timestamptz
          WHERE ${sql.in("id", [...ids])} AND status = 'pending'
            AND (lease_until IS NULL OR lease_until <= ${nowIso}::timestamptz)
          RETURNING id::text AS id`.pipe(Effect.map((rows) => rows.map((row) => row.id)), Effect.orDie)

      const recordAttempt = (attempt: AttemptRecord) =>
        sql`
          INSERT INTO webhook_attempts (delivery_id, trigger, attempted_at, status_code, error, duration_ms, succeeded)
          VALUES (${attempt.deliveryId}, ${attempt.trigger}, ${attempt.atIso}::timestamptz, ${attempt.statusCode},
                  ${attempt.error}, ${attempt.durationMs}, ${attempt.succeeded})`.pipe(Effect.asVoid, Effect.orDie)

      const markSucceeded = (id: string, counted: boolean) =>
        sql`
          UPDATE webhook_deliveries SET status = 'succeeded', next_attempt_at = NULL, lease_until = NULL,
            attempt_count = attempt_count + ${counted ? 1 : 0}
          WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)

      const markFailed = (id: string, attemptCount: number) =>
        sql`UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, lease_until = NULL,
              attempt_count = ${attemptCount} WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)

      const scheduleRetry = (id: string, attemptCount: number, atIso: string) =>
        sql`UPDATE webhook_deliveries SET next_attempt_at = ${atIso}::timestamptz, lease_until = NULL,
              attempt_count = ${attemptCount} WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)

      const deliveryColumns = sql`id::text AS id, event_id::text AS "eventId", event_type AS "eventType", status,
        attempt_count AS "attemptCount", next_attempt_at AS "nextAttemptAt", created_at AS "createdAt"`

      const withAttempts = Effect.fnUntraced(function*(
        rows: ReadonlyArray<typeof DeliveryRow.Type>
      ) {
        if (rows.length === 0) return []
        const attempts = yield* sql`
          SELECT delivery_id::text AS "deliveryId", attempted_at AS at, trigger, status_code AS "statusCode", error,
                 duration_ms AS "durationMs"
          FROM webhook_attempts WHERE ${sql.in("delivery_id", rows.map((row) => row.id))}
          ORDER BY id`.pipe(Effect.flatMap(decodeAttempts), Effect.orDie)
        return rows.map((row): DeliveryRecord => ({
          ...row,
          attempts: attempts.filter((a) => a.deliveryId === row.id).map(({ deliveryId: _, ...attempt }) => attempt)
        }))
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
        insertPending,
        attemptTarget,
        due,
        lease,
        recordAttempt,
        markSucceeded,
        markFailed,
        scheduleRetry,
        history,
        ofEndpoint
      })
    })
  )
}
