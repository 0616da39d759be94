import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Draining } from "../../src/http/Draining.ts"
import { call, layer as serverLayer, newWorkspace } from "../support/TestServer.ts"

layer(serverLayer())("while the service stops", (it) => {
  it.effect("every answer is 503 unavailable in the envelope, with retry-after, and closes its connection", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      assert.strictEqual((yield* call("GET", "/v1/me", { token: keyValue })).status, 200)
      yield* (yield* Draining).begin
      for (const [method, path] of [["GET", "/v1/me"], ["POST", "/v1/keys"], ["GET", "/healthz"], ["GET", "/nowhere"]] as const) {
        const reply = yield* call(method, path, { token: keyValue, ...(method === "POST" ? { body: { name: "x" } } : {}) })
        assert.strictEqual(reply.status, 503, `${method} ${path}`)
        assert.deepStrictEqual(Object.keys(reply.body).sort(), ["error", "ok"])
        assert.strictEqual(reply.body.error.type, "unavailable")
        assert.strictEqual(reply.headers["retry-after"], "5")
        assert.strictEqual(reply.headers["connection"], "close")
      }
    }))
})
