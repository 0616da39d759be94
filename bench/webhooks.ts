/**
 * `npm run bench:webhooks`: webhook deliveries per second to a local
 * receiver (fan-out from the outbox, signed, pinned, attempts recorded in
 * the database) beside the same number of bare unsigned POSTs sent by a
 * plain loop with the same concurrency, in one run: with node:http on
 * kept-alive sockets (the baseline of the ratio) and on fresh ones, and with
 * undici (the service's client) on kept-alive ones, which shows the client's
 * share of the ratio.
 *
 * The service's core runs in this process on embedded PGlite in a
 * temporary directory, and also on a fresh database of the PostgreSQL
 * server at `DATABASE_URL` when it is set. The rows are measured in turn,
 * BENCH_ROUNDS times (default 3); the table shows each row's median round,
 * and its ratio is the median of the rounds' own ratios to the kept-alive
 * baseline of the same round, with their range.
 *
 * With PostgreSQL, a floor row too: the same POSTs signed by the service's
 * signer, sent by the service's client (undici), and recorded as finished delivery rows, one INSERT per batch, by a
 * plain JavaScript loop: the least a durable signed dispatcher does, so the
 * service's row beside it shows what the service's design adds.
 *
 * Before the rounds, each row runs BENCH_WARMUPS times (default 1) unmeasured.
 *
 * Options: BENCH_EVENTS (default 2500), BENCH_ENDPOINTS (default 4; each
 * event goes to every endpoint), BENCH_CONCURRENCY (default 16), BENCH_PGLITE=0
 * to leave the PGlite row out (to profile the PostgreSQL one). Each row also
 * shows this process's CPU time per POST (`process.cpuUsage`; the receiver is
 * in this process, so every row counts both sides).
 */
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { Pool } from "undici"
import { Duration, Effect, Layer, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import * as App from "../src/App.ts"
import { Outbox } from "../src/events/Outbox.ts"
import type { NewEvent } from "../src/domain/Events.ts"
import { AppConfig } from "../src/platform/AppConfig.ts"
import * as Database from "../src/platform/Database.ts"
import * as Observability from "../src/platform/Observability.ts"
import * as ServiceClock from "../src/platform/ServiceClock.ts"
import { DispatcherSettings, WebhookDispatcher } from "../src/webhooks/Dispatcher.ts"
import { WebhookEndpoints } from "../src/webhooks/Endpoints.ts"
import { attemptSigner } from "../src/webhooks/Signature.ts"
import { Workspaces } from "../src/workspaces/Workspaces.ts"
import { freshPostgresUrl } from "../test/support/TestDatabase.ts"
import { median, tempDir } from "./support.ts"

const events = Number(process.env["BENCH_EVENTS"] ?? 2500)
const endpointCount = Number(process.env["BENCH_ENDPOINTS"] ?? 4)
const concurrency = Number(process.env["BENCH_CONCURRENCY"] ?? 16)
const rounds = Math.max(1, Number(process.env["BENCH_ROUNDS"] ?? 3))
const warmups = Math.max(0, Number(process.env["BENCH_WARMUPS"] ?? 1))
const databaseUrl = process.env["DATABASE_URL"]
const total = events * endpointCount

let received = 0
/** When the first POST of a row arrived (`performance.now()`). */
let firstReceivedAt = 0
let onTarget: (() => void) | undefined
const receiver = http.createServer((req, res) => {
  req.resume()
  req.on("end", () => {
    res.writeHead(204).end()
    received++
    if (received === 1) firstReceivedAt = performance.now()
    if (onTarget !== undefined && received >= total) onTarget()
  })
})
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
const address = receiver.address()
const base = `http://127.0.0.1:${typeof address === "object" && address !== null ? (address satisfies AddressInfo).port : 0}`

const waitForAll = () =>
  new Promise<void>((resolve) => {
    if (received >= total) return resolve()
    onTarget = resolve
  })

const body = JSON.stringify({
  id: crypto.randomUUID(),
  type: "account.paused",
  createdAt: new Date(0).toISOString(),
  data: { accountId: crypto.randomUUID(), reason: "benchmark" }
})

/** One POST of `body` to `path`; its status. */
const post = (agent: http.Agent | false, path = "/bare", headers: Readonly<Record<string, string>> = {}) =>
  new Promise<number>((resolve, reject) => {
    const req = http.request(`${base}${path}`, {
      method: "POST",
      agent,
      headers: { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) }
    }, (response) => {
      response.resume()
      response.on("end", () => resolve(response.statusCode ?? 0))
    })
    req.on("error", reject)
    req.end(body)
  })

/** One POST of `body` to `path` through undici's dispatch API, as deliveries are sent; its status. */
const dispatch = (pool: Pool, path: string, headers: Readonly<Record<string, string>> = {}) =>
  new Promise<number>((resolve, reject) => {
    let status = 0
    pool.dispatch({ path, method: "POST", headers: { ...headers, "content-type": "application/json" }, body }, {
      onRequestStart: () => undefined,
      onResponseData: () => undefined,
      onResponseStart: (_controller, statusCode) => {
        status = statusCode
      },
      onResponseEnd: () => resolve(status),
      onResponseError: (_controller, error) => reject(error)
    })
  })

/** `total` POSTs made by `send`, `concurrency` at a time, by a plain loop; seconds taken. */
const bareLoop = async (send: () => Promise<number>): Promise<number> => {
  const started = performance.now()
  let sent = 0
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (sent < total) {
      sent++
      await send()
    }
  }))
  received = 0
  return (performance.now() - started) / 1000
}

/** Bare unsigned POSTs through undici on kept-alive connections; seconds taken. */
const bareUndici = async (): Promise<number> => {
  const pool = new Pool(base, { allowH2: false })
  const seconds = await bareLoop(() => dispatch(pool, "/bare"))
  await pool.destroy()
  return seconds
}

/** Bare unsigned POSTs of a similar body through node:http, on fresh sockets or kept-alive ones; seconds taken. */
const bare = async (keepAlive: boolean): Promise<number> => {
  const agent = keepAlive ? new http.Agent({ keepAlive: true }) : false
  const seconds = await bareLoop(() => post(agent))
  if (agent !== false) agent.destroy()
  return seconds
}

/** The service's core as `App.layer` runs it (without an OTLP endpoint, tracing is off), on `url` (PGlite in `dataDir` when none). */
const coreOn = (url: string | undefined, dataDir: string) =>
  App.core.pipe(
    Layer.provideMerge(ServiceClock.layer),
    Layer.provideMerge(Database.layer),
    Layer.provide(Observability.tracing),
    Layer.provideMerge(AppConfig.layerWith({
      dataDir,
      databaseUrl: url === undefined ? Option.none() : Option.some(Redacted.make(url)),
      allowPrivateWebhooks: true,
      logLevel: "Warn"
    }))
  )

/** One delivery as the floor records it, after its POST. */
interface FloorRow {
  readonly endpointId: string
  readonly eventId: string
  readonly atIso: string
  readonly status: number
  readonly durationMs: number
}

/**
 * The least a durable, signed dispatcher does, in plain JavaScript on the service's own database:
 * each POST signed with the service's signer (same headers), kept-alive sockets, `concurrency` at
 * a time, and each batch's outcomes written as finished delivery rows in one INSERT, not awaited
 * before the next batch is sent. No leases, no retries, no fibers: the service cannot do less
 * and be durable, so its row beside this one shows what its design and Effect add. Seconds from
 * the first POST to the last row written.
 */
const floor = (url: string): Promise<number> => {
  const data = tempDir("outreach-bench-webhooks-floor-")
  return Effect.gen(function*() {
    const { workspace } = yield* (yield* Workspaces).create({ name: "bench floor" })
    const endpoints = yield* WebhookEndpoints
    /** Each endpoint's id and the path its POSTs go to. */
    const registered: Array<{ readonly endpointId: string; readonly path: string }> = []
    for (let i = 0; i < endpointCount; i++) {
      const path = `/floor-${i}`
      const created = yield* endpoints.create({ workspaceId: workspace.id, url: `${base}${path}`, events: [], mode: "fat" })
      registered.push({ endpointId: created.webhook.id, path })
    }
    const sql = yield* SqlClient.SqlClient
    const write = (rows: ReadonlyArray<FloorRow>) =>
      sql`
        INSERT INTO webhook_deliveries (id, workspace_id, endpoint_id, event_id, event_type, body, status,
          attempt_count, created_at, succeeded_at, succeeded_status, succeeded_duration_ms)
        SELECT gen_random_uuid(), ${workspace.id}::uuid, r."endpointId", r."eventId", 'account.paused', ${body},
          'succeeded', 1, r."atIso", r."atIso", r.status, r."durationMs"
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          AS r("endpointId" uuid, "eventId" uuid, "atIso" timestamptz, status integer, "durationMs" integer)`.pipe(
        Effect.orDie,
        Effect.runPromise
      )
    const sign = attemptSigner()
    // The service's client: undici, kept-alive connections.
    const pool = new Pool(base, { allowH2: false })
    const batchEvents = 500
    return yield* Effect.promise(async () => {
      const started = performance.now()
      const writes: Array<Promise<unknown>> = []
      for (let first = 0; first < events; first += batchEvents) {
        const targets = Array.from({ length: Math.min(batchEvents, events - first) }, () => crypto.randomUUID())
          .flatMap((eventId) => registered.map((endpoint) => ({ eventId, ...endpoint })))
        const rows: Array<FloorRow> = []
        let next = 0
        await Promise.all(Array.from({ length: concurrency }, async () => {
          while (next < targets.length) {
            const { endpointId, eventId, path } = targets[next++]
            const atMs = Date.now()
            const headers = sign({
              secret: "whsec_bench",
              eventType: "account.paused",
              deliveryId: eventId,
              timestampSeconds: Math.floor(atMs / 1000),
              rawBody: body
            })
            const status = await dispatch(pool, path, headers)
            rows.push({ endpointId, eventId, atIso: new Date(atMs).toISOString(), status, durationMs: Date.now() - atMs })
          }
        }))
        writes.push(write(rows))
      }
      await Promise.all(writes)
      await pool.destroy()
      const seconds = (performance.now() - started) / 1000
      received = 0
      return seconds
    })
  }).pipe(
    Effect.provide(coreOn(url, data.path)),
    Effect.scoped,
    Effect.ensuring(Effect.sync(() => data.dispose())),
    Effect.runPromise
  )
}

/** The service's core on `databaseUrl` (PGlite when none): seconds from committing the events to the last delivery received. */
const deliveries = (url: string | undefined): Promise<number> => {
  const data = tempDir("outreach-bench-webhooks-")
  const services = coreOn(url, data.path).pipe(
    Layer.provide(Layer.succeed(DispatcherSettings, {
      pollInterval: Duration.millis(100),
      concurrency,
      perEndpoint: Math.max(1, Math.ceil(concurrency / endpointCount)),
      timeoutMs: 10_000,
      fanOutBatch: 500
    }))
  )
  return Effect.gen(function*() {
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
    yield* sql.withTransaction((yield* Outbox).append(workspace.id, batch)).pipe(Effect.orDie)
    // From the commit: writing the events is the caller's work, not the deliveries'.
    const started = performance.now()
    yield* (yield* WebhookDispatcher).wake
    yield* Effect.promise(waitForAll)
    const seconds = (performance.now() - started) / 1000
    console.log(`  the first POST arrived ${(firstReceivedAt - started).toFixed(0)} ms after the events' commit`)
    received = 0
    return seconds
  }).pipe(
    Effect.provide(services),
    Effect.scoped,
    Effect.ensuring(Effect.sync(() => data.dispose())),
    Effect.runPromise
  )
}

interface Row {
  readonly label: string
  readonly measure: () => Promise<number>
}

/** `row.measure()` with this process's CPU time over it (user + system, the receiver's too), µs per POST. */
const measured = async (row: Row): Promise<{ readonly seconds: number; readonly cpuPerPost: number }> => {
  const before = process.cpuUsage()
  const seconds = await row.measure()
  const used = process.cpuUsage(before)
  return { seconds, cpuPerPost: (used.user + used.system) / total }
}

const keptAlive: Row = { label: "bare POSTs, kept-alive sockets (baseline)", measure: () => bare(true) }
const rows: Array<Row> = [
  keptAlive,
  { label: "bare POSTs, a fresh socket each", measure: () => bare(false) },
  { label: "bare POSTs, undici, kept-alive", measure: bareUndici }
]
if (process.env["BENCH_PGLITE"] !== "0") {
  rows.push({ label: "deliveries, embedded PGlite", measure: () => deliveries(undefined) })
}
if (databaseUrl !== undefined && databaseUrl !== "") {
  /** `measure` on a fresh database of the server at `DATABASE_URL`, dropped after. */
  const onFreshDatabase = (measure: (url: string) => Promise<number>) => () =>
    Effect.runPromise(Effect.scoped(Effect.flatMap(
      Effect.orDie(freshPostgresUrl(databaseUrl)),
      (url) => Effect.promise(() => measure(url))
    )))
  rows.push({ label: "floor: signed POSTs, rows in batches, no Effect", measure: onFreshDatabase(floor) })
  rows.push({ label: "deliveries, PostgreSQL", measure: onFreshDatabase(deliveries) })
} else {
  console.log("(set DATABASE_URL to also measure deliveries on a PostgreSQL server)")
}

const seconds: Array<Array<number>> = rows.map(() => [])
const cpu: Array<Array<number>> = rows.map(() => [])
// Every row runs once first, unmeasured: the rounds then compare code the JIT has compiled (the
// service's first round ran at about half its later rate), as a long-running service runs.
for (let round = 1 - warmups; round <= rounds; round++) {
  for (const [i, row] of rows.entries()) {
    const taken = await measured(row)
    if (round < 1) {
      console.log(`warm-up: ${row.label}: ${(total / taken.seconds).toFixed(0)}/s`)
      continue
    }
    seconds[i].push(taken.seconds)
    cpu[i].push(taken.cpuPerPost)
    console.log(
      `round ${round}/${rounds}: ${row.label}: ${(total / taken.seconds).toFixed(0)}/s, ${taken.cpuPerPost.toFixed(0)} µs CPU each`
    )
  }
}
receiver.close()

console.log(
  `\n${total} POSTs (${events} events x ${endpointCount} endpoints), ${concurrency} at a time, ${rounds} rounds after ${warmups} warm-up`
)
console.log(["", "per second", "vs baseline", "range", "CPU µs each"].map((h, i) => i === 0 ? h.padEnd(46) : h.padStart(12)).join(""))
for (const [i, row] of rows.entries()) {
  const rates = seconds[i].map((taken) => total / taken)
  const ratios = rates.map((rate, round) => rate * seconds[0][round] / total)
  console.log(
    row.label.padEnd(46) + [
      median(rates).toFixed(0),
      row === keptAlive ? "1.00" : median(ratios).toFixed(2),
      row === keptAlive ? "" : `${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}`,
      `${Math.min(...cpu[i]).toFixed(0)}-${Math.max(...cpu[i]).toFixed(0)}`
    ].map((cell) => cell.padStart(12)).join("")
  )
}
