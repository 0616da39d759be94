/**
 * `npm run bench:webhooks`: webhook deliveries per second to a local
 * receiver (fan-out from the outbox, signed, pinned, attempts recorded in
 * the database) beside the same number of bare unsigned POSTs sent by a
 * plain loop with the same concurrency, in one run.
 *
 * The service's core runs in this process on embedded PGlite in a
 * temporary directory (or on `DATABASE_URL` when set).
 *
 * Options: BENCH_EVENTS (default 500), BENCH_ENDPOINTS (default 4; each
 * event goes to every endpoint), BENCH_CONCURRENCY (default 16).
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Duration, Effect, Layer, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import * as App from "../src/App.ts"
import { Outbox } from "../src/events/Outbox.ts"
import type { NewEvent } from "../src/domain/Events.ts"
import { AppConfig } from "../src/platform/AppConfig.ts"
import * as Database from "../src/platform/Database.ts"
import * as ServiceClock from "../src/platform/ServiceClock.ts"
import { DispatcherSettings, WebhookDispatcher } from "../src/webhooks/Dispatcher.ts"
import { WebhookEndpoints } from "../src/webhooks/Endpoints.ts"
import { Workspaces } from "../src/workspaces/Workspaces.ts"
import { tempDir } from "./support.ts"

const events = Number(process.env["BENCH_EVENTS"] ?? 500)
const endpointCount = Number(process.env["BENCH_ENDPOINTS"] ?? 4)
const concurrency = Number(process.env["BENCH_CONCURRENCY"] ?? 16)
const total = events * endpointCount

let received = 0
let onTarget: (() => void) | undefined
const receiver = createServer((req, res) => {
  req.resume()
  req.on("end", () => {
    res.writeHead(204).end()
    received++
    if (onTarget !== undefined && received >= total) onTarget()
  })
})
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`

const waitForAll = () =>
  new Promise<void>((resolve) => {
    if (received >= total) return resolve()
    onTarget = resolve
  })

// Baseline: bare unsigned POSTs of a similar body, `concurrency` at a time, fresh socket each (as deliveries do).
const body = JSON.stringify({
  id: crypto.randomUUID(),
  type: "account.paused",
  createdAt: new Date(0).toISOString(),
  data: { accountId: crypto.randomUUID(), reason: "benchmark" }
})
const bareStart = performance.now()
let sent = 0
await Promise.all(Array.from({ length: concurrency }, async () => {
  while (sent < total) {
    sent++
    const response = await fetch(`${base}/bare`, {
      method: "POST",
      headers: { "content-type": "application/json", connection: "close" },
      body
    })
    await response.arrayBuffer()
  }
}))
const bareSeconds = (performance.now() - bareStart) / 1000
received = 0

const data = tempDir("outreach-bench-webhooks-")
const databaseUrl = process.env["DATABASE_URL"]
const config = AppConfig.layerWith({
  dataDir: data.path,
  databaseUrl: databaseUrl === undefined || databaseUrl === "" ? Option.none() : Option.some(Redacted.make(databaseUrl)),
  allowPrivateWebhooks: true,
  logLevel: "Warn"
})
const services = App.core.pipe(
  Layer.provideMerge(ServiceClock.layer),
  Layer.provideMerge(Database.layer),
  Layer.provideMerge(config),
  Layer.provide(Layer.succeed(DispatcherSettings, {
    pollInterval: Duration.millis(100),
    concurrency,
    perEndpoint: Math.max(1, Math.ceil(concurrency / endpointCount)),
    timeoutMs: 10_000,
    fanOutBatch: 500
  }))
)

const deliveredSeconds = await Effect.gen(function*() {
  const { workspace } = yield* (yield* Workspaces).create({ name: "bench" })
  const endpoints = yield* WebhookEndpoints
  for (let i = 0; i < endpointCount; i++) {
    yield* endpoints.create({ workspaceId: workspace.id, url: `${base}/hook-${i}`, events: [], mode: "fat" })
  }
  const batch: Array<NewEvent> = Array.from({ length: events }, () => ({
    type: "account.paused",
    data: { accountId: crypto.randomUUID(), reason: "benchmark" }
  }))
  const sql = yield* SqlClient.SqlClient
  const started = performance.now()
  yield* sql.withTransaction((yield* Outbox).append(workspace.id, batch)).pipe(Effect.orDie)
  yield* (yield* WebhookDispatcher).wake
  yield* Effect.promise(waitForAll)
  return (performance.now() - started) / 1000
}).pipe(Effect.provide(services), Effect.scoped, Effect.runPromise)

receiver.close()
data.dispose()

const bareRate = total / bareSeconds
const deliveryRate = total / deliveredSeconds
console.log(`\n${total} POSTs (${events} events x ${endpointCount} endpoints), ${concurrency} at a time`)
console.log(`${"".padEnd(52)}${"seconds".padStart(10)}${"per second".padStart(12)}`)
console.log(
  `${"bare unsigned POSTs, plain loop (baseline)".padEnd(52)}${bareSeconds.toFixed(2).padStart(10)}${
    bareRate.toFixed(0).padStart(12)
  }`
)
console.log(
  `${"webhook deliveries (outbox, signed, recorded)".padEnd(52)}${deliveredSeconds.toFixed(2).padStart(10)}${
    deliveryRate.toFixed(0).padStart(12)
  }`
)
console.log(`ratio deliveries / bare: ${(deliveryRate / bareRate).toFixed(2)}`)
