import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import { call, layer as serverLayer, newWorkspace } from "../support/TestServer.ts"

layer(serverLayer())("GET /v1/me and authentication", (it) => {
  it.effect("answers exactly as the spec shows for an API key", () =>
    Effect.gen(function*() {
      const { keyValue, workspace } = yield* newWorkspace()
      const reply = yield* call("GET", "/v1/me", { token: keyValue })
      assert.strictEqual(reply.status, 200)
      assert.deepStrictEqual(reply.body, {
        ok: true,
        orgId: workspace.id,
        kind: "key",
        keyName: "Owner key",
        org: null,
        user: null
      })
      assert.strictEqual(reply.headers["ratelimit-limit"], "600")
      assert.strictEqual(reply.headers["ratelimit-remaining"], "599")
      assert.isDefined(reply.headers["ratelimit-reset"])
      assert.match(reply.headers["content-type"] ?? "", /^application\/json/)
      // The next request is answered with the same body and its own place in the window.
      const again = yield* call("GET", "/v1/me", { token: keyValue })
      assert.deepStrictEqual(again.body, reply.body)
      assert.strictEqual(again.headers["ratelimit-remaining"], "598")
      assert.strictEqual(again.headers["content-length"], reply.headers["content-length"])
    }))

  it.effect("describes the org and the person for a session", () =>
    Effect.gen(function*() {
      const { workspace } = yield* newWorkspace("Acme")
      const workspaces = yield* Workspaces
      const session = yield* workspaces.createSession({
        workspaceId: workspace.id,
        email: "ada@acme.test",
        name: "Ada",
        role: "admin"
      })
      const reply = yield* call("GET", "/v1/me", { token: session.token })
      assert.strictEqual(reply.status, 200)
      assert.strictEqual(reply.body.kind, "session")
      assert.strictEqual(reply.body.orgId, workspace.id)
      assert.deepStrictEqual(reply.body.org, {
        id: workspace.id,
        name: "Acme",
        seats: { total: 5 },
        network: "sandbox",
        createdAt: workspace.createdAt
      })
      assert.deepStrictEqual(reply.body.user, { id: session.userId, email: "ada@acme.test", name: "Ada", role: "admin" })
    }))

  describe("401 unauthorized", () => {
    const expect401 = (headers: Record<string, string>) =>
      Effect.gen(function*() {
        const reply = yield* call("GET", "/v1/me", { headers })
        assert.strictEqual(reply.status, 401)
        assert.strictEqual(reply.body.ok, false)
        assert.strictEqual(reply.body.error.type, "unauthorized")
        assert.isString(reply.body.error.message)
        assert.isString(reply.body.error.next)
        assert.deepStrictEqual(Object.keys(reply.body).sort(), ["error", "ok"])
        assert.deepStrictEqual(Object.keys(reply.body.error).sort(), ["message", "next", "type"])
        assert.strictEqual(reply.headers["ratelimit-limit"], "600")
        return reply
      })

    it.effect("when the header is missing", () =>
      Effect.gen(function*() {
        const reply = yield* expect401({})
        assert.include(reply.body.error.message, "no API key")
      }))

    it.effect("when the scheme is not Bearer", () => expect401({ authorization: "Basic dXNlcjpwYXNz" }))

    it.effect("when the key is unknown", () =>
      expect401({ authorization: "Bearer svc_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" }))

    it.effect("when the workspace is suspended", () =>
      Effect.gen(function*() {
        const { keyValue, workspace } = yield* newWorkspace()
        const workspaces = yield* Workspaces
        yield* workspaces.setStatus(workspace.id, "suspended")
        yield* expect401({ authorization: `Bearer ${keyValue}` })
        yield* workspaces.setStatus(workspace.id, "active")
        const reply = yield* call("GET", "/v1/me", { token: keyValue })
        assert.strictEqual(reply.status, 200)
      }))

    it.effect("when a session has expired", () =>
      Effect.gen(function*() {
        const { workspace } = yield* newWorkspace()
        const workspaces = yield* Workspaces
        const session = yield* workspaces.createSession({
          workspaceId: workspace.id,
          email: "old@acme.test",
          name: "Old",
          role: "owner",
          ttlHours: 0
        })
        yield* expect401({ authorization: `Bearer ${session.token}` })
      }))
  })
})
