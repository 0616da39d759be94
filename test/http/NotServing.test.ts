import type { AddressInfo } from "node:net"
import { assert, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import * as Server from "../../src/Server.ts"

/** A Node server as the service builds it, listening on a free port, closed with the scope. */
const listening = Effect.acquireRelease(
  Effect.callback<ReturnType<ReturnType<typeof Server.nodeServer>>>((resume) => {
    const server = Server.nodeServer(() => 0)()
    server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
  }),
  (server) => Effect.callback<void>((resume) => {
    server.closeAllConnections()
    server.close(() => resume(Effect.void))
  })
)

const get = (server: { address: () => string | AddressInfo | null }, path: string) =>
  Effect.promise(async () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(5_000) })
    return { status: response.status, headers: response.headers, body: (await response.json()) as unknown }
  })

it.live("a request that comes before the routes are served is answered 503 in the envelope, not held open", () =>
  Effect.gen(function*() {
    const server = yield* listening
    const answer = yield* get(server, "/healthz")
    assert.strictEqual(answer.status, 503)
    assert.strictEqual(answer.headers.get("retry-after"), "1")
    assert.strictEqual(answer.headers.get("ratelimit-limit"), "600")
    const envelope = Schema.decodeUnknownSync(Schema.Struct({
      ok: Schema.Literal(false),
      error: Schema.Struct({ type: Schema.String, message: Schema.String, next: Schema.String })
    }))(answer.body)
    assert.strictEqual(envelope.error.type, "unavailable")
  }).pipe(Effect.scoped))

it.live("once the routes are served, they alone answer", () =>
  Effect.gen(function*() {
    const server = yield* listening
    server.on("request", (_request, response) => response.writeHead(200).end(JSON.stringify({ ok: true })))
    const answer = yield* get(server, "/healthz")
    assert.strictEqual(answer.status, 200)
    assert.deepStrictEqual(answer.body, { ok: true })
  }).pipe(Effect.scoped))
