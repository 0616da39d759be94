import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { checkUrl } from "../../src/webhooks/AddressGuard.ts"
import { connectionPool, deliver, responseKeptBytes } from "../../src/webhooks/SafeTransport.ts"
import { verifyWebhook, webhookHeaders } from "../../src/webhooks/Signature.ts"

interface Received {
  readonly method: string
  readonly path: string
  readonly headers: http.IncomingHttpHeaders
  readonly body: string
  /** The client's end of the connection it came on. */
  readonly connection: string
}

/** A receiver on 127.0.0.1 with one route per behaviour, closed when the test's scope ends. */
const receiver = Effect.acquireRelease(
  Effect.callback<{ readonly port: number; readonly received: Array<Received>; readonly server: http.Server }>(
    (resume) => {
      const received: Array<Received> = []
      const server = http.createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (chunk: Buffer) => chunks.push(chunk))
        req.on("end", () => {
          received.push({
            method: req.method ?? "",
            path: req.url ?? "",
            headers: req.headers,
            body: Buffer.concat(chunks).toString("utf8"),
            connection: `${req.socket.remoteAddress}:${req.socket.remotePort}`
          })
          switch (new URL(req.url ?? "/", "http://receiver").pathname) {
            case "/ok":
              res.writeHead(204).end()
              return
            case "/fail":
              res.writeHead(500, { "content-type": "text/plain" }).end("boom")
              return
            case "/redirect":
              res.writeHead(302, { location: "/ok" }).end()
              return
            case "/big":
              // Past what is worth draining: the status still counts, the socket is dropped.
              res.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(256 * 1024))
              return
            case "/odd":
              // UTF-8, a NUL, then a byte that is no UTF-8.
              res.writeHead(400).end(Buffer.from([0x61, 0xc3, 0xa9, 0x00, 0x62, 0xff]))
              return
            case "/slow":
              return // never answers
            default:
              res.writeHead(404).end()
          }
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const address: AddressInfo | string | null = server.address()
        const port = typeof address === "object" && address !== null ? address.port : 0
        resume(Effect.succeed({ port, received, server }))
      })
    }
  ),
  ({ server }) =>
    Effect.callback<void>((resume) => {
      server.closeAllConnections()
      server.close(() => resume(Effect.void))
    })
)

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwcgZHcmR4lzo="
const body = JSON.stringify({ id: "e1", type: "job.completed", createdAt: "2025-01-01T00:00:00.000Z", data: {} })
const headers = webhookHeaders({
  secret,
  eventType: "job.completed",
  deliveryId: "dlv_1",
  timestampSeconds: 1_750_000_000,
  rawBody: body
})
const pinned = { address: "127.0.0.1", family: 4 } as const

describe("SafeTransport", () => {
  it.live("posts the signed body and reports a 2xx as success", () =>
    Effect.gen(function*() {
      const { port, received } = yield* receiver
      const url = `http://127.0.0.1:${port}/ok`
      assert.isTrue(checkUrl(url, { allowPrivate: true }).ok)
      const outcome = yield* deliver({ url, ...pinned, headers, body })
      assert.strictEqual(outcome.ok, true)
      assert.strictEqual(outcome.status, 204)
      assert.isUndefined(outcome.error)
      assert.isAtLeast(outcome.durationMs, 0)
      assert.strictEqual(received.length, 1)
      const request = received[0]
      assert.strictEqual(request?.method, "POST")
      assert.strictEqual(request?.body, body)
      assert.strictEqual(request?.headers["user-agent"], "svc-Webhooks/1.0")
      assert.strictEqual(request?.headers["content-type"], "application/json")
      assert.strictEqual(request?.headers["svc-event"], "job.completed")
      assert.strictEqual(request?.headers["svc-delivery"], "dlv_1")
      // What the receiver got verifies with the receiver helper.
      assert.isTrue(verifyWebhook(secret, request?.headers ?? {}, request?.body ?? "", { nowSeconds: 1_750_000_000 }).ok)
    }))

  it.live("connects to the pinned address, keeping the URL's hostname in Host", () =>
    Effect.gen(function*() {
      const { port, received } = yield* receiver
      // This name does not resolve anywhere: only the pinned lookup can reach the server.
      const outcome = yield* deliver({ url: `http://hooks.invalid:${port}/ok?x=1`, ...pinned, headers, body })
      assert.strictEqual(outcome.status, 204)
      assert.strictEqual(received[0]?.headers.host, `hooks.invalid:${port}`)
      assert.strictEqual(received[0]?.path, "/ok?x=1")
    }))

  it.live("with a pool, reuses a connection only for the same vetted address", () =>
    Effect.gen(function*() {
      const { port, received } = yield* receiver
      const connections = yield* connectionPool
      const url = `http://hooks.invalid:${port}/ok`
      const first = yield* deliver({ url, ...pinned, headers, body, connections })
      const second = yield* deliver({ url, ...pinned, headers, body, connections })
      assert.deepStrictEqual([first.status, second.status], [204, 204])
      assert.strictEqual(received[0]?.connection, received[1]?.connection)
      // Another vetted address for the same URL (DNS answered differently): a new connection, which
      // finds nothing listening there, never the open one to the first address.
      const moved = yield* deliver({ url, address: "127.0.0.2", family: 4, headers, body, connections })
      assert.isNull(moved.status)
      assert.include(moved.error ?? "", "ECONNREFUSED")
      assert.strictEqual(received.length, 2)
    }))

  it.live("reports the status of a response whose body is too long to drain", () =>
    Effect.gen(function*() {
      const { port } = yield* receiver
      const connections = yield* connectionPool
      const outcome = yield* deliver({ url: `http://127.0.0.1:${port}/big`, ...pinned, headers, body, connections })
      assert.deepStrictEqual([outcome.ok, outcome.status, outcome.error], [true, 200, undefined])
      // Only the body's start is kept, for the delivery history.
      assert.strictEqual(outcome.response, "x".repeat(responseKeptBytes))
      // The pool goes on with a fresh connection.
      const next = yield* deliver({ url: `http://127.0.0.1:${port}/ok`, ...pinned, headers, body, connections })
      assert.strictEqual(next.status, 204)
    }))

  it.live("reports a 500 as a failure with its status", () =>
    Effect.gen(function*() {
      const { port } = yield* receiver
      const outcome = yield* deliver({ url: `http://127.0.0.1:${port}/fail`, ...pinned, headers, body })
      assert.strictEqual(outcome.ok, false)
      assert.strictEqual(outcome.status, 500)
      assert.include(outcome.error ?? "", "500")
      assert.strictEqual(outcome.response, "boom")
    }))

  it.live("keeps the start of a response's body as text, without NUL characters (PostgreSQL refuses them); none when no response arrived", () =>
    Effect.gen(function*() {
      const { port } = yield* receiver
      const odd = yield* deliver({ url: `http://127.0.0.1:${port}/odd`, ...pinned, headers, body })
      assert.strictEqual(odd.response, "a\u00e9b\ufffd")
      const empty = yield* deliver({ url: `http://127.0.0.1:${port}/ok`, ...pinned, headers, body })
      assert.strictEqual(empty.response, "")
      const refused = yield* deliver({ url: "http://127.0.0.1:9/ok", ...pinned, headers, body })
      assert.isUndefined(refused.response)
    }))

  it.live("does not follow a redirect and reports it as a failure", () =>
    Effect.gen(function*() {
      const { port, received } = yield* receiver
      const outcome = yield* deliver({ url: `http://127.0.0.1:${port}/redirect`, ...pinned, headers, body })
      assert.strictEqual(outcome.ok, false)
      assert.strictEqual(outcome.status, 302)
      assert.include(outcome.error ?? "", "redirect")
      // Give a follow-up request time to arrive, were one sent.
      yield* Effect.sleep("100 millis")
      assert.deepStrictEqual(received.map((r) => r.path), ["/redirect"])
    }))

  it.live("gives up after the time-out when the endpoint does not answer", () =>
    Effect.gen(function*() {
      const { port, received } = yield* receiver
      const outcome = yield* deliver({
        url: `http://127.0.0.1:${port}/slow`,
        ...pinned,
        headers,
        body,
        timeoutMs: 200
      })
      assert.strictEqual(outcome.ok, false)
      assert.isNull(outcome.status)
      assert.include(outcome.error ?? "", "No response within 200 ms")
      assert.isAtLeast(outcome.durationMs, 150)
      assert.isBelow(outcome.durationMs, 5_000)
      assert.strictEqual(received.length, 1)
    }))

  it.live("reports a refused connection without throwing", () =>
    Effect.gen(function*() {
      const { port, server } = yield* receiver
      yield* Effect.callback<void>((resume) => {
        server.close(() => resume(Effect.void))
      })
      const outcome = yield* deliver({ url: `http://127.0.0.1:${port}/ok`, ...pinned, headers, body })
      assert.strictEqual(outcome.ok, false)
      assert.isNull(outcome.status)
      assert.include(outcome.error ?? "", "ECONNREFUSED")
    }))

  it.live("reports a malformed URL without throwing", () =>
    Effect.gen(function*() {
      const outcome = yield* deliver({ url: "not a url", ...pinned, headers, body })
      assert.strictEqual(outcome.ok, false)
      assert.include(outcome.error ?? "", "could not be made")
    }))
})
