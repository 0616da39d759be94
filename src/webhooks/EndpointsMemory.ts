/**
 * `WebhookEndpoints` in memory, for fast tests of the webhook routes without a database: the
 * rules of the stored endpoints (`Endpoints.ts`), for one process. A URL is vetted as the stored
 * service vets it (with the `WebhookResolver` and `AppConfig` it is built with); an endpoint is
 * registered enabled with its secret shown once, listed newest first, read, changed, deleted, and
 * its secret rotated with the previous one's expiry, in its own workspace only. Nothing delivers
 * in memory: an endpoint's history is empty and no delivery of it is found.
 */
import { Effect, Layer } from "effect"
import * as Time from "../domain/Time.ts"
import {
  deliveryNotFound,
  type EndpointPatch,
  endpointNotFound,
  endpointUrlVetter,
  newEndpointOf,
  type NewEndpointRequest,
  previousSecretExpiry,
  settingsAfter,
  type WebhookEndpointRecord,
  WebhookEndpoints
} from "./Endpoints.ts"
import { newSecret } from "./Signature.ts"

/** An endpoint as the table keeps it, with its workspace (its secrets sign nothing here). */
interface EndpointRow {
  readonly workspaceId: string
  readonly webhook: WebhookEndpointRecord
}

/** The in-memory `WebhookEndpoints`; needs `AppConfig` (and takes the `WebhookResolver` in context), as the stored one. */
export const layer = Layer.effect(
  WebhookEndpoints,
  Effect.gen(function*() {
    const vet = yield* endpointUrlVetter
    const rows: Array<EndpointRow> = []

    /** The endpoint's place, in its own workspace; a uuid whatever the case of its letters. */
    const indexOf = (workspaceId: string, id: string) =>
      rows.findIndex((row) => row.workspaceId === workspaceId && row.webhook.id === id.toLowerCase())

    const get = Effect.fn("EndpointsMemory.get")(function*(workspaceId: string, id: string) {
      const row = rows[indexOf(workspaceId, id)]
      return row === undefined ? yield* endpointNotFound(id) : row.webhook
    })

    /** Replaces the endpoint with `change` of it, stamped now. */
    const changed = (workspaceId: string, id: string, change: (webhook: WebhookEndpointRecord, nowMs: number) => WebhookEndpointRecord) =>
      Effect.gen(function*() {
        const index = indexOf(workspaceId, id)
        const row = rows[index]
        if (row === undefined) return yield* endpointNotFound(id)
        const now = yield* Time.now
        const webhook = { ...change(row.webhook, now.ms), updatedAt: now.iso }
        rows[index] = { workspaceId, webhook }
        return webhook
      })

    const create = Effect.fn("EndpointsMemory.create")(function*(input: NewEndpointRequest) {
      const url = yield* vet(input.url)
      const secret = yield* newSecret
      const now = yield* Time.now
      const webhook: WebhookEndpointRecord = {
        id: crypto.randomUUID(),
        ...newEndpointOf(input, url),
        enabled: true,
        createdAt: now.iso,
        updatedAt: now.iso,
        previousSecretExpiresAt: null
      }
      rows.push({ workspaceId: input.workspaceId, webhook })
      return { webhook, secret }
    })

    const list = Effect.fn("EndpointsMemory.list")((workspaceId: string) =>
      Effect.sync(() => rows.filter((row) => row.workspaceId === workspaceId).map((row) => row.webhook).sort(Time.newestFirst))
    )

    const update = Effect.fn("EndpointsMemory.update")(function*(workspaceId: string, id: string, patch: EndpointPatch) {
      const current = yield* get(workspaceId, id)
      const url = patch.url === undefined ? current.url : yield* vet(patch.url)
      return yield* changed(workspaceId, id, (webhook) => ({ ...webhook, ...settingsAfter(current, patch, url) }))
    })

    const remove = Effect.fn("EndpointsMemory.remove")(function*(workspaceId: string, id: string) {
      const index = indexOf(workspaceId, id)
      if (index === -1) return yield* endpointNotFound(id)
      rows.splice(index, 1)
    })

    const rotateSecret = Effect.fn("EndpointsMemory.rotateSecret")(function*(workspaceId: string, id: string) {
      const secret = yield* newSecret
      const webhook = yield* changed(workspaceId, id, (current, nowMs) => ({ ...current, previousSecretExpiresAt: previousSecretExpiry(nowMs) }))
      return { webhook, secret }
    })

    const deliveries = Effect.fn("EndpointsMemory.deliveries")(function*(workspaceId: string, id: string) {
      yield* get(workspaceId, id)
      return []
    })

    const delivery = Effect.fn("EndpointsMemory.delivery")(function*(workspaceId: string, endpointId: string, deliveryId: string) {
      yield* get(workspaceId, endpointId)
      return yield* deliveryNotFound(endpointId, deliveryId)
    })

    return WebhookEndpoints.of({ create, list, get, update, remove, rotateSecret, deliveries, delivery })
  })
)
