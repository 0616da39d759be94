/**
 * The key routes' contract, fast: the service's own handlers (`http/KeysHandlers.ts`) behind the
 * contract's middleware, called with the typed client in memory (`HttpApiTest`), on the in-memory
 * `ApiKeys` and `ActivityLog` (held to the stored ones by `test/keys/KeysContract.ts`). Each test
 * checks status codes, the envelope and error types as the spec states them, bad input included.
 * The caller is a stand-in key (an owner's, or an admin's); who may call these routes at all is
 * the gate's, tested with the whole service (`test/http/Keys.test.ts`).
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { HttpApiTest } from "effect/http-api"
import * as ActivityMemory from "../../src/activity/ActivityMemory.ts"
import { ActivityLog } from "../../src/activity/ActivityLog.ts"
import { Api } from "../../src/api/Api.ts"
import type { Authentication } from "../../src/api/Security.ts"
import { KeysHandlers } from "../../src/http/KeysHandlers.ts"
import { ApiKeys } from "../../src/keys/ApiKeys.ts"
import * as KeysMemory from "../../src/keys/KeysMemory.ts"
import { callerAs, callerKeyId, callerWorkspaceId } from "../support/AnyCaller.ts"
import { assertEnvelope, inMemory, read, sending } from "../support/RouteCalls.ts"

/** The key handlers on fresh in-memory keys, whose `ApiKeys` and `ActivityLog` the tests read too. */
const keysFor = (caller: Layer.Layer<Authentication>) =>
  inMemory(KeysHandlers.pipe(Layer.provideMerge(KeysMemory.layer), Layer.provideMerge(ActivityMemory.layer)), caller)

const client = HttpApiTest.groups(Api, ["keys"])

layer(keysFor(callerAs("owner")))("the key routes in memory, as an owner key", (it) => {
  it.effect("POST /v1/keys answers 201 with the key and its value, once; GET /v1/keys lists it without the value", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const [created, response] = yield* api.keys.create({ payload: { name: "CRM sync" }, responseMode: "decoded-and-response" })
      assert.strictEqual(response.status, 201)
      assert.isTrue(created.ok)
      assert.match(created.value, /^svc_[A-Za-z0-9_-]{43}$/)
      assert.strictEqual(created.key.name, "CRM sync")
      assert.strictEqual(created.key.prefix, created.value.slice(0, 12))
      // Made by an owner key without a role: an owner key.
      assert.strictEqual(created.key.role, "owner")
      assert.isNull(created.key.revokedAt)
      const [listed, listResponse] = yield* api.keys.list({ responseMode: "decoded-and-response" })
      assert.strictEqual(listResponse.status, 200)
      assert.isTrue(listed.ok)
      assert.deepInclude(listed.keys, created.key)
      const raw = yield* read(yield* api.keys.list({ responseMode: "response-only" }))
      assert.notInclude(JSON.stringify(raw.body), created.value)
      const member = yield* api.keys.create({ payload: { name: "Assistant", role: "read_only" } })
      assert.strictEqual(member.key.role, "read_only")
      // Recorded as the calling key's doing.
      const log = yield* (yield* ActivityLog).list(callerWorkspaceId, { limit: 1 })
      assert.strictEqual(log.entries[0]?.actor, `key:${callerKeyId}`)
      assert.strictEqual(log.entries[0]?.summary, "created the read-only API key \"Assistant\"")
    })))

  it.effect("POST /v1/keys/{id}/revoke answers the key revoked; revoking it again changes nothing", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const created = yield* api.keys.create({ payload: { name: "to revoke" } })
      const [revoked, response] = yield* api.keys.revoke({ params: { id: created.key.id }, responseMode: "decoded-and-response" })
      assert.strictEqual(response.status, 200)
      assert.isTrue(revoked.ok)
      assert.isString(revoked.key.revokedAt)
      assert.deepStrictEqual(revoked.key, { ...created.key, revokedAt: revoked.key.revokedAt })
      const again = yield* api.keys.revoke({ params: { id: created.key.id } })
      assert.deepStrictEqual(again.key, revoked.key)
    })))

  it.effect("revoking an unknown key, or another workspace's, is 404 notFound", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const unknown = yield* api.keys.revoke({ params: { id: crypto.randomUUID() }, responseMode: "response-only" })
      const error = assertEnvelope(yield* read(unknown), 404, "notFound")
      assert.strictEqual(error.next, "List the workspace's keys with GET /v1/keys.")
      const elsewhere = crypto.randomUUID()
      const foreign = yield* (yield* ApiKeys).create({ workspaceId: elsewhere, name: "elsewhere" })
      assertEnvelope(yield* read(yield* api.keys.revoke({ params: { id: foreign.key.id }, responseMode: "response-only" })), 404, "notFound")
      assert.deepStrictEqual(yield* (yield* ApiKeys).list(elsewhere), [foreign.key])
      const typed = yield* Effect.flip(api.keys.revoke({ params: { id: foreign.key.id } }))
      assert.strictEqual(typed._tag, "NotFound")
    })))

  it.effect("a key name missing, empty, padded, too long or not a string, or an unknown role, is 400 naming the field", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const create = api.keys.create({ payload: { name: "placeholder" }, responseMode: "response-only" })
      for (const body of [{}, { name: "" }, { name: " CRM" }, { name: "x".repeat(81) }, { name: 42 }, null, "CRM sync"]) {
        const error = assertEnvelope(yield* read(yield* create.pipe(sending({ body }))), 400, "badRequest")
        assert.include(error.message, "body", JSON.stringify(body))
      }
      for (const body of [{}, { name: "" }, { name: "x".repeat(81) }, { name: 42 }]) {
        assert.include(assertEnvelope(yield* read(yield* create.pipe(sending({ body }))), 400, "badRequest").message, "body.name")
      }
      const role = assertEnvelope(yield* read(yield* create.pipe(sending({ body: { name: "x", role: "superuser" } }))), 400, "badRequest")
      assert.include(role.message, "body.role")
      assert.deepStrictEqual((yield* api.keys.list()).keys.filter((key) => key.name === "x"), [])
    })))

  it.effect("a key id that is not a uuid is 400", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const revoke = api.keys.revoke({ params: { id: crypto.randomUUID() }, responseMode: "response-only" })
      const error = assertEnvelope(yield* read(yield* revoke.pipe(sending({ path: "/v1/keys/not-a-key/revoke" }))), 400, "badRequest")
      assert.include(error.message, "id")
    })))
})

layer(keysFor(callerAs("admin")))("the key routes in memory, as an admin key", (it) => {
  it.effect("an admin key makes admin keys by default and weaker ones on request; an owner key is 403 notAllowed", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      assert.strictEqual((yield* api.keys.create({ payload: { name: "helper" } })).key.role, "admin")
      assert.strictEqual((yield* api.keys.create({ payload: { name: "crm", role: "member" } })).key.role, "member")
      const owner = yield* api.keys.create({ payload: { name: "escalate", role: "owner" }, responseMode: "response-only" })
      const error = assertEnvelope(yield* read(owner), 403, "notAllowed")
      assert.include(error.message, "never stronger")
      assert.include(error.next, "Choose the admin role or a weaker one")
      assert.strictEqual((yield* Effect.flip(api.keys.create({ payload: { name: "escalate", role: "owner" } })))._tag, "NotAllowed")
      assert.deepStrictEqual((yield* api.keys.list()).keys.map((key) => key.name).sort(), ["crm", "helper"])
    })))
})
