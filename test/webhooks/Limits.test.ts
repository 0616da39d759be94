/**
 * The dispatcher's limits while a finishing attempt hands its slot straight to
 * the next leased delivery: at most `perEndpoint` attempts at once to one
 * endpoint (4 in the test settings), at most `concurrency` (16) in all. And
 * what the server holds for an endpoint (the fan-out leases a backlog to it)
 * follows the endpoint: disabled, none more is sent after the next poll; enabled
 * again, the rest go.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { assert, layer } from "@effect/vitest"
import { Duration, Effect, Layer } from "effect"
import type { NewEvent } from "../../src/domain/Events.ts"
import { DispatcherSettings } from "../../src/webhooks/Dispatcher.ts"
import * as TestServer from "../support/TestServer.ts"
import { call, newWorkspace } from "../support/TestServer.ts"
import { allFannedOut, emit, eventually, liveSleep } from "./support.ts"

/** A receiver that answers each POST after `delayMs`, counting the requests open at once per path and in all. */
const countingReceiver = (delayMs: number) =>
  Effect.acquireRelease(
    Effect.promise(() =>
      new Promise<{
        readonly base: string
        readonly answered: () => number
        readonly mostOpen: (path?: string) => number
        readonly close: () => void
      }>((resolve) => {
        const open = new Map<string, number>()
        const most = new Map<string, number>()
        let answered = 0
        const count = (key: string, by: number) => {
          const now = (open.get(key) ?? 0) + by
          open.set(key, now)
          most.set(key, Math.max(most.get(key) ?? 0, now))
        }
        const server = createServer((req, res) => {
          const path = req.url ?? "/"
          count(path, 1)
          count("*", 1)
          // Open until its response is closed: answered, or abandoned by the client.
          res.on("close", () => {
            count(path, -1)
            count("*", -1)
          })
          req.resume()
          req.on("end", () =>
            setTimeout(() => {
              answered++
              res.writeHead(204).end()
            }, delayMs))
        })
        server.listen(0, "127.0.0.1", () => {
          const address = server.address()
          resolve({
            base: `http://127.0.0.1:${typeof address === "object" && address !== null ? (address satisfies AddressInfo).port : 0}`,
            answered: () => answered,
            mostOpen: (path = "*") => most.get(path) ?? 0,
            close: () => {
              server.closeAllConnections()
              server.close()
            }
          })
        })
      })
    ),
    (r) => Effect.sync(r.close)
  )

const paused: NewEvent = { type: "account.paused", data: { accountId: "a", reason: "paused by a person" } }

/** Registers an endpoint per path, emits `events` events and waits until every delivery was answered. */
const deliverAll = (paths: ReadonlyArray<string>, events: number) =>
  Effect.gen(function*() {
    const r = yield* countingReceiver(20)
    const { keyValue: token, workspace } = yield* newWorkspace()
    for (const path of paths) {
      const reply = yield* call("POST", "/v1/webhooks", { token, body: { url: `${r.base}${path}` } })
      assert.strictEqual(reply.status, 201)
    }
    yield* emit(workspace.id, Array.from({ length: events }, () => paused))
    yield* eventually("every delivery answered", Effect.sync(r.answered), (n) => n >= events * paths.length, 20_000)
    return r
  })

/** The test settings' limits with the spec's 10-second time-out: on a loaded machine no attempt times out (and frees its slot) while its request is still open. */
const services = TestServer.layer({ allowPrivateWebhooks: true }).pipe(
  Layer.provide(Layer.succeed(DispatcherSettings, {
    pollInterval: Duration.millis(20),
    concurrency: 16,
    perEndpoint: 4,
    timeoutMs: Duration.toMillis(Duration.seconds(10)),
    fanOutBatch: 100
  }))
)

layer(services)("webhook dispatcher limits", (it) => {
  it.effect("two endpoints: each gets perEndpoint attempts at once, never more (16 slots would allow 8)", () =>
    Effect.gen(function*() {
      const r = yield* deliverAll(["/a", "/b"], 60)
      assert.strictEqual(r.mostOpen("/a"), 4)
      assert.strictEqual(r.mostOpen("/b"), 4)
    }))

  it.effect("five endpoints: concurrency attempts at once in all, never more (perEndpoint would allow 20)", () =>
    Effect.gen(function*() {
      const r = yield* deliverAll(["/a", "/b", "/c", "/d", "/e"], 40)
      assert.strictEqual(r.mostOpen(), 16)
    }))

  it.effect("an endpoint disabled while its backlog waits here: nothing more is sent; enabled again, the rest is", () =>
    Effect.gen(function*() {
      const r = yield* countingReceiver(50)
      const { keyValue: token, workspace } = yield* newWorkspace()
      const created = yield* call("POST", "/v1/webhooks", { token, body: { url: `${r.base}/held` } })
      assert.strictEqual(created.status, 201)
      const id = created.body.webhook.id
      // 4 at a time, 50 ms each: 200 take about 2.5 s, all of them leased to this server by the fan-out.
      yield* emit(workspace.id, Array.from({ length: 200 }, () => paused))
      yield* eventually("the first answered", Effect.sync(r.answered), (n) => n >= 8, 20_000)
      // The whole backlog is held here before the endpoint is disabled (events fanned out while it
      // is disabled are not its to receive).
      yield* eventually("all fanned out", allFannedOut, (done) => done, 20_000)
      const off = yield* call("PATCH", `/v1/webhooks/${id}`, { token, body: { enabled: false } })
      assert.strictEqual(off.status, 200)
      // Within a poll (20 ms) and the attempts then in flight (50 ms), the sending stops.
      yield* liveSleep(300)
      const stopped = r.answered()
      yield* liveSleep(500)
      assert.strictEqual(r.answered(), stopped)
      assert.isBelow(stopped, 100)
      const on = yield* call("PATCH", `/v1/webhooks/${id}`, { token, body: { enabled: true } })
      assert.strictEqual(on.status, 200)
      yield* eventually("the rest answered", Effect.sync(r.answered), (n) => n >= 200, 20_000)
    }))
})
