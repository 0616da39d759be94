/**
 * The webhook routes' contract, fast: the service's own handlers (`http/WebhooksHandlers.ts`)
 * behind the contract's middleware, called with the typed client in memory (`HttpApiTest`), on the
 * in-memory `WebhookEndpoints` (held to the stored ones by `test/webhooks/EndpointsContract.ts`).
 * Each test checks status codes, the envelope and error types as the spec states them, bad input
 * included.
 *
 * Sending is the dispatcher's, on the network: the test event and a resend are tested with the
 * whole service (`test/webhooks/Webhooks.test.ts`). Here {@link sendsNothing} answers them only for
 * what is not there, as the dispatcher does: an unknown endpoint, a delivery the endpoint lacks.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { HttpApiTest } from "effect/http-api"
import { Api } from "../../src/api/Api.ts"
import { WebhooksHandlers } from "../../src/http/WebhooksHandlers.ts"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import { WebhookDispatcher } from "../../src/webhooks/Dispatcher.ts"
import { WebhookEndpoints } from "../../src/webhooks/Endpoints.ts"
import * as EndpointsMemory from "../../src/webhooks/EndpointsMemory.ts"
import { resolver } from "../webhooks/EndpointsContract.ts"
import { assertEnvelope, inMemory, read, sending } from "../support/RouteCalls.ts"

/** A dispatcher that finds what it is asked to send (as the stored one does first), and sends nothing: no endpoint here has a delivery. */
const sendsNothing = Layer.effect(
  WebhookDispatcher,
  Effect.gen(function*() {
    const endpoints = yield* WebhookEndpoints
    const notHere = Effect.die(new Error("sending is the dispatcher's, tested with the whole service"))
    return WebhookDispatcher.of({
      wake: Effect.void,
      runOnce: Effect.void,
      resend: endpoints.delivery,
      sendTest: (workspaceId, endpointId) => Effect.andThen(endpoints.get(workspaceId, endpointId), notHere)
    })
  })
)

const services = inMemory(
  WebhooksHandlers.pipe(
    Layer.provide(sendsNothing),
    Layer.provideMerge(EndpointsMemory.layer),
    Layer.provide([AppConfig.layerWith({}), resolver])
  )
)

const client = HttpApiTest.groups(Api, ["webhooks"])

const register = { payload: { url: "https://hooks.example.com/outreach", events: ["job.completed"], mode: "thin" } } as const

layer(services)("the webhook routes in memory", (it) => {
  it.effect("POST /v1/webhooks answers 201 with the endpoint and its secret, once; list, get, patch and delete it", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const [created, response] = yield* api.webhooks.create({ ...register, responseMode: "decoded-and-response" })
      assert.strictEqual(response.status, 201)
      assert.isTrue(created.ok)
      assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{43}=$/)
      const { webhook } = created
      assert.deepInclude(webhook, { url: "https://hooks.example.com/outreach", events: ["job.completed"], mode: "thin", enabled: true })
      const defaults = yield* api.webhooks.create({ payload: { url: "https://hooks.example.com/all" } })
      assert.deepInclude(defaults.webhook, { events: [], mode: "fat" })
      const listed = yield* api.webhooks.list()
      assert.deepStrictEqual(listed.webhooks.map((shown) => shown.id).sort(), [webhook.id, defaults.webhook.id].sort())
      assert.notInclude(JSON.stringify(listed), created.secret)
      const [got, getResponse] = yield* api.webhooks.get({ params: { id: webhook.id }, responseMode: "decoded-and-response" })
      assert.strictEqual(getResponse.status, 200)
      assert.deepStrictEqual(got.webhook, webhook)
      const patched = yield* api.webhooks.update({ params: { id: webhook.id }, payload: { enabled: false, mode: "fat" } })
      assert.deepInclude(patched.webhook, { enabled: false, mode: "fat", events: ["job.completed"] })
      const [deleted, deleteResponse] = yield* api.webhooks.delete({ params: { id: webhook.id }, responseMode: "decoded-and-response" })
      assert.strictEqual(deleteResponse.status, 200)
      assert.deepStrictEqual(deleted, { ok: true, id: webhook.id, deleted: true })
      assertEnvelope(yield* read(yield* api.webhooks.get({ params: { id: webhook.id }, responseMode: "response-only" })), 404, "notFound")
    })))

  it.effect("rotate-secret answers a new secret and the previous one's expiry; deliveries start empty", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const created = yield* api.webhooks.create(register)
      const rotated = yield* api.webhooks.rotateSecret({ params: { id: created.webhook.id } })
      assert.notStrictEqual(rotated.secret, created.secret)
      assert.isString(rotated.webhook.previousSecretExpiresAt)
      const history = yield* api.webhooks.deliveries({ params: { id: created.webhook.id } })
      assert.deepStrictEqual(history, { ok: true, deliveries: [] })
    })))

  it.effect("an unknown endpoint is 404 notFound on every route, and so is a delivery it does not have", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const params = { id: crypto.randomUUID() }
      const answers = [
        yield* api.webhooks.get({ params, responseMode: "response-only" }),
        yield* api.webhooks.update({ params, payload: { enabled: true }, responseMode: "response-only" }),
        yield* api.webhooks.delete({ params, responseMode: "response-only" }),
        yield* api.webhooks.rotateSecret({ params, responseMode: "response-only" }),
        yield* api.webhooks.deliveries({ params, responseMode: "response-only" }),
        yield* api.webhooks.test({ params, responseMode: "response-only" }),
        yield* api.webhooks.resend({ params: { ...params, deliveryId: crypto.randomUUID() }, responseMode: "response-only" })
      ]
      for (const answer of answers) {
        assert.strictEqual(assertEnvelope(yield* read(answer), 404, "notFound").next, "List the endpoints with GET /v1/webhooks.")
      }
      const created = yield* api.webhooks.create(register)
      const deliveryId = crypto.randomUUID()
      const resend = yield* api.webhooks.resend({ params: { id: created.webhook.id, deliveryId }, responseMode: "response-only" })
      const error = assertEnvelope(yield* read(resend), 404, "notFound")
      assert.strictEqual(error.next, `List its deliveries with GET /v1/webhooks/${created.webhook.id}/deliveries.`)
      assert.strictEqual((yield* Effect.flip(api.webhooks.get({ params })))._tag, "NotFound")
    })))

  it.effect("a URL that is not https or not public is 422 unprocessable, with what to do", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const refusedCreate = (url: string) => api.webhooks.create({ payload: { url }, responseMode: "response-only" })
      const http = assertEnvelope(yield* read(yield* refusedCreate("http://hooks.example.com/outreach")), 422, "unprocessable")
      assert.include(http.message, "The webhook URL was refused (httpsRequired)")
      assert.include(http.next, "OUTREACH_ALLOW_PRIVATE_WEBHOOKS=true")
      const unresolvable = assertEnvelope(yield* read(yield* refusedCreate("https://nowhere.example.com/x")), 422, "unprocessable")
      assert.strictEqual(unresolvable.next, "Use an https URL whose host resolves only to public addresses.")
      assertEnvelope(yield* read(yield* refusedCreate("https://intranet.example.com/x")), 422, "unprocessable")
      const created = yield* api.webhooks.create(register)
      const moved = yield* api.webhooks.update({ params: { id: created.webhook.id }, payload: { url: "https://localhost/x" }, responseMode: "response-only" })
      assertEnvelope(yield* read(moved), 422, "unprocessable")
      assert.deepStrictEqual((yield* api.webhooks.get({ params: { id: created.webhook.id } })).webhook, created.webhook)
      assert.strictEqual((yield* Effect.flip(api.webhooks.create({ payload: { url: "http://hooks.example.com/x" } })))._tag, "Unprocessable")
    })))

  it.effect("a body or id the contract does not accept is 400 naming the field", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const create = api.webhooks.create({ ...register, responseMode: "response-only" })
      const badBodies: ReadonlyArray<readonly [unknown, string]> = [
        [{}, "body.url"],
        [{ url: "" }, "body.url"],
        [{ url: `https://hooks.example.com/${"x".repeat(2048)}` }, "body.url"],
        [{ url: "https://hooks.example.com/x", events: ["job.exploded"] }, "body.events"],
        [{ url: "https://hooks.example.com/x", mode: "medium" }, "body.mode"],
        [{ url: 42 }, "body.url"]
      ]
      for (const [body, field] of badBodies) {
        assert.include(assertEnvelope(yield* read(yield* create.pipe(sending({ body }))), 400, "badRequest").message, field, JSON.stringify(body))
      }
      const created = yield* api.webhooks.create(register)
      const update = api.webhooks.update({ params: { id: created.webhook.id }, payload: {}, responseMode: "response-only" })
      const notBoolean = assertEnvelope(yield* read(yield* update.pipe(sending({ body: { enabled: "no" } }))), 400, "badRequest")
      assert.include(notBoolean.message, "body.enabled")
      const get = api.webhooks.get({ params: { id: created.webhook.id }, responseMode: "response-only" })
      assertEnvelope(yield* read(yield* get.pipe(sending({ path: "/v1/webhooks/not-an-id" }))), 400, "badRequest")
      assert.deepStrictEqual((yield* api.webhooks.get({ params: { id: created.webhook.id } })).webhook, created.webhook)
    })))
})
