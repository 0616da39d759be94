/**
 * Webhook deliveries and their attempts: the one module with SQL on
 * `webhook_deliveries` and `webhook_attempts` (issue #19, one owner per
 * table). Statements only, each joining the caller's transaction when there
 * is one; when to attempt and what an outcome means is the dispatcher's,
 * who may read the history is the endpoints'.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { Delivery } from "../domain/Webhooks.ts"
import { EndpointTable, type Subscriber } from "./EndpointTable.ts"
import type { EventType } from "../domain/Events.ts"
import { DeliveryEventType, envelopeBody, type WebhookMode } from "../domain/WebhookPayload.ts"
import type { FanOutEvent } from "../events/Outbox.ts"
import { BigIntNumber, NullableTimestamp, Timestamp } from "../platform/Rows.ts"

/** A delivery with its attempts, as the history shows it. */
export type DeliveryRecord = typeof Delivery.Type

const DeliveryRow = Schema.Struct({
  id: Schema.String,
  eventId: Schema.String,
  eventType: DeliveryEventType,
  payload: Schema.String,
  status: Schema.Literals(["pending", "succeeded", "failed"]),
  attemptCount: Schema.Number,
  nextAttemptAt: NullableTimestamp,
  createdAt: Timestamp,
  /** The automatic attempt that succeeded, kept on the row (migrations/0180, 0281). */
  succeededAt: NullableTimestamp,
  succeededStatus: Schema.NullOr(Schema.Number),
  succeededDurationMs: Schema.NullOr(Schema.Number),
  succeededResponse: Schema.NullOr(Schema.String)
})
const decodeDeliveries = Schema.decodeUnknownEffect(Schema.Array(DeliveryRow))

const AttemptRow = Schema.Struct({
  deliveryId: Schema.String,
  at: Timestamp,
  trigger: Schema.Literals(["automatic", "manual"]),
  statusCode: Schema.NullOr(Schema.Number),
  error: Schema.NullOr(Schema.String),
  durationMs: Schema.Number,
  response: Schema.NullOr(Schema.String)
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
  eventType: DeliveryEventType,
  body: Schema.String,
  status: Schema.Literals(["pending", "succeeded", "failed"]),
  attemptCount: Schema.Number
})
export type DeliveryToAttempt = typeof DeliveryToAttempt.Type
const decodeToAttempt = Schema.decodeUnknownEffect(Schema.Array(DeliveryToAttempt))

/**
 * An event to fan out, with the request body for each mode its workspace's subscribers use, fixed so every retry
 * signs the same bytes.
 */
export interface FanOutSource {
  readonly seq: number
  readonly id: string
  readonly workspaceId: string
  readonly type: EventType
  readonly createdAt: string
  /** The transaction that wrote the event (an xid8 as text). */
  readonly writerXid: string
  /** The body an endpoint of each mode is sent: the modes of its workspace's subscribers only. */
  readonly bodies: Readonly<Partial<Record<WebhookMode, string>>>
}

/**
 * The events read for the fan-out that may go to one of `subscribers`, with their bodies: an event of a workspace
 * without a subscriber has none built (most job events, when nobody listens), and a body only in the modes its
 * workspace's subscribers use. Which subscriber takes which event is the fan-out's statement's to say.
 */
export const fanOutSources = (
  events: ReadonlyArray<FanOutEvent>,
  subscribers: ReadonlyArray<Subscriber>
): Array<FanOutSource> => {
  const modesOf = new Map<string, Set<WebhookMode>>()
  for (const { mode, workspaceId } of subscribers) modesOf.set(workspaceId, (modesOf.get(workspaceId) ?? new Set()).add(mode))
  return events.flatMap((event) => {
    const modes = modesOf.get(event.workspaceId)
    if (modes === undefined) return []
    const bodies: Partial<Record<WebhookMode, string>> = {}
    for (const mode of modes) bodies[mode] = envelopeBody(event, mode)
    return [{
      seq: event.seq,
      id: event.id,
      workspaceId: event.workspaceId,
      type: event.type,
      createdAt: event.createdAt,
      writerXid: event.writerXid,
      bodies
    }]
  })
}

/**
 * What the fan-out keeps in memory rather than writing (migrations/0190): at most `capOf` of each
 * endpoint's new deliveries, under one claim on the batch's events until `untilIso`.
 */
export interface FanOutHold {
  readonly claimId: string
  readonly untilIso: string
  /** Per endpoint id; an endpoint not in it gets none. */
  readonly capOf: (endpointId: string) => number
}

/** What the fan-out's statement answers of a held delivery; the rest is the caller's event and endpoint. */
const decodeHeldKeys = Schema.decodeUnknownEffect(
  Schema.Array(Schema.Struct({ id: Schema.String, endpointId: Schema.String, eventId: Schema.String }))
)

/** A delivery not written yet, with what its row needs besides its state. */
export interface NewDelivery {
  readonly id: string
  readonly workspaceId: string
  readonly endpointId: string
  readonly eventId: string
  readonly eventType: string
  readonly body: string
  /** When it was fanned out. */
  readonly createdAtIso: string
}

/** A delivery the fan-out held without writing it: what an attempt sends, and what its row will need. */
export type HeldDelivery = DeliveryToAttempt & NewDelivery

/** A fan-out's claim that lapsed: its server died (or stalled) before writing what it held. */
export interface LapsedClaim {
  readonly id: string
  readonly firstSeq: number
  readonly lastSeq: number
}
const LapsedClaimRow = Schema.Struct({ id: Schema.String, firstSeq: BigIntNumber, lastSeq: BigIntNumber })
const decodeLapsed = Schema.decodeUnknownEffect(Schema.Array(LapsedClaimRow))

/** One attempt as it is recorded. */
export interface AttemptRecord {
  readonly deliveryId: string
  readonly trigger: "automatic" | "manual"
  readonly atIso: string
  readonly statusCode: number | null
  readonly error: string | null
  readonly durationMs: number
  /** The start of the response's body; null when none arrived. */
  readonly response: string | null
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
  /** The delivery, when it is not written yet: written now, in the state the change gives it. */
  readonly fresh?: NewDelivery | undefined
}

/** An automatic attempt that succeeded is kept on its delivery's row (migrations/0180), not as an attempt row. */
const keptOnRow = (attempt: AttemptRecord): boolean => attempt.succeeded && attempt.trigger === "automatic"

export class DeliveryStore extends Context.Service<DeliveryStore, {
  /**
   * In one statement, a delivery of each event to each of `subscribers`
   * (enabled endpoints, `EndpointTable.subscribers`) of its workspace
   * subscribed to its type that was created before the event committed;
   * nothing where the endpoint already has one for the event. Its id derives
   * from the endpoint and the event, so fanning the same events out again
   * (after a lapsed claim) gives the same ids. The first of each endpoint's,
   * up to `hold.capOf` it, are held: not written, returned oldest first, and
   * claimed (`hold.claimId`) until `hold.untilIso`; the others are written
   * pending, due now, for any server.
   */
  readonly fanOut: (
    events: ReadonlyArray<FanOutSource>,
    subscribers: ReadonlyArray<Subscriber>,
    nowIso: string,
    hold: FanOutHold
  ) => Effect.Effect<ReadonlyArray<HeldDelivery>>
  /** Writes held deliveries as pending and due, leased until `untilIso` (null: not leased); an endpoint's deleted meanwhile are not. */
  readonly write: (deliveries: ReadonlyArray<NewDelivery>, untilIso: string | null) => Effect.Effect<void>
  /** Ends these claims: everything their fan-outs held is written. */
  readonly endClaims: (claimIds: ReadonlyArray<string>) => Effect.Effect<void>
  /** Claims that lapsed by `nowIso`, locked to the end of the caller's transaction (others skip them). */
  readonly lapsedClaims: (nowIso: string, limit: number) => Effect.Effect<ReadonlyArray<LapsedClaim>>
  readonly toAttempt: (deliveryId: string) => Effect.Effect<DeliveryToAttempt | undefined>
  /** Pending deliveries due and not leased, but those of the `disabled` endpoints, the earliest first. */
  readonly due: (
    nowIso: string,
    limit: number,
    disabled: ReadonlyArray<string>,
    /** The leases' now, when leases run on another clock than due times (real time under the sandbox's test clock). */
    leaseNowIso?: string
  ) => Effect.Effect<ReadonlyArray<DueRow>>
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
      const endpointTable = yield* EndpointTable

      const toAttemptColumns = sql`d.id::text AS id, d.endpoint_id::text AS "endpointId", d.event_type AS "eventType",
        d.body, d.status, d.attempt_count AS "attemptCount"`

      const fanOut = (
        events: ReadonlyArray<FanOutSource>,
        subscribers: ReadonlyArray<Subscriber>,
        nowIso: string,
        hold: FanOutHold
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
          bodies: event.bodies
        })))
        const endpoints = JSON.stringify(subscribers.map((endpoint) => ({
          id: endpoint.id,
          workspace_id: endpoint.workspaceId,
          mode: endpoint.mode,
          events: endpoint.events,
          created_at: endpoint.createdAt,
          snapshot: endpoint.snapshot,
          hold_cap: hold.capOf(endpoint.id)
        })))
        const seqs = events.map((event) => event.seq)
        return sql`
          WITH targets AS (
            -- The id derives from the endpoint and the event (a name-based UUID, version 3): fanned out
            -- again, a delivery keeps it.
            SELECT (substr(digest.h, 1, 12) || '3' || substr(digest.h, 14, 3)
                    || substr('89ab', get_byte(decode(substr(digest.h, 17, 2), 'hex'), 0) % 4 + 1, 1)
                    || substr(digest.h, 18))::uuid AS id,
                   ev.workspace_id, e.id AS endpoint_id, ev.id AS event_id,
                   ev.type AS event_type, ev.bodies ->> e.mode AS body,
                   row_number() OVER (PARTITION BY e.id ORDER BY ev.seq) <= e.hold_cap AS held,
                   row_number() OVER (ORDER BY ev.seq, e.created_at, e.id) AS n
            FROM jsonb_to_recordset(${batch}::jsonb) AS ev(seq bigint, id uuid, workspace_id uuid, type text,
                   created_at timestamptz, writer_xid text, bodies jsonb)
            JOIN jsonb_to_recordset(${endpoints}::jsonb) AS e(id uuid, workspace_id uuid, mode text, events jsonb,
                   created_at timestamptz, snapshot text, hold_cap integer) ON e.workspace_id = ev.workspace_id
              -- Only events committed after the endpoint was created (migrations/0130).
              AND CASE WHEN e.snapshot IS NULL THEN e.created_at <= ev.created_at
                       ELSE NOT pg_visible_in_snapshot(ev.writer_xid::xid8, e.snapshot::pg_snapshot) END
              AND (e.events = '[]'::jsonb OR e.events @> jsonb_build_array(ev.type))
            CROSS JOIN LATERAL (SELECT md5(e.id::text || ev.id::text) AS h) AS digest
          ), written AS (
            INSERT INTO webhook_deliveries
              (id, workspace_id, endpoint_id, event_id, event_type, body, status, next_attempt_at, created_at)
            SELECT id, workspace_id, endpoint_id, event_id, event_type, body,
                   'pending', ${nowIso}::timestamptz, ${nowIso}::timestamptz
            FROM targets WHERE NOT held ORDER BY n
            ON CONFLICT (endpoint_id, event_id) DO NOTHING
          ), claimed AS (
            INSERT INTO webhook_fanout_claims (id, first_seq, last_seq, lease_until)
            SELECT ${hold.claimId}::uuid, ${Math.min(...seqs)}, ${Math.max(...seqs)}, ${hold.untilIso}::timestamptz
            WHERE EXISTS (SELECT 1 FROM targets WHERE held)
          )
          -- Held ones are never there already: the events are past the cursor this transaction holds.
          -- Only their keys travel back: the bodies are the caller's.
          SELECT id::text AS id, endpoint_id::text AS "endpointId", event_id::text AS "eventId"
          FROM targets WHERE held ORDER BY n`.pipe(
          Effect.flatMap(decodeHeldKeys),
          Effect.orDie,
          Effect.map((keys) => {
            const eventsById = new Map(events.map((event) => [event.id, event]))
            const modes = new Map(subscribers.map((endpoint): [string, WebhookMode] => [endpoint.id, endpoint.mode]))
            return keys.flatMap(({ endpointId, eventId, id }): Array<HeldDelivery> => {
              const event = eventsById.get(eventId)
              const mode = modes.get(endpointId)
              const body = mode === undefined ? undefined : event?.bodies[mode]
              if (event === undefined || body === undefined) return []
              return [{
                id,
                endpointId,
                eventId,
                workspaceId: event.workspaceId,
                eventType: event.type,
                body,
                status: "pending",
                attemptCount: 0,
                createdAtIso: nowIso
              }]
            })
          })
        )
      }

      const toAttempt = (deliveryId: string) =>
        sql`SELECT ${toAttemptColumns} FROM webhook_deliveries d WHERE d.id = ${deliveryId}`.pipe(
          Effect.flatMap(decodeToAttempt),
          Effect.orDie,
          Effect.map((rows) => rows[0])
        )

      const due = (nowIso: string, limit: number, disabled: ReadonlyArray<string>, leaseNowIso = nowIso) =>
        sql`
          SELECT d.id::text AS id, d.endpoint_id::text AS "endpointId"
          FROM webhook_deliveries d
          WHERE d.status = 'pending' AND d.next_attempt_at <= ${nowIso}::timestamptz
            AND (d.lease_until IS NULL OR d.lease_until <= ${leaseNowIso}::timestamptz)
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

      /** A held delivery's row as `freshRows` reads it, in the state an outcome (or none) gives it. */
      interface FreshRow {
        readonly delivery: NewDelivery
        readonly status: "pending" | "succeeded" | "failed"
        readonly attemptCount: number
        readonly nextAttemptIso: string | null
        readonly leasedUntilIso: string | null
        /** The automatic attempt that succeeded, kept on the row (migrations/0180). */
        readonly success: AttemptRecord | null
      }

      /**
       * Held deliveries written (`WITH live AS (...)` before it: their endpoints still there), in one
       * `INSERT` of a JSON array; one already there (fanned out again after its claim lapsed) stays.
       */
      const freshRows = (rows: ReadonlyArray<FreshRow>) => ({
        live: endpointTable.stillThere([...new Set(rows.map((row) => row.delivery.endpointId))]),
        insert: sql`
          INSERT INTO webhook_deliveries (id, workspace_id, endpoint_id, event_id, event_type, body, status,
            attempt_count, next_attempt_at, created_at, lease_until, succeeded_at, succeeded_status, succeeded_duration_ms,
            succeeded_response)
          SELECT n.id, n.workspace_id, n.endpoint_id, n.event_id, n.event_type, n.body, n.status, n.attempt_count,
                 n.next_attempt_at, n.created_at, n.lease_until, n.succeeded_at, n.succeeded_status, n.succeeded_duration_ms,
                 n.succeeded_response
          FROM jsonb_to_recordset(${JSON.stringify(rows.map(({ delivery, ...row }) => ({
          id: delivery.id,
          workspace_id: delivery.workspaceId,
          endpoint_id: delivery.endpointId,
          event_id: delivery.eventId,
          event_type: delivery.eventType,
          body: delivery.body,
          status: row.status,
          attempt_count: row.attemptCount,
          next_attempt_at: row.nextAttemptIso,
          created_at: delivery.createdAtIso,
          lease_until: row.leasedUntilIso,
          succeeded_at: row.success?.atIso ?? null,
          succeeded_status: row.success?.statusCode ?? null,
          succeeded_duration_ms: row.success?.durationMs ?? null,
          succeeded_response: row.success?.response ?? null
        })))}::jsonb) AS n(id uuid, workspace_id uuid, endpoint_id uuid, event_id uuid, event_type text, body text,
                 status text, attempt_count integer, next_attempt_at timestamptz, created_at timestamptz,
                 lease_until timestamptz, succeeded_at timestamptz, succeeded_status integer, succeeded_duration_ms integer,
                 succeeded_response text)
          JOIN live ON live.id = n.endpoint_id
          ON CONFLICT (endpoint_id, event_id) DO NOTHING`
      })

      const write = (deliveries: ReadonlyArray<NewDelivery>, untilIso: string | null) => {
        if (deliveries.length === 0) return Effect.void
        const { insert, live } = freshRows(deliveries.map((delivery) => ({
          delivery,
          status: "pending",
          attemptCount: 0,
          nextAttemptIso: delivery.createdAtIso,
          leasedUntilIso: untilIso,
          success: null
        })))
        return sql`WITH live AS (${live}) ${insert}`.pipe(Effect.asVoid, Effect.orDie)
      }

      /** A held delivery's row in the state its first outcome gives it. */
      const freshRowOf = (fresh: NewDelivery, attempt: AttemptRecord, change: DeliveryChange | undefined): FreshRow => {
        const base = { delivery: fresh, leasedUntilIso: null, success: null }
        switch (change?._tag) {
          // A manual attempt (a test event sent by hand) is an attempt row, not the row's success.
          case "succeeded":
            return {
              ...base,
              status: "succeeded",
              attemptCount: change.counted ? 1 : 0,
              nextAttemptIso: null,
              success: keptOnRow(attempt) ? attempt : null
            }
          case "failed":
            return { ...base, status: "failed", attemptCount: change.attemptCount, nextAttemptIso: null }
          case "retry":
            return { ...base, status: "pending", attemptCount: change.attemptCount, nextAttemptIso: change.atIso }
          case undefined:
            return { ...base, status: "pending", attemptCount: 0, nextAttemptIso: fresh.createdAtIso }
        }
      }

      const record = (outcomes: ReadonlyArray<AttemptOutcome>) => {
        if (outcomes.length === 0) return Effect.void
        const fresh: Array<FreshRow> = []
        const attempts: Array<AttemptRecord & { readonly onRow: boolean }> = []
        const changed: Array<{ readonly attempt: AttemptRecord; readonly change: DeliveryChange }> = []
        for (const { attempt, change, fresh: delivery } of outcomes) {
          if (delivery !== undefined) {
            fresh.push(freshRowOf(delivery, attempt, change))
            // A held delivery's success is on the row it is written with.
            if (!keptOnRow(attempt)) attempts.push({ ...attempt, onRow: false })
          } else {
            attempts.push({ ...attempt, onRow: keptOnRow(attempt) })
            if (change !== undefined) changed.push({ attempt, change })
          }
        }
        const attemptsJson = JSON.stringify(attempts.map((attempt) => ({
          delivery_id: attempt.deliveryId,
          trigger: attempt.trigger,
          attempted_at: attempt.atIso,
          status_code: attempt.statusCode,
          error: attempt.error,
          duration_ms: attempt.durationMs,
          response_body: attempt.response,
          succeeded: attempt.succeeded,
          on_row: attempt.onRow
        })))
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
                succeeded_duration_ms: onRow ? attempt.durationMs : null,
                succeeded_response: onRow ? attempt.response : null
              }
            }
            case "failed":
              return { id, status: "failed", next_attempt_at: null, attempt_count: change.attemptCount, added: 0 }
            case "retry":
              return { id, status: "pending", next_attempt_at: change.atIso, attempt_count: change.attemptCount, added: 0 }
          }
        }))
        const { insert, live } = freshRows(fresh)
        // One statement, so atomic without a transaction of its own (and one round trip): held
        // deliveries are written in the state their outcome gives them, the others' changes run to
        // completion as a data-modifying WITH, then the attempts not kept on their delivery's row are
        // inserted. A delivery's row keeps one success: one already there (a second automatic
        // success, after a lease lapsed) stays, and the new one becomes an attempt row, so no attempt
        // is ever dropped from the history.
        return sql`
          WITH live AS (${live}), written AS (${insert} RETURNING id), changed AS (
            UPDATE webhook_deliveries d SET status = c.status, next_attempt_at = c.next_attempt_at, lease_until = NULL,
              attempt_count = COALESCE(c.attempt_count, d.attempt_count + c.added),
              succeeded_at = COALESCE(d.succeeded_at, c.succeeded_at),
              succeeded_status = CASE WHEN d.succeeded_at IS NULL THEN c.succeeded_status ELSE d.succeeded_status END,
              succeeded_duration_ms = CASE WHEN d.succeeded_at IS NULL THEN c.succeeded_duration_ms
                ELSE d.succeeded_duration_ms END,
              succeeded_response = CASE WHEN d.succeeded_at IS NULL THEN c.succeeded_response ELSE d.succeeded_response END
            FROM jsonb_to_recordset(${changes}::jsonb) AS c(id uuid, status text, next_attempt_at timestamptz,
                   attempt_count integer, added integer, succeeded_at timestamptz, succeeded_status integer,
                   succeeded_duration_ms integer, succeeded_response text)
            WHERE d.id = c.id
            RETURNING d.id, c.succeeded_at IS NOT NULL AND (d.succeeded_at, d.succeeded_status, d.succeeded_duration_ms)
              IS NOT DISTINCT FROM (c.succeeded_at, c.succeeded_status, c.succeeded_duration_ms) AS on_row
          )
          INSERT INTO webhook_attempts (delivery_id, trigger, attempted_at, status_code, error, duration_ms, response_body,
            succeeded)
          SELECT a.delivery_id, a.trigger, a.attempted_at, a.status_code, a.error, a.duration_ms, a.response_body, a.succeeded
          FROM jsonb_to_recordset(${attemptsJson}::jsonb) AS a(delivery_id uuid, trigger text,
                 attempted_at timestamptz, status_code integer, error text, duration_ms integer, response_body text,
                 succeeded boolean, on_row boolean)
          -- A delivery deleted with its endpoint meanwhile has nothing left to record, and must not fail
          -- the batch; one written by this statement is not seen by its snapshot, but is there.
          WHERE (a.delivery_id IN (SELECT id FROM written)
              OR EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = a.delivery_id))
            AND NOT (a.on_row AND EXISTS (SELECT 1 FROM changed WHERE changed.id = a.delivery_id AND changed.on_row))`
          .pipe(Effect.asVoid, Effect.orDie)
      }

      const endClaims = (claimIds: ReadonlyArray<string>) =>
        claimIds.length === 0 ? Effect.void : sql`DELETE FROM webhook_fanout_claims WHERE ${sql.in("id", [...claimIds])}`.pipe(
          Effect.asVoid,
          Effect.orDie
        )

      const lapsedClaims = (nowIso: string, limit: number) =>
        sql`
          SELECT id::text AS id, first_seq AS "firstSeq", last_seq AS "lastSeq" FROM webhook_fanout_claims
          WHERE lease_until <= ${nowIso}::timestamptz ORDER BY first_seq LIMIT ${limit}
          FOR UPDATE SKIP LOCKED`.pipe(Effect.flatMap(decodeLapsed), Effect.orDie)

      const deliveryColumns = sql`id::text AS id, event_id::text AS "eventId", event_type AS "eventType", body AS payload,
        status, attempt_count AS "attemptCount", next_attempt_at AS "nextAttemptAt", created_at AS "createdAt",
        succeeded_at AS "succeededAt", succeeded_status AS "succeededStatus", succeeded_duration_ms AS "succeededDurationMs",
        succeeded_response AS "succeededResponse"`

      const withAttempts = Effect.fnUntraced(function*(
        rows: ReadonlyArray<typeof DeliveryRow.Type>
      ) {
        if (rows.length === 0) return []
        const attempts = yield* sql`
          SELECT delivery_id::text AS "deliveryId", attempted_at AS at, trigger, status_code AS "statusCode", error,
                 duration_ms AS "durationMs", response_body AS response
          FROM webhook_attempts WHERE ${sql.in("delivery_id", rows.map((row) => row.id))}
          ORDER BY id`.pipe(Effect.flatMap(decodeAttempts), Effect.orDie)
        return rows.map(({ succeededAt, succeededDurationMs, succeededResponse, succeededStatus, ...row }): DeliveryRecord => {
          const recorded = attempts.filter((a) => a.deliveryId === row.id).map(({ deliveryId: _, ...attempt }) => attempt)
          if (succeededAt === null) return { ...row, attempts: recorded }
          const success: DeliveryRecord["attempts"][number] = {
            at: succeededAt,
            trigger: "automatic",
            statusCode: succeededStatus,
            error: null,
            durationMs: succeededDurationMs ?? 0,
            response: succeededResponse
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
        write,
        endClaims,
        lapsedClaims,
        toAttempt,
        due,
        lease,
        release,
        record,
        history,
        ofEndpoint
      })
    })
  ).pipe(Layer.provide(EndpointTable.layer))
}
