/**
 * A stopping server keeps its port open: while a request in flight holds the
 * stop, a new connection is answered 503 `unavailable` with `retry-after`, as
 * the docs promise, instead of being refused.
 */
import { connect } from "node:net"
import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import { keyIn, send, startServer, storage } from "../support/Processes.ts"
import { backend } from "../support/TestDatabase.ts"

it.live(`SIGTERM: while requests in flight finish, new connections get 503 with retry-after (${backend})`, () =>
  Effect.gen(function*() {
    const env = yield* storage
    const server = yield* startServer(env)
    const key = keyIn(server.output())
    const port = Number(new URL(server.base).port)
    // A request in flight: half a body, so the stop waits for it.
    const socket = connect(port, "127.0.0.1")
    yield* Effect.callback<void>((resume) => {
      socket.once("connect", () => resume(Effect.void))
    })
    socket.write(`POST /v1/keys HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`)
    // Time for the server to take the request in, even on a busy machine (as test/process/Stop.test.ts).
    yield* Effect.sleep("1000 millis")
    server.child.kill("SIGTERM")
    for (let waited = 0; !server.output().includes("shutdown began"); waited += 50) {
      if (waited > 10_000) return assert.fail(`the stop did not begin:\n${server.output()}`)
      yield* Effect.sleep("50 millis")
    }
    const answer = yield* send("GET", `${server.base}/v1/me`, key)
    assert.strictEqual(answer.status, 503, JSON.stringify(answer.body))
    assert.strictEqual(answer.body.ok, false)
    assert.strictEqual(answer.body.error.type, "unavailable")
    assert.isNull(server.child.exitCode, "the request in flight holds the stop")
    const raw = yield* Effect.promise(() => fetch(`${server.base}/v1/me`, { headers: { authorization: `Bearer ${key}` } }))
    assert.strictEqual(raw.status, 503)
    assert.isString(raw.headers.get("retry-after"))
    socket.destroy()
  }), 90_000)
