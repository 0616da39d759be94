/**
 * Webhook endpoints of a workspace and the history of their deliveries:
 * register (URL vetted, secret shown once), list, get, change, delete,
 * rotate the secret, read the last 50 deliveries.
 *
 * @since 1.0.0
 */
import { Context, Duration, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { NotFound } from "../api/Errors.ts"
import type { WebhookEndpoint } from "../api/WebhooksApi.ts"
import { type EventType, EventTypeSchema } from "../domain/Events.ts"
import * as Time from "../domain/Time.ts"
import { AppConfig } from "../platform/AppConfig.ts"
import { NullableTimestamp, Timestamp } from "../platform/Rows.ts"
import { vetUrl, WebhookResolver, type WebhookTargetRefused } from "./AddressGuard.ts"
import { type DeliveryRecord, DeliveryStore } from "./DeliveryStore.ts"
import type { WebhookMode } from "../domain/WebhookPayload.ts"
import { newSecret } from "./Signature.ts"

/** How long the previous secret keeps signing after a rotation. */
export const rotationOverlap = Duration.hours(24)

/** How many deliveries the history shows. */
export const deliveryHistoryLength = 50

export type WebhookEndpointRecord = typeof WebhookEndpoint.Type
export type { DeliveryRecord }

const EventTypeColumn = EventTypeSchema

const EndpointRow = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  events: Schema.Array(EventTypeColumn),
  mode: Schema.Literals(["fat", "thin"]),
  enabled: Schema.Boolean,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  previousSecretExpiresAt: NullableTimestamp
})
const decodeEndpoints = Schema.decodeUnknownEffect(Schema.Array(EndpointRow))

const endpointNotFound = (id: string) =>
  new NotFound({
    error: { message: `No webhook endpoint ${id} in this workspace.`, next: "List the endpoints with GET /v1/webhooks." }
  })

/** A change to an endpoint: any of its settable fields. */
export interface EndpointPatch {
  readonly url?: string
  readonly events?: ReadonlyArray<EventType>
  readonly mode?: WebhookMode
  readonly enabled?: boolean
}

export class WebhookEndpoints extends Context.Service<WebhookEndpoints, {
  /** Registers an endpoint after vetting its URL; the secret is returned this once. */
  readonly create: (input: {
    readonly workspaceId: string
    readonly url: string
    readonly events: ReadonlyArray<EventType>
    readonly mode: WebhookMode
  }) => Effect.Effect<{ readonly webhook: WebhookEndpointRecord; readonly secret: string }, WebhookTargetRefused>
  readonly list: (workspaceId: string) => Effect.Effect<ReadonlyArray<WebhookEndpointRecord>>
  readonly get: (workspaceId: string, id: string) => Effect.Effect<WebhookEndpointRecord, NotFound>
  /** Changes an endpoint; a new URL is vetted like at creation. */
  readonly update: (
    workspaceId: string,
    id: string,
    patch: EndpointPatch
  ) => Effect.Effect<WebhookEndpointRecord, NotFound | WebhookTargetRefused>
  /** Deletes an endpoint with its deliveries. */
  readonly remove: (workspaceId: string, id: string) => Effect.Effect<void, NotFound>
  /** A new secret, returned once; the previous one keeps signing for `rotationOverlap`. */
  readonly rotateSecret: (
    workspaceId: string,
    id: string
  ) => Effect.Effect<{ readonly webhook: WebhookEndpointRecord; readonly secret: string }, NotFound>
  /** The last 50 deliveries, newest first, with every attempt. */
  readonly deliveries: (workspaceId: string, id: string) => Effect.Effect<ReadonlyArray<DeliveryRecord>, NotFound>
  /** One delivery of an endpoint. */
  readonly delivery: (
    workspaceId: string,
    endpointId: string,
    deliveryId: string
  ) => Effect.Effect<DeliveryRecord, NotFound>
}>()("outreach/WebhookEndpoints") {
  static readonly layer = Layer.effect(
    WebhookEndpoints,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const deliveryStore = yield* DeliveryStore
      const config = yield* AppConfig
      // Captured here so handlers vet with the resolver the service was built with.
      const resolver = yield* WebhookResolver
      const guard = { allowPrivate: config.allowPrivateWebhooks }
      const vet = (url: string) =>
        vetUrl(url, guard).pipe(Effect.provideService(WebhookResolver, resolver), Effect.map((vetted) => vetted.url.href))

      const columns = sql`id::text AS id, url, events, mode, enabled, created_at AS "createdAt",
        updated_at AS "updatedAt", previous_secret_expires_at AS "previousSecretExpiresAt"`

      const one = (rows: ReadonlyArray<WebhookEndpointRecord>, id: string) => {
        const row = rows[0]
        return row === undefined ? Effect.fail(endpointNotFound(id)) : Effect.succeed(row)
      }

      const create = Effect.fn("WebhookEndpoints.create")(function*(input: {
        readonly workspaceId: string
        readonly url: string
        readonly events: ReadonlyArray<EventType>
        readonly mode: WebhookMode
      }) {
        const url = yield* vet(input.url)
        const secret = yield* newSecret
        const now = yield* Time.now
        const rows = yield* sql`
          INSERT INTO webhook_endpoints
            (id, workspace_id, url, events, mode, enabled, secret, created_at, updated_at, subscribed_at_snapshot)
          VALUES (${crypto.randomUUID()}, ${input.workspaceId}, ${url}, ${JSON.stringify([...new Set(input.events)])}::jsonb,
                  ${input.mode}, true, ${secret}, ${now.iso}::timestamptz, ${now.iso}::timestamptz, pg_current_snapshot())
          RETURNING ${columns}`.pipe(Effect.flatMap(decodeEndpoints), Effect.orDie)
        const webhook = yield* Effect.orDie(one(rows, ""))
        yield* Effect.logInfo("webhook endpoint created").pipe(
          Effect.annotateLogs({ webhookId: webhook.id, workspaceId: input.workspaceId })
        )
        return { webhook, secret }
      })

      const list = Effect.fn("WebhookEndpoints.list")((workspaceId: string) =>
        sql`SELECT ${columns} FROM webhook_endpoints WHERE workspace_id = ${workspaceId}
            ORDER BY created_at DESC, id`.pipe(Effect.flatMap(decodeEndpoints), Effect.orDie)
      )

      const get = Effect.fn("WebhookEndpoints.get")(function*(workspaceId: string, id: string) {
        const rows = yield* sql`SELECT ${columns} FROM webhook_endpoints WHERE id = ${id} AND workspace_id = ${workspaceId}`
          .pipe(Effect.flatMap(decodeEndpoints), Effect.orDie)
        return yield* one(rows, id)
      })

      const update = Effect.fn("WebhookEndpoints.update")(function*(workspaceId: string, id: string, patch: EndpointPatch) {
        const current = yield* get(workspaceId, id)
        const url = patch.url === undefined ? current.url : yield* vet(patch.url)
        const events = patch.events === undefined ? current.events : [...new Set(patch.events)]
        const now = yield* Time.now
        const rows = yield* sql`
          UPDATE webhook_endpoints SET url = ${url}, events = ${JSON.stringify(events)}::jsonb,
            mode = ${patch.mode ?? current.mode}, enabled = ${patch.enabled ?? current.enabled},
            updated_at = ${now.iso}::timestamptz
          WHERE id = ${id} AND workspace_id = ${workspaceId}
          RETURNING ${columns}`.pipe(Effect.flatMap(decodeEndpoints), Effect.orDie)
        return yield* one(rows, id)
      })

      const remove = Effect.fn("WebhookEndpoints.remove")(function*(workspaceId: string, id: string) {
        const rows = yield* sql`DELETE FROM webhook_endpoints WHERE id = ${id} AND workspace_id = ${workspaceId}
                                RETURNING id`.pipe(Effect.orDie)
        if (rows.length === 0) return yield* endpointNotFound(id)
      })

      const rotateSecret = Effect.fn("WebhookEndpoints.rotateSecret")(function*(workspaceId: string, id: string) {
        const secret = yield* newSecret
        const now = yield* Time.now
        const expires = Time.toIso(now.ms + Duration.toMillis(rotationOverlap))
        // Rotating again during an overlap retires the older secret at once: two secrets at most.
        const rows = yield* sql`
          UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = ${expires}::timestamptz,
            secret = ${secret}, updated_at = ${now.iso}::timestamptz
          WHERE id = ${id} AND workspace_id = ${workspaceId}
          RETURNING ${columns}`.pipe(Effect.flatMap(decodeEndpoints), Effect.orDie)
        const webhook = yield* one(rows, id)
        return { webhook, secret }
      })

      const deliveries = Effect.fn("WebhookEndpoints.deliveries")(function*(workspaceId: string, id: string) {
        yield* get(workspaceId, id)
        return yield* deliveryStore.history(id, deliveryHistoryLength)
      })

      const delivery = Effect.fn("WebhookEndpoints.delivery")(function*(
        workspaceId: string,
        endpointId: string,
        deliveryId: string
      ) {
        yield* get(workspaceId, endpointId)
        const found = yield* deliveryStore.ofEndpoint(endpointId, deliveryId)
        if (found === undefined) {
          return yield* new NotFound({
            error: {
              message: `No delivery ${deliveryId} for webhook endpoint ${endpointId}.`,
              next: `List its deliveries with GET /v1/webhooks/${endpointId}/deliveries.`
            }
          })
        }
        return found
      })

      return WebhookEndpoints.of({ create, list, get, update, remove, rotateSecret, deliveries, delivery })
    })
  ).pipe(Layer.provide(DeliveryStore.layer))
}
