/**
 * Webhook endpoints of a workspace and the history of their deliveries:
 * register (URL vetted, secret shown once), list, get, change, delete,
 * rotate the secret, read the last 50 deliveries. The SQL is `EndpointTable`'s.
 */
import { Context, Duration, Effect, Layer } from "effect"
import type { WebhookEndpoint } from "../domain/Webhooks.ts"
import type { EventType } from "../domain/Events.ts"
import { Missing } from "../domain/Failures.ts"
import * as Time from "../domain/Time.ts"
import { AppConfig } from "../platform/AppConfig.ts"
import { vetUrl, WebhookResolver, type WebhookTargetRefused } from "./AddressGuard.ts"
import { type DeliveryRecord, DeliveryStore } from "./DeliveryStore.ts"
import { type EndpointSettings, EndpointTable } from "./EndpointTable.ts"
import type { WebhookMode } from "../domain/WebhookPayload.ts"
import { newSecret } from "./Signature.ts"

/** How long the previous secret keeps signing after a rotation. */
export const rotationOverlap = Duration.hours(24)

/** How many deliveries the history shows. */
export const deliveryHistoryLength = 50

export type WebhookEndpointRecord = typeof WebhookEndpoint.Type
export type { DeliveryRecord }

/** No such endpoint in the workspace. */
export const endpointNotFound = (id: string) =>
  new Missing({ message: `No webhook endpoint ${id} in this workspace.`, advice: { _tag: "ListWebhooks" } })

/** No such delivery of the endpoint. */
export const deliveryNotFound = (endpointId: string, deliveryId: string) =>
  new Missing({
    message: `No delivery ${deliveryId} for webhook endpoint ${endpointId}.`,
    advice: { _tag: "ListDeliveries", endpointId }
  })

/** A change to an endpoint: any of its settable fields. */
export interface EndpointPatch {
  readonly url?: string
  readonly events?: ReadonlyArray<EventType>
  readonly mode?: WebhookMode
  readonly enabled?: boolean
}

/** The event types an endpoint subscribes to, each once. */
const distinct = (events: ReadonlyArray<EventType>): ReadonlyArray<EventType> => [...new Set(events)]

/** The settings of `current` changed by `patch`; `url` is the patch's URL vetted, or the current one. */
export const settingsAfter = (current: WebhookEndpointRecord, patch: EndpointPatch, url: string): EndpointSettings => ({
  url,
  events: patch.events === undefined ? current.events : distinct(patch.events),
  mode: patch.mode ?? current.mode,
  enabled: patch.enabled ?? current.enabled
})

/** An endpoint to register, in its workspace. */
export interface NewEndpointRequest {
  readonly workspaceId: string
  readonly url: string
  readonly events: ReadonlyArray<EventType>
  readonly mode: WebhookMode
}

/** A new endpoint's fields as kept, its URL vetted (subscribed to each of `events` once). */
export const newEndpointOf = (input: NewEndpointRequest, url: string) => ({
  url,
  events: distinct(input.events),
  mode: input.mode
})

/** Until when the previous secret signs after a rotation at `nowMs`. */
export const previousSecretExpiry = (nowMs: number): string => Time.toIso(nowMs + Duration.toMillis(rotationOverlap))

/**
 * The vetting of an endpoint's URL as the service is configured (`allowPrivateWebhooks`), with the
 * resolver it is built with; answers the URL as it is kept.
 */
export const endpointUrlVetter = Effect.gen(function*() {
  const config = yield* AppConfig
  // Captured here so handlers vet with the resolver the service was built with.
  const resolver = yield* WebhookResolver
  const guard = { allowPrivate: config.allowPrivateWebhooks }
  return (url: string): Effect.Effect<string, WebhookTargetRefused> =>
    vetUrl(url, guard).pipe(Effect.provideService(WebhookResolver, resolver), Effect.map((vetted) => vetted.url.href))
})

export class WebhookEndpoints extends Context.Service<WebhookEndpoints, {
  /** Registers an endpoint after vetting its URL; the secret is returned this once. */
  readonly create: (
    input: NewEndpointRequest
  ) => Effect.Effect<{ readonly webhook: WebhookEndpointRecord; readonly secret: string }, WebhookTargetRefused>
  readonly list: (workspaceId: string) => Effect.Effect<ReadonlyArray<WebhookEndpointRecord>>
  readonly get: (workspaceId: string, id: string) => Effect.Effect<WebhookEndpointRecord, Missing>
  /** Changes an endpoint; a new URL is vetted like at creation. */
  readonly update: (
    workspaceId: string,
    id: string,
    patch: EndpointPatch
  ) => Effect.Effect<WebhookEndpointRecord, Missing | WebhookTargetRefused>
  /** Deletes an endpoint with its deliveries. */
  readonly remove: (workspaceId: string, id: string) => Effect.Effect<void, Missing>
  /** A new secret, returned once; the previous one keeps signing for `rotationOverlap`. */
  readonly rotateSecret: (
    workspaceId: string,
    id: string
  ) => Effect.Effect<{ readonly webhook: WebhookEndpointRecord; readonly secret: string }, Missing>
  /** The last 50 deliveries, newest first, with every attempt. */
  readonly deliveries: (workspaceId: string, id: string) => Effect.Effect<ReadonlyArray<DeliveryRecord>, Missing>
  /** One delivery of an endpoint. */
  readonly delivery: (
    workspaceId: string,
    endpointId: string,
    deliveryId: string
  ) => Effect.Effect<DeliveryRecord, Missing>
}>()("outreach/WebhookEndpoints") {
  static readonly layerNoDeps = Layer.effect(
    WebhookEndpoints,
    Effect.gen(function*() {
      const table = yield* EndpointTable
      const deliveryStore = yield* DeliveryStore
      const vet = yield* endpointUrlVetter

      const found = (row: WebhookEndpointRecord | undefined, id: string) =>
        row === undefined ? Effect.fail(endpointNotFound(id)) : Effect.succeed(row)

      const create = Effect.fn("WebhookEndpoints.create")(function*(input: NewEndpointRequest) {
        const url = yield* vet(input.url)
        const secret = yield* newSecret
        const now = yield* Time.now
        const webhook = yield* table.insert({
          id: crypto.randomUUID(),
          workspaceId: input.workspaceId,
          ...newEndpointOf(input, url),
          secret,
          nowIso: now.iso
        })
        yield* Effect.logInfo("webhook endpoint created").pipe(
          Effect.annotateLogs({ webhookId: webhook.id, workspaceId: input.workspaceId })
        )
        return { webhook, secret }
      })

      const list = Effect.fn("WebhookEndpoints.list")((workspaceId: string) => table.list(workspaceId))

      const get = Effect.fn("WebhookEndpoints.get")(function*(workspaceId: string, id: string) {
        return yield* found(yield* table.get(workspaceId, id), id)
      })

      const update = Effect.fn("WebhookEndpoints.update")(function*(workspaceId: string, id: string, patch: EndpointPatch) {
        const current = yield* get(workspaceId, id)
        const url = patch.url === undefined ? current.url : yield* vet(patch.url)
        const now = yield* Time.now
        return yield* found(yield* table.update(workspaceId, id, settingsAfter(current, patch, url), now.iso), id)
      })

      const remove = Effect.fn("WebhookEndpoints.remove")(function*(workspaceId: string, id: string) {
        if (!(yield* table.remove(workspaceId, id))) return yield* endpointNotFound(id)
      })

      const rotateSecret = Effect.fn("WebhookEndpoints.rotateSecret")(function*(workspaceId: string, id: string) {
        const secret = yield* newSecret
        const now = yield* Time.now
        const expires = previousSecretExpiry(now.ms)
        const webhook = yield* found(yield* table.rotateSecret(workspaceId, id, secret, expires, now.iso), id)
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
        if (found === undefined) return yield* deliveryNotFound(endpointId, deliveryId)
        return found
      })

      return WebhookEndpoints.of({ create, list, get, update, remove, rotateSecret, deliveries, delivery })
    })
  )

  /** `layerNoDeps` with its services' layers. */
  static readonly layer = WebhookEndpoints.layerNoDeps.pipe(Layer.provide([DeliveryStore.layer, EndpointTable.layer]))
}
