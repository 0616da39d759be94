import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import { call, layer as serverLayer, newWorkspace } from "../support/TestServer.ts"

layer(serverLayer())("API keys", (it) => {
  it.effect("creates a key whose value is shown once and only a hash is kept", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const created = yield* call("POST", "/v1/keys", { token: keyValue, body: { name: "CRM sync" } })
      assert.strictEqual(created.status, 201)
      assert.strictEqual(created.body.ok, true)
      const value: string = created.body.value
      assert.match(value, /^svc_[A-Za-z0-9_-]{43}$/)
      assert.deepStrictEqual(Object.keys(created.body.key).sort(), [
        "createdAt",
        "id",
        "lastUsedAt",
        "name",
        "prefix",
        "revokedAt",
        "role"
      ])
      // Made by an owner key without a role: an owner key, as keys always were.
      assert.strictEqual(created.body.key.role, "owner")
      assert.strictEqual(created.body.key.prefix, value.slice(0, 12))
      assert.strictEqual(created.body.key.name, "CRM sync")

      const listed = yield* call("GET", "/v1/keys", { token: keyValue })
      assert.strictEqual(listed.status, 200)
      assert.strictEqual(listed.body.keys.length, 2)
      assert.notInclude(JSON.stringify(listed.body), value)

      const me = yield* call("GET", "/v1/me", { token: value })
      assert.strictEqual(me.status, 200)
      assert.strictEqual(me.body.keyName, "CRM sync")
      const after = yield* call("GET", "/v1/keys", { token: value })
      const used = after.body.keys.find((k: { id: string }) => k.id === created.body.key.id)
      assert.isString(used.lastUsedAt)
    }))

  it.effect("a key gets the role it is made with, never a stronger one than its maker's", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const admin = yield* call("POST", "/v1/keys", { token: keyValue, body: { name: "ops", role: "admin" } })
      assert.strictEqual(admin.status, 201)
      assert.strictEqual(admin.body.key.role, "admin")
      // An admin key makes admin keys by default, and weaker ones on request; never an owner key.
      const byAdmin = yield* call("POST", "/v1/keys", { token: admin.body.value, body: { name: "helper" } })
      assert.strictEqual(byAdmin.body.key.role, "admin")
      const assistant = yield* call("POST", "/v1/keys", { token: admin.body.value, body: { name: "assistant", role: "read_only" } })
      assert.strictEqual(assistant.body.key.role, "read_only")
      const owner = yield* call("POST", "/v1/keys", { token: admin.body.value, body: { name: "escalate", role: "owner" } })
      assert.strictEqual(owner.status, 403)
      assert.strictEqual(owner.body.error.type, "notAllowed")
      assert.include(owner.body.error.message, "never stronger")
      const bad = yield* call("POST", "/v1/keys", { token: keyValue, body: { name: "x", role: "superuser" } })
      assert.strictEqual(bad.status, 400)
      // The list shows each key's role.
      const listed = yield* call("GET", "/v1/keys", { token: keyValue })
      assert.deepStrictEqual(
        listed.body.keys.map((k: { name: string; role: string }) => `${k.name}:${k.role}`).sort(),
        ["Owner key:owner", "assistant:read_only", "helper:admin", "ops:admin"]
      )
    }))

  it.effect("revocation takes effect on the very next request", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const created = yield* call("POST", "/v1/keys", { token: keyValue, body: { name: "to revoke" } })
      const value: string = created.body.value
      assert.strictEqual((yield* call("GET", "/v1/me", { token: value })).status, 200)

      const revoked = yield* call("POST", `/v1/keys/${created.body.key.id}/revoke`, { token: keyValue })
      assert.strictEqual(revoked.status, 200)
      assert.isString(revoked.body.key.revokedAt)

      const next = yield* call("GET", "/v1/me", { token: value })
      assert.strictEqual(next.status, 401)
      assert.strictEqual(next.body.error.type, "unauthorized")

      const again = yield* call("POST", `/v1/keys/${created.body.key.id}/revoke`, { token: keyValue })
      assert.strictEqual(again.status, 200)
      assert.strictEqual(again.body.key.revokedAt, revoked.body.key.revokedAt)
    }))

  it.effect("a key can revoke itself", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const keys = yield* call("GET", "/v1/keys", { token: keyValue })
      const own = yield* call("POST", `/v1/keys/${keys.body.keys[0].id}/revoke`, { token: keyValue })
      assert.strictEqual(own.status, 200)
      assert.strictEqual((yield* call("GET", "/v1/keys", { token: keyValue })).status, 401)
    }))

  it.effect("keys of another workspace are not found", () =>
    Effect.gen(function*() {
      const a = yield* newWorkspace("A")
      const b = yield* newWorkspace("B")
      const bKeys = yield* call("GET", "/v1/keys", { token: b.keyValue })
      const reply = yield* call("POST", `/v1/keys/${bKeys.body.keys[0].id}/revoke`, { token: a.keyValue })
      assert.strictEqual(reply.status, 404)
      assert.strictEqual(reply.body.error.type, "notFound")
      assert.strictEqual((yield* call("GET", "/v1/me", { token: b.keyValue })).status, 200)
    }))

  it.effect("rejects bad key names naming the field", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      for (const body of [{}, { name: "" }, { name: "x".repeat(81) }, { name: 42 }]) {
        const reply = yield* call("POST", "/v1/keys", { token: keyValue, body })
        assert.strictEqual(reply.status, 400, JSON.stringify(body))
        assert.strictEqual(reply.body.error.type, "badRequest")
        assert.include(reply.body.error.message, "body.name")
      }
    }))

  it.effect("members may not manage keys: 403 notAllowed", () =>
    Effect.gen(function*() {
      const { workspace } = yield* newWorkspace()
      const workspaces = yield* Workspaces
      const member = yield* workspaces.createSession({
        workspaceId: workspace.id,
        email: "m@acme.test",
        name: "Member",
        role: "member"
      })
      for (const [method, path, body] of [["GET", "/v1/keys", undefined], ["POST", "/v1/keys", { name: "x" }]] as const) {
        const reply = yield* call(method, path, { token: member.token, body })
        assert.strictEqual(reply.status, 403)
        assert.strictEqual(reply.body.error.type, "notAllowed")
      }
      assert.strictEqual((yield* call("GET", "/v1/me", { token: member.token })).status, 200)
      const admin = yield* workspaces.createSession({
        workspaceId: workspace.id,
        email: "a@acme.test",
        name: "Admin",
        role: "admin"
      })
      assert.strictEqual((yield* call("GET", "/v1/keys", { token: admin.token })).status, 200)
    }))
})
