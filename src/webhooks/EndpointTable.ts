/**
 * The `webhook_endpoints` table: the one module with SQL on it (issue #19, one
 * owner per table). Statements only, each joining the caller's transaction
 * when there is one: vetting a URL and making a secret are `WebhookEndpoints`'
 * (`Endpoints.ts`), fanning an event out is the dispatcher's, which reads
 * here who subscribes, which endpoints are disabled and where an attempt
 * goes and how it is signed.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import type { WebhookEndpoint } from "../domain/Webhooks.ts"
import { type EventType, EventTypeSchema } from "../domain/Events.ts"
import type { WebhookMode } from "../domain/WebhookPayload.ts"
import { firstRow, NullableTimestamp, Timestamp } from "../platform/Rows.ts"

const Mode = Schema.Literals(["fat", "thin"])

const EndpointRow = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  events: Schema.Array(EventTypeSchema),
  mode: Mode,
  enabled: Schema.Boolean,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  previousSecretExpiresAt: NullableTimestamp
})
const decodeEndpoints = Schema.decodeUnknownEffect(Schema.Array(EndpointRow))

/** Where an attempt of the endpoint goes, the secrets that sign it, and whether it is enabled. */
export const EndpointSecrets = Schema.Struct({
  endpointId: Schema.String,
  enabled: Schema.Boolean,
  url: Schema.String,
  secret: Schema.String,
  previousSecret: Schema.NullOr(Schema.String),
  previousSecretExpiresAt: NullableTimestamp
})
export type EndpointSecrets = typeof EndpointSecrets.Type
const decodeSecrets = Schema.decodeUnknownEffect(Schema.Array(EndpointSecrets))

/**
 * An enabled endpoint as the fan-out matches events to it: its mode, the event
 * types it subscribes to (none: all) and when it subscribed (the snapshot of
 * its creation, as text; null for endpoints older than migrations/0130, which
 * compare creation times); and where its attempts go and how they are signed,
 * so the deliveries the fan-out leases are attempted without another read.
 */
export const Subscriber = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  mode: Mode,
  events: Schema.Array(Schema.String),
  createdAt: Schema.String,
  snapshot: Schema.NullOr(Schema.String),
  ...EndpointSecrets.fields
})
export type Subscriber = typeof Subscriber.Type
const decodeSubscribers = Schema.decodeUnknownEffect(Schema.Array(Subscriber))
const decodeIds = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ id: Schema.String })))

/** A new endpoint, its URL already vetted. */
export interface NewEndpoint {
  readonly id: string
  readonly workspaceId: string
  readonly url: string
  readonly events: ReadonlyArray<EventType>
  readonly mode: WebhookMode
  readonly secret: string
  readonly nowIso: string
}

/** An endpoint's settable fields, all of them (the caller merged a patch into the current ones). */
export interface EndpointSettings {
  readonly url: string
  readonly events: ReadonlyArray<EventType>
  readonly mode: WebhookMode
  readonly enabled: boolean
}

export class EndpointTable extends Context.Service<EndpointTable, {
  readonly insert: (endpoint: NewEndpoint) => Effect.Effect<typeof WebhookEndpoint.Type>
  /** The workspace's endpoints, newest first. */
  readonly list: (workspaceId: string) => Effect.Effect<ReadonlyArray<typeof WebhookEndpoint.Type>>
  readonly get: (workspaceId: string, id: string) => Effect.Effect<typeof WebhookEndpoint.Type | undefined>
  readonly update: (
    workspaceId: string,
    id: string,
    settings: EndpointSettings,
    nowIso: string
  ) => Effect.Effect<typeof WebhookEndpoint.Type | undefined>
  /**
   * The enabled endpoints of these workspaces, locked against deletion (FOR KEY SHARE) to the end of the
   * caller's transaction, so the deliveries it then writes for them always have their endpoint.
   */
  readonly subscribers: (workspaceIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Subscriber>>
  /**
   * A query, for another module's statement, of those of `ids` still there, locked against
   * deletion (FOR KEY SHARE) to the end of its transaction: the deliveries it writes for them
   * always have their endpoint, and those of an endpoint deleted meanwhile are not written.
   */
  readonly stillThere: (ids: ReadonlyArray<string>) => Statement.Fragment
  /** The ids of every disabled endpoint (their deliveries wait). */
  readonly disabled: Effect.Effect<ReadonlyArray<string>>
  /** The address, secrets and state of these endpoints (one query for them all); a deleted one is left out. */
  readonly secretsOf: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, EndpointSecrets>>
  /** Deletes the endpoint (its deliveries go with it); false when there was none. */
  readonly remove: (workspaceId: string, id: string) => Effect.Effect<boolean>
  /** Signs with `secret` from now on; the current secret keeps signing until `previousExpiresIso`. */
  readonly rotateSecret: (
    workspaceId: string,
    id: string,
    secret: string,
    previousExpiresIso: string,
    nowIso: string
  ) => Effect.Effect<typeof WebhookEndpoint.Type | undefined>
}>()("outreach/EndpointTable") {
  static readonly layer = Layer.effect(
    EndpointTable,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const columns = sql`id::text AS id, url, events, mode, enabled, created_at AS "createdAt",
        updated_at AS "updatedAt", previous_secret_expires_at AS "previousSecretExpiresAt"`
      const secretColumns = sql`id::text AS "endpointId", enabled, url, secret, previous_secret AS "previousSecret",
        previous_secret_expires_at AS "previousSecretExpiresAt"`
      const rows = <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
        query.pipe(Effect.flatMap(decodeEndpoints), Effect.orDie)
      const first = <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
        firstRow(Effect.flatMap(query, decodeEndpoints))

      return EndpointTable.of({
        insert: (endpoint) =>
          first(sql`
            INSERT INTO webhook_endpoints
              (id, workspace_id, url, events, mode, enabled, secret, created_at, updated_at, subscribed_at_snapshot)
            VALUES (${endpoint.id}, ${endpoint.workspaceId}, ${endpoint.url}, ${JSON.stringify(endpoint.events)}::jsonb,
                    ${endpoint.mode}, true, ${endpoint.secret}, ${endpoint.nowIso}::timestamptz,
                    ${endpoint.nowIso}::timestamptz, pg_current_snapshot())
            RETURNING ${columns}`).pipe(
            Effect.flatMap((row) => row === undefined ? Effect.die(new Error("INSERT returned no row")) : Effect.succeed(row))
          ),
        list: (workspaceId) =>
          rows(sql`SELECT ${columns} FROM webhook_endpoints WHERE workspace_id = ${workspaceId}
            ORDER BY created_at DESC, id`),
        get: (workspaceId, id) =>
          first(sql`SELECT ${columns} FROM webhook_endpoints WHERE id = ${id} AND workspace_id = ${workspaceId}`),
        update: (workspaceId, id, settings, nowIso) =>
          first(sql`
            UPDATE webhook_endpoints SET url = ${settings.url}, events = ${JSON.stringify(settings.events)}::jsonb,
              mode = ${settings.mode}, enabled = ${settings.enabled}, updated_at = ${nowIso}::timestamptz
            WHERE id = ${id} AND workspace_id = ${workspaceId}
            RETURNING ${columns}`),
        subscribers: (workspaceIds) =>
          workspaceIds.length === 0 ? Effect.succeed([]) : sql`
            SELECT id::text AS id, workspace_id::text AS "workspaceId", mode, events,
              to_json(created_at) #>> '{}' AS "createdAt", subscribed_at_snapshot::text AS snapshot, ${secretColumns}
            FROM webhook_endpoints WHERE workspace_id IN ${sql.in(workspaceIds)} AND enabled
            FOR KEY SHARE`.pipe(Effect.flatMap(decodeSubscribers), Effect.orDie),
        stillThere: (ids) =>
          ids.length === 0
            ? sql`SELECT NULL::uuid AS id WHERE false`
            : sql`SELECT id FROM webhook_endpoints WHERE id IN ${sql.in(ids)} FOR KEY SHARE`,
        disabled: sql`SELECT id::text AS id FROM webhook_endpoints WHERE NOT enabled`.pipe(
          Effect.flatMap(decodeIds),
          Effect.map((found) => found.map((row) => row.id)),
          Effect.orDie
        ),
        secretsOf: (ids) =>
          ids.length === 0 ? Effect.succeed(new Map<string, EndpointSecrets>()) : sql`
            SELECT ${secretColumns} FROM webhook_endpoints WHERE id IN ${sql.in(ids)}`.pipe(
            Effect.flatMap(decodeSecrets),
            Effect.map((found) => new Map(found.map((row) => [row.endpointId, row]))),
            Effect.orDie
          ),
        remove: (workspaceId, id) =>
          sql`DELETE FROM webhook_endpoints WHERE id = ${id} AND workspace_id = ${workspaceId} RETURNING id`.pipe(
            Effect.map((deleted) => deleted.length > 0),
            Effect.orDie
          ),
        // Rotating again during an overlap retires the older secret at once: two secrets at most.
        rotateSecret: (workspaceId, id, secret, previousExpiresIso, nowIso) =>
          first(sql`
            UPDATE webhook_endpoints SET previous_secret = secret,
              previous_secret_expires_at = ${previousExpiresIso}::timestamptz,
              secret = ${secret}, updated_at = ${nowIso}::timestamptz
            WHERE id = ${id} AND workspace_id = ${workspaceId}
            RETURNING ${columns}`)
      })
    })
  )
}
