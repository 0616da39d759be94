/**
 * `npm run bench:forecast`: how long `GET /v1/accounts/{id}/forecast` takes
 * for an account with 1,000 queued writes (600 connect, 300 send_message,
 * 50 withdraw_invite, 50 create_post; budgets, working hours and pacing all
 * in play), the service in process on embedded PGlite and its test clock.
 * The writes are written into the queue directly, outside working hours (closed
 * at the clock's instant), so the Governor leaves them queued while the
 * forecast is taken again and again.
 *
 * Rows: the whole answer (reading the account and its writes, the
 * simulation, the page of 100), the simulation alone, and with `assume`
 * adding 1,000 and 4,000 more (5,000 writes, the cap). Target: 1,000
 * queued writes under 100 ms.
 *
 * Options: BENCH_RUNS (default 30).
 */
import { loadavg } from "node:os"
import { Effect } from "effect"
import type { CommandName } from "../src/domain/Commands.ts"
import { SqlClient } from "effect/sql"
import { loadFacts } from "../src/jobs/AccountFacts.ts"
import { simulate } from "../src/jobs/Forecast.ts"
import { Forecasts } from "../src/jobs/Forecasts.ts"
import { queuedWriteOf } from "../src/jobs/WriteTarget.ts"
import { JobStore } from "../src/jobs/JobStore.ts"
import { ServiceClock } from "../src/platform/ServiceClock.ts"
import { Workspaces } from "../src/workspaces/Workspaces.ts"
import { insertAccounts } from "../test/support/BulkAccounts.ts"
import { serviceLayer } from "./inProcess.ts"
import { percentile, tempDir } from "./support.ts"

const runs = Number(process.env["BENCH_RUNS"] ?? 30)

/** `count` writes of `command`, inserted straight into the queue (creating them through the API would wake the Governor 1,000 times). */
const insertWrites = (workspaceId: string, accountId: string, count: number, command: CommandName, input: (n: number) => unknown) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const inputs = Array.from({ length: count }, (_, n) => JSON.stringify(input(n)))
    yield* sql`
      INSERT INTO jobs (id, workspace_id, account_id, kind, is_write, status, input, created_at)
      SELECT gen_random_uuid(), ${workspaceId}, ${accountId}, ${command}, true, 'queued', value::jsonb, now()
      FROM jsonb_array_elements_text(${JSON.stringify(inputs)}::jsonb) WITH ORDINALITY AS t(value, n) ORDER BY n`
  }).pipe(Effect.orDie)

/**
 * Milliseconds `work` takes, `runs` times over (after two warm-up runs), and the CPU time this process
 * spent per run (the database is embedded, so its work is counted too): on a machine shared with other
 * work the wall time moves with the load, the CPU time hardly.
 */
const timed = <A, E, R>(work: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    yield* work
    yield* work
    const times: Array<number> = []
    const cpuBefore = process.cpuUsage()
    for (let i = 0; i < runs; i++) {
      const started = performance.now()
      yield* work
      times.push(performance.now() - started)
    }
    const cpu = process.cpuUsage(cpuBefore)
    return { times, cpuMs: (cpu.user + cpu.system) / 1000 / runs }
  })

const row = (label: string, measured: { readonly times: ReadonlyArray<number>; readonly cpuMs: number }) =>
  console.log(
    label.padEnd(52) +
      [percentile(measured.times, 50), percentile(measured.times, 95), Math.max(...measured.times), measured.cpuMs]
        .map((ms) => ms.toFixed(1).padStart(10))
        .join("")
  )

const program = Effect.gen(function*() {
  const { workspace } = yield* (yield* Workspaces).create({ name: "bench forecast" })
  const [accountId] = yield* insertAccounts(workspace.id, 1)
  const sql = yield* SqlClient.SqlClient
  const now = yield* (yield* ServiceClock).now
  // Weekdays 09:00 to 18:00, in a zone where it is 02:00 at the clock's instant: every write waits.
  const east = (26 - new Date(now).getUTCHours()) % 24
  const offset = east > 14 ? east - 24 : east
  const zone = offset >= 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`
  yield* sql`UPDATE accounts SET working_days = '[1,2,3,4,5]'::jsonb, work_from = '09:00', work_to = '18:00',
    timezone = ${zone}, off_hours_policy = 'queue' WHERE id = ${accountId}`
  yield* insertWrites(workspace.id, accountId, 600, "connect", (n) => ({ person: `bench-person-${n}` }))
  yield* insertWrites(workspace.id, accountId, 300, "send_message", (n) => ({ person: `bench-friend-${n}`, text: "Hello" }))
  yield* insertWrites(workspace.id, accountId, 50, "withdraw_invite", (n) => ({ person: `bench-person-${n}` }))
  yield* insertWrites(workspace.id, accountId, 50, "create_post", (n) => ({ text: `Post ${n}` }))
  const forecasts = yield* Forecasts
  const first = yield* forecasts.forecast(workspace.id, accountId, {})
  console.log(`account in ${zone}; ${first.total} writes forecast, the queue empties ${first.emptyAt}; ${first.days.length} days`)

  const store = yield* JobStore
  const open = yield* store.openWritesOf(accountId, 5_000)
  const facts = yield* loadFacts(sql, accountId, now)
  if (facts === undefined) return yield* Effect.die("the account is gone")
  const writes = open.map((job) => ({ id: job.id, ...queuedWriteOf(job) }))

  console.log(`load average ${loadavg().map((load) => load.toFixed(1)).join(" ")}`)
  console.log(`\n${"".padEnd(52)}${["p50 ms", "p95 ms", "max ms", "CPU ms"].map((h) => h.padStart(10)).join("")}`)
  row("1,000 queued: the whole answer", yield* timed(forecasts.forecast(workspace.id, accountId, {})))
  row("1,000 queued: the simulation alone", yield* timed(Effect.sync(() => simulate(facts, writes, now))))
  row("1,000 queued + assume connect:1000", yield* timed(forecasts.forecast(workspace.id, accountId, { assume: "connect:1000" })))
  row(
    "1,000 queued + assume 4,000 (the 5,000 cap)",
    yield* timed(forecasts.forecast(workspace.id, accountId, { assume: "connect:2000,send_message:2000" }))
  )
})

const data = tempDir("outreach-bench-forecast-")
try {
  await Effect.runPromise(program.pipe(Effect.provide(serviceLayer({ dataDir: data.path })), Effect.orDie))
} finally {
  data.dispose()
}
