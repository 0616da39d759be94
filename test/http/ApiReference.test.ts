import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, layer as serverLayer } from "../support/TestServer.ts"

layer(serverLayer())("a readable API reference", (it) => {
  it.effect("/docs renders the document with a viewer served by the service itself, and / leads there", () =>
    Effect.gen(function*() {
      const docs = yield* call("GET", "/docs")
      assert.strictEqual(docs.status, 200)
      assert.include(docs.headers["content-type"], "text/html")
      assert.include(docs.body, "Scalar.createApiReference")
      assert.include(docs.body, "Outreach Service API")
      // No CDN: no script is loaded from anywhere else.
      assert.notMatch(docs.body, /<script[^>]+src=/)
      assert.isAbove(docs.body.length, 1_000_000)
      const root = yield* call("GET", "/")
      // The client follows the redirect: / ends at the reference.
      assert.strictEqual(root.status, 200)
      assert.include(root.body, "Scalar.createApiReference")
    }))
})
