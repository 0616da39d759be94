/**
 * A local webhook receiver for tests, and the service wired for webhook tests:
 * private receivers allowed, fast polling, a short response time-out and a
 * static resolver.
 */
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { Duration, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Outbox } from "../../src/events/Outbox.ts"
import type { NewEvent } from "../../src/domain/Events.ts"
import type { NetworkDriver } from "../../src/network/NetworkDriver.ts"
import { NodeHttpServer } from "@effect/platform-node"
import * as App from "../../src/App.ts"
import { Platform } from "../../src/http/Platform.ts"
import * as Server from "../../src/Server.ts"
import { AppConfig, type AppSettings } from "../../src/platform/AppConfig.ts"
import * as ServiceClock from "../../src/platform/ServiceClock.ts"
import { WebhookResolver } from "../../src/webhooks/AddressGuard.ts"
import { DispatcherSettings, WebhookDispatcher } from "../../src/webhooks/Dispatcher.ts"
import * as TestServer from "../support/TestServer.ts"

/** How a receiver path answers. */
export type Behaviour = "ok" | "fail500" | "redirect302" | "hang" | "gone410"

/** One request the receiver got. */
export interface Received {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

/** The response time-out used in tests, so a silent receiver fails fast. */
export const testTimeoutMs = 300

/** A node:http receiver on 127.0.0.1; each path answers with its behaviour (default `ok`). */
export const receiver = Effect.acquireRelease(
  Effect.promise(() =>
    new Promise<{
      readonly base: string
      readonly received: Array<Received>
      readonly behave: (path: string, behaviour: Behaviour) => void
      readonly close: () => void
    }>((resolve) => {
      const received: Array<Received> = []
      const behaviours = new Map<string, Behaviour>()
      const server = createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (chunk: Buffer) => chunks.push(chunk))
        req.on("end", () => {
          const path = req.url ?? "/"
          received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") })
          switch (behaviours.get(path) ?? "ok") {
            case "ok":
              return res.writeHead(204).end()
            case "fail500":
              return res.writeHead(500).end("boom")
            case "gone410":
              return res.writeHead(410).end()
            case "redirect302":
              return res.writeHead(302, { location: `${path}/followed` }).end()
            case "hang":
              return
          }
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resolve({
          base: `http://127.0.0.1:${port}`,
          received,
          behave: (path, behaviour) => behaviours.set(path, behaviour),
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

/** Fast polling and a short time-out; `receiver.test` and `rebind.test` resolve to 127.0.0.1. */
export const webhookTestLayers = Layer.mergeAll(
  Layer.succeed(DispatcherSettings, {
    pollInterval: Duration.millis(20),
    concurrency: 16,
    perEndpoint: 4,
    timeoutMs: testTimeoutMs,
    fanOutBatch: 100
  }),
  WebhookResolver.layerStatic({
    "receiver.test": ["127.0.0.1"],
    "rebind.test": ["127.0.0.1"],
    "mixed.test": ["93.184.216.34", "10.0.0.7"],
    "public.test": ["93.184.216.34"],
    "mapped.test": ["::ffff:127.0.0.1"]
  })
)

/** The service over a fresh database, with the webhook test settings. */
export const serverLayer = (overrides: Partial<AppSettings> = { allowPrivateWebhooks: true }) =>
  TestServer.layer(overrides).pipe(Layer.provide(webhookTestLayers))

/**
 * The service on a database that outlives it (`TestDatabase.reopenable`):
 * build, close and build again to restart it.
 */
export const restartableServer = (
  database: Layer.Layer<SqlClient.SqlClient>,
  driver: Layer.Layer<NetworkDriver, never, SqlClient.SqlClient | AppConfig> = App.network,
  settings: Partial<AppSettings> = {}
) =>
  Server.serve(Server.routes, { logRequests: false, logAddress: false }).pipe(
    Layer.provideMerge(NodeHttpServer.layerTest),
    Layer.provideMerge(App.coreWith(driver)),
    Layer.provideMerge(ServiceClock.layer),
    Layer.provideMerge(database),
    // Requests are served on configuration and logging, as in `App.layer`.
    Layer.provideMerge(Platform.layer),
    Layer.provideMerge(AppConfig.layerWith({ allowPrivateWebhooks: true, inboxSync: false, ...settings })),
    Layer.provide(webhookTestLayers)
  )

/** Records events in one transaction and wakes the dispatcher. */
export const emit = (workspaceId: string, events: ReadonlyArray<NewEvent>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const outbox = yield* Outbox
    yield* sql.withTransaction(outbox.append(workspaceId, events)).pipe(Effect.orDie)
    yield* (yield* WebhookDispatcher).wake
  })

/** Whether every event committed so far has been fanned out (the dispatcher's cursor is past them all). */
export const allFannedOut = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* sql<{ readonly done: boolean }>`
    SELECT (SELECT last_seq FROM webhook_dispatch_cursor WHERE id = 1)
      >= (SELECT COALESCE(max(seq), 0) FROM outbox_events) AS done`.pipe(Effect.orDie)
  return row?.done === true
})

export { eventually, liveSleep } from "../support/Eventually.ts"

/** Requests received on `path` so far. */
export const on = (received: ReadonlyArray<Received>, path: string) => received.filter((r) => r.path === path)
