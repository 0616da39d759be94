/**
 * What `WebhookEndpoints` promises its callers, run against the stored endpoints
 * (`Endpoints.test.ts`, on a database) and against the in-memory ones the fast route tests use
 * (`EndpointsMemory.test.ts`): the same expectations, so the fake cannot drift from the service it
 * stands in for. Each backend vets URLs with {@link resolver} and private webhooks not allowed.
 * Deliveries are the dispatcher's: here only an endpoint's empty history and a delivery not found.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { Missing } from "../../src/domain/Failures.ts"
import * as Time from "../../src/domain/Time.ts"
import { nextOf } from "../../src/http/ServiceErrors.ts"
import { WebhookResolver } from "../../src/webhooks/AddressGuard.ts"
import { WebhookEndpoints } from "../../src/webhooks/Endpoints.ts"
import type { Backend, TwoWorkspaces } from "../support/Backends.ts"

/** The names the endpoints' URLs use: a public host, and one on a private network. */
export const resolver = WebhookResolver.layerStatic({
  "hooks.example.com": ["93.184.216.34"],
  "intranet.example.com": ["10.1.2.3"]
})

const hook = { url: "https://hooks.example.com/outreach", events: [], mode: "fat" } as const

export const endpointsExpectations = <R>(backend: Backend<R, WebhookEndpoints, TwoWorkspaces>) =>
  layer(backend.services)(`WebhookEndpoints (${backend.name})`, (it) => {
    it.effect("an endpoint is registered enabled, its secret returned once, in its own workspace only", () =>
      backend.withFixture(({ workspaceId, otherWorkspaceId }) =>
        Effect.gen(function*() {
          const endpoints = yield* WebhookEndpoints
          const now = yield* Time.now
          const { webhook, secret } = yield* endpoints.create({
            workspaceId,
            url: "https://HOOKS.example.com:443/outreach",
            events: ["job.completed", "message.received", "job.completed"],
            mode: "thin"
          })
          assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/)
          assert.deepStrictEqual(webhook, {
            id: webhook.id,
            url: "https://hooks.example.com/outreach",
            events: ["job.completed", "message.received"],
            mode: "thin",
            enabled: true,
            createdAt: now.iso,
            updatedAt: now.iso,
            previousSecretExpiresAt: null
          })
          assert.deepStrictEqual(yield* endpoints.get(workspaceId, webhook.id), webhook)
          assert.deepStrictEqual(yield* endpoints.get(workspaceId, webhook.id.toUpperCase()), webhook)
          assert.deepStrictEqual(yield* endpoints.list(workspaceId), [webhook])
          assert.deepStrictEqual(yield* endpoints.list(otherWorkspaceId), [])
          const elsewhere = yield* Effect.flip(endpoints.get(otherWorkspaceId, webhook.id))
          assert.instanceOf(elsewhere, Missing)
          assert.strictEqual(elsewhere.message, `No webhook endpoint ${webhook.id} in this workspace.`)
          assert.strictEqual(nextOf(elsewhere.advice), "List the endpoints with GET /v1/webhooks.")
        })))

    it.effect("a URL that is not https, or whose host is not public, is refused and nothing is registered", () =>
      backend.withFixture(({ workspaceId }) =>
        Effect.gen(function*() {
          const endpoints = yield* WebhookEndpoints
          const refusals = [
            ["http://hooks.example.com/outreach", "httpsRequired"],
            ["ftp://hooks.example.com/outreach", "unsupportedScheme"],
            ["https://localhost/outreach", "localHostname"],
            ["https://127.0.0.1/outreach", "forbiddenAddress"],
            ["https://intranet.example.com/outreach", "forbiddenAddress"],
            ["https://nowhere.example.com/outreach", "unresolvable"],
            ["not a url", "invalidUrl"]
          ] as const
          for (const [url, reason] of refusals) {
            const refused = yield* Effect.flip(endpoints.create({ ...hook, workspaceId, url }))
            assert.strictEqual(refused._tag, "WebhookTargetRefused", url)
            assert.strictEqual(refused.reason, reason, url)
          }
          assert.deepStrictEqual(yield* endpoints.list(workspaceId), [])
        })))

    it.effect("endpoints are listed newest first", () =>
      backend.withFixture(({ workspaceId }) =>
        Effect.gen(function*() {
          const endpoints = yield* WebhookEndpoints
          const first = yield* endpoints.create({ ...hook, workspaceId })
          yield* TestClock.adjust("1 second")
          const second = yield* endpoints.create({ ...hook, workspaceId })
          yield* TestClock.adjust("1 second")
          const third = yield* endpoints.create({ ...hook, workspaceId })
          assert.deepStrictEqual((yield* endpoints.list(workspaceId)).map((webhook) => webhook.id), [
            third.webhook.id,
            second.webhook.id,
            first.webhook.id
          ])
        })))

    it.effect("a change sets what it names, vets a new URL and stamps the endpoint", () =>
      backend.withFixture(({ workspaceId, otherWorkspaceId }) =>
        Effect.gen(function*() {
          const endpoints = yield* WebhookEndpoints
          const { webhook } = yield* endpoints.create({ ...hook, workspaceId })
          yield* TestClock.adjust("1 minute")
          const now = yield* Time.now
          const disabled = yield* endpoints.update(workspaceId, webhook.id, { enabled: false, events: ["account.paused", "account.paused"] })
          assert.deepStrictEqual(disabled, { ...webhook, enabled: false, events: ["account.paused"], updatedAt: now.iso })
          const moved = yield* endpoints.update(workspaceId, webhook.id, { url: "https://hooks.example.com/v2", mode: "thin" })
          assert.deepStrictEqual(moved, { ...disabled, url: "https://hooks.example.com/v2", mode: "thin" })
          const refused = yield* Effect.flip(endpoints.update(workspaceId, webhook.id, { url: "https://intranet.example.com/x" }))
          assert.strictEqual(refused._tag, "WebhookTargetRefused")
          assert.deepStrictEqual(yield* endpoints.get(workspaceId, webhook.id), moved)
          assert.deepStrictEqual(yield* endpoints.update(workspaceId, webhook.id, {}), moved)
          assert.instanceOf(yield* Effect.flip(endpoints.update(otherWorkspaceId, webhook.id, { enabled: true })), Missing)
          assert.instanceOf(yield* Effect.flip(endpoints.update(workspaceId, crypto.randomUUID(), { enabled: true })), Missing)
          assert.isFalse((yield* endpoints.get(workspaceId, webhook.id)).enabled)
        })))

    it.effect("rotating gives a new secret and says until when the previous one signs", () =>
      backend.withFixture(({ workspaceId, otherWorkspaceId }) =>
        Effect.gen(function*() {
          const endpoints = yield* WebhookEndpoints
          const created = yield* endpoints.create({ ...hook, workspaceId })
          yield* TestClock.adjust("1 hour")
          const now = yield* Time.now
          const rotated = yield* endpoints.rotateSecret(workspaceId, created.webhook.id)
          assert.match(rotated.secret, /^whsec_[A-Za-z0-9+/]{43}=$/)
          assert.notStrictEqual(rotated.secret, created.secret)
          assert.deepStrictEqual(rotated.webhook, {
            ...created.webhook,
            updatedAt: now.iso,
            previousSecretExpiresAt: Time.toIso(now.ms + 24 * 3_600_000)
          })
          assert.deepStrictEqual(yield* endpoints.get(workspaceId, created.webhook.id), rotated.webhook)
          assert.instanceOf(yield* Effect.flip(endpoints.rotateSecret(otherWorkspaceId, created.webhook.id)), Missing)
        })))

    it.effect("a deleted endpoint is gone; deleting it again, or another workspace's, is not found", () =>
      backend.withFixture(({ workspaceId, otherWorkspaceId }) =>
        Effect.gen(function*() {
          const endpoints = yield* WebhookEndpoints
          const kept = yield* endpoints.create({ ...hook, workspaceId })
          const gone = yield* endpoints.create({ ...hook, workspaceId })
          assert.instanceOf(yield* Effect.flip(endpoints.remove(otherWorkspaceId, gone.webhook.id)), Missing)
          yield* endpoints.remove(workspaceId, gone.webhook.id)
          assert.deepStrictEqual(yield* endpoints.list(workspaceId), [kept.webhook])
          assert.instanceOf(yield* Effect.flip(endpoints.get(workspaceId, gone.webhook.id)), Missing)
          assert.instanceOf(yield* Effect.flip(endpoints.remove(workspaceId, gone.webhook.id)), Missing)
        })))

    it.effect("a new endpoint's history is empty; a delivery it does not have, or an unknown endpoint, is not found", () =>
      backend.withFixture(({ workspaceId, otherWorkspaceId }) =>
        Effect.gen(function*() {
          const endpoints = yield* WebhookEndpoints
          const { webhook } = yield* endpoints.create({ ...hook, workspaceId })
          assert.deepStrictEqual(yield* endpoints.deliveries(workspaceId, webhook.id), [])
          assert.instanceOf(yield* Effect.flip(endpoints.deliveries(otherWorkspaceId, webhook.id)), Missing)
          const deliveryId = crypto.randomUUID()
          const none = yield* Effect.flip(endpoints.delivery(workspaceId, webhook.id, deliveryId))
          assert.instanceOf(none, Missing)
          assert.strictEqual(none.message, `No delivery ${deliveryId} for webhook endpoint ${webhook.id}.`)
          assert.strictEqual(nextOf(none.advice), `List its deliveries with GET /v1/webhooks/${webhook.id}/deliveries.`)
          const unknown = yield* Effect.flip(endpoints.delivery(workspaceId, crypto.randomUUID(), deliveryId))
          assert.match(unknown.message, /^No webhook endpoint /)
        })))
  })
