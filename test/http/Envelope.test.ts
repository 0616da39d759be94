import { assert, layer } from "@effect/vitest"
import { Deferred, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { HttpRouter } from "effect/http"
import { serverDatabaseUrl } from "../support/TestDatabase.ts"
import { call, layer as serverLayer, newWorkspace, type Reply } from "../support/TestServer.ts"

const kaboom = HttpRouter.add("GET", "/test/defect", Effect.die(new Error("kaboom: secret internals")))

const assertEnvelope = (reply: Reply, status: number, type: string) => {
  assert.strictEqual(reply.status, status, JSON.stringify(reply.body))
  assert.deepStrictEqual(Object.keys(reply.body).sort(), ["error", "ok"])
  assert.strictEqual(reply.body.ok, false)
  assert.strictEqual(reply.body.error.type, type)
  assert.isNotEmpty(reply.body.error.message)
  assert.isNotEmpty(reply.body.error.next)
  assert.strictEqual(reply.headers["content-type"], "application/json")
  assert.strictEqual(reply.headers["ratelimit-limit"], "600")
}

layer(serverLayer({ maxBodyBytes: 4096 }, kaboom))("every failure is answered in the envelope", (it) => {
  it.effect("malformed JSON: 400 badRequest", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const reply = yield* call("POST", "/v1/keys", {
        token: keyValue,
        raw: { text: "{\"name\": ", contentType: "application/json" }
      })
      assertEnvelope(reply, 400, "badRequest")
      assert.include(reply.body.error.message, "JSON")
    }))

  it.effect("a bad path parameter: 400 naming it", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const reply = yield* call("POST", "/v1/keys/not-a-uuid/revoke", { token: keyValue })
      assertEnvelope(reply, 400, "badRequest")
      assert.include(reply.body.error.message, "path.id")
    }))

  it.effect("every bad field is named at once", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const reply = yield* call("POST", "/v1/keys", { token: keyValue, body: { name: 7, extra: true } })
      assertEnvelope(reply, 400, "badRequest")
      assert.include(reply.body.error.message, "body.name")
    }))

  it.effect("an unsupported content type: 415", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const reply = yield* call("POST", "/v1/keys", {
        token: keyValue,
        raw: { text: "name=x", contentType: "text/plain" }
      })
      assertEnvelope(reply, 415, "unsupportedMediaType")
    }))

  it.effect("an oversized body: 413", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const reply = yield* call("POST", "/v1/keys", { token: keyValue, body: { name: "x".repeat(10_000) } })
      assertEnvelope(reply, 413, "payloadTooLarge")
    }))

  it.effect("an unknown route: 404 notFound", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      assertEnvelope(yield* call("GET", "/v1/nothing-here", { token: keyValue }), 404, "notFound")
      assertEnvelope(yield* call("GET", "/nothing-here", {}), 404, "notFound")
    }))

  it.effect("a wrong method: 405 with allow", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const reply = yield* call("DELETE", "/v1/me", { token: keyValue })
      assertEnvelope(reply, 405, "methodNotAllowed")
      assert.strictEqual(reply.headers["allow"], "GET")
      const keys = yield* call("PUT", "/v1/keys", { token: keyValue, body: {} })
      assertEnvelope(keys, 405, "methodNotAllowed")
      assert.strictEqual(keys.headers["allow"], "GET, POST")
    }))

  it.effect("a defect: 500 internal, with no stack or internals in the body", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/test/defect")
      assertEnvelope(reply, 500, "internal")
      const text = JSON.stringify(reply.body)
      assert.notInclude(text, "kaboom")
      assert.notInclude(text, "at ")
    }))

  it.effect("the health check needs no key and carries no rate-limit headers", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/healthz")
      assert.strictEqual(reply.status, 200)
      assert.deepStrictEqual(reply.body, { ok: true, status: "up", database: "up" })
      assert.isUndefined(reply.headers["ratelimit-limit"])
    }))

  // PGlite has one connection: a transaction that holds it leaves the probe unanswered. The service's
  // clock here is a test clock that does not move: the probe's 2 s count in real time all the same.
  it.effect.skipIf(serverDatabaseUrl !== undefined)("the health check answers 503 in seconds when the database does not answer, whatever the service's clock", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const release = yield* Deferred.make<void>()
      const holding = yield* Deferred.make<void>()
      yield* sql.withTransaction(Deferred.succeed(holding, undefined).pipe(Effect.andThen(Deferred.await(release)))).pipe(Effect.forkChild)
      yield* Deferred.await(holding)
      const reply = yield* call("GET", "/healthz")
      yield* Deferred.succeed(release, undefined)
      assert.strictEqual(reply.status, 503, JSON.stringify(reply.body))
      assert.deepStrictEqual(reply.body, {
        ok: false,
        error: { type: "unavailable", message: "The database does not answer.", next: "Retry in a few seconds." }
      })
    }), 20_000)
})
