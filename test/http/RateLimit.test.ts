import { assert, layer } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { TestClock } from "effect/testing"
import { call, layer as serverLayer, newWorkspace } from "../support/TestServer.ts"

// Moves the test clock (shared with the server) to the start of the next calendar minute.
const startOfNextMinute = Effect.flatMap(
  Clock.currentTimeMillis,
  (now) => TestClock.adjust(60_000 - (now % 60_000))
)

layer(serverLayer())("rate limit: 600 requests per credential per calendar minute", (it) => {
  it.effect("the 601st request is 429 with headers, another key is unaffected, and the next minute resets", () =>
    Effect.gen(function*() {
      // Start 10 s into a calendar minute, so the window ends 50 s later.
      yield* startOfNextMinute
      yield* TestClock.adjust("10 seconds")
      const a = yield* newWorkspace("A")
      const b = yield* newWorkspace("B")

      for (let i = 1; i <= 600; i++) {
        const reply = yield* call("GET", "/v1/me", { token: a.keyValue })
        if (reply.status !== 200) assert.fail(`request ${i} answered ${reply.status}`)
        if (i === 600) assert.strictEqual(reply.headers["ratelimit-remaining"], "0")
      }
      const limited = yield* call("GET", "/v1/me", { token: a.keyValue })
      assert.strictEqual(limited.status, 429)
      assert.strictEqual(limited.body.ok, false)
      assert.strictEqual(limited.body.error.type, "rateLimited")
      assert.include(limited.body.error.next, "50 seconds")
      assert.strictEqual(limited.headers["retry-after"], "50")
      assert.strictEqual(limited.headers["ratelimit-limit"], "600")
      assert.strictEqual(limited.headers["ratelimit-remaining"], "0")
      assert.strictEqual(limited.headers["ratelimit-reset"], "50")

      const other = yield* call("GET", "/v1/me", { token: b.keyValue })
      assert.strictEqual(other.status, 200)
      assert.strictEqual(other.headers["ratelimit-remaining"], "599")

      yield* TestClock.adjust("49 seconds")
      assert.strictEqual((yield* call("GET", "/v1/me", { token: a.keyValue })).status, 429)
      yield* TestClock.adjust("1 second")
      const reset = yield* call("GET", "/v1/me", { token: a.keyValue })
      assert.strictEqual(reset.status, 200)
      assert.strictEqual(reset.headers["ratelimit-remaining"], "599")
      assert.strictEqual(reset.headers["ratelimit-reset"], "60")
    }), { timeout: 120_000 })

  it.effect("requests without a valid key are counted per client address, apart from keys", () =>
    Effect.gen(function*() {
      yield* startOfNextMinute
      const first = yield* call("GET", "/v1/me")
      assert.strictEqual(first.status, 401)
      assert.strictEqual(first.headers["ratelimit-remaining"], "599")
      const second = yield* call("GET", "/v1/me", { headers: { authorization: "Bearer svc_unknown" } })
      assert.strictEqual(second.headers["ratelimit-remaining"], "598")
      const openapi = yield* call("GET", "/openapi.json")
      assert.strictEqual(openapi.status, 200)
      assert.strictEqual(openapi.headers["ratelimit-remaining"], "597")
      const { keyValue } = yield* newWorkspace()
      const keyed = yield* call("GET", "/v1/me", { token: keyValue })
      assert.strictEqual(keyed.headers["ratelimit-remaining"], "599")
    }))
})
