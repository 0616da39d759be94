/**
 * `npm run bench:scale` (issue #36): many accounts with writes scheduled over
 * the next days, on three runners sharing one PostgreSQL (a fresh database on
 * the server at `DATABASE_URL`), on the sandbox network and its test clock.
 *
 * - `ACCOUNTS` (default 100,000) accounts are written straight into the
 *   database, open 09:00-17:00 in one of four time zones (UTC, Berlin, New York, Tokyo), with a budget of
 *   `PER_DAY` (default 2) posts a day and `WRITES` (default 3) posts each,
 *   the first already waiting for its working hours (as an account that went
 *   through the Governor shows): so the writes spread over two days.
 * - The bench moves the clock from 21:00 UTC, three hours before the first
 *   day (no account opens before then), in steps of 15 minutes over `DAYS`
 *   (default 2) days. After each move it waits (real time) until no
 *   work is due (nothing running, nothing queued unlooked, no wait ended); work
 *   still due 120 s after the move counts as late.
 * - At 14:00 UTC of the first day it kills one runner with `kill -9` (never
 *   restarted), and prints how long its accounts' work took to go on: from the
 *   kill to the first write of one of its accounts done on a survivor, and to
 *   the end of the step.
 *
 * It prints each runner's memory over time (RSS from /proc; heap and accounts
 * in memory from their `accounts in memory` log line), the writes per
 * simulated hour, and the counts of lost, doubled, late, out-of-hours and
 * over-budget writes. `OUTREACH_ACCOUNT_IDLE_TIME` is 15 s here; the runners
 * run with the service's `node` flags, `--expose-gc` (so the heap they report
 * is live memory) and `RUNNER_FLAGS`.
 */
import { Effect, Exit, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { nodeFlags } from "../src/platform/NodeFlags.ts"
import { insertAccounts } from "../test/support/BulkAccounts.ts"
import { freshPostgresUrl, pgLayer } from "../test/support/TestDatabase.ts"
import { call, type Server, startServer } from "./servers.ts"
import { residentMemory, sleep, stopProcess } from "./support.ts"

const serverUrl = process.env["DATABASE_URL"]
if (serverUrl === undefined || serverUrl === "") {
  console.error("bench:scale needs DATABASE_URL: a PostgreSQL server on which it makes a fresh database")
  process.exit(2)
}
const accounts = Number(process.env["ACCOUNTS"] ?? 100_000)
const writes = Number(process.env["WRITES"] ?? 3)
const perDay = Number(process.env["PER_DAY"] ?? 2)
const days = Number(process.env["DAYS"] ?? 2)
const HOUR = 3_600_000
const STEP = 15 * 60_000
const LATE_AFTER_MS = 120_000
const KILL_AT = 14 * HOUR

const scope = Effect.runSync(Scope.make())
const database = await Effect.runPromise(freshPostgresUrl(serverUrl).pipe(Scope.provide(scope)))
const withSql = <A>(statement: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(Effect.gen(function*() {
    return yield* statement(yield* SqlClient.SqlClient)
  }).pipe(Effect.provide(pgLayer(database)), Effect.orDie))
const count = async (statement: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<{ n: number }>, unknown>) =>
  (await withSql(statement))[0]?.n ?? 0

const env = { OUTREACH_CLOCK: "test", OUTREACH_NETWORK: "sandbox", OUTREACH_ACCOUNT_IDLE_TIME: "15 seconds" }
console.log(`bench:scale: ${accounts} accounts, ${writes} posts each (${perDay} a day), ${days} simulated days, 3 runners`)
// With `--expose-gc` each runner collects its garbage before it reports its heap: the live heap.
// `RUNNER_FLAGS`: more `node` flags for the runners (space-separated), to try V8 settings.
const flags = [...nodeFlags, "--expose-gc", ...(process.env["RUNNER_FLAGS"] ?? "").split(" ").filter((flag) => flag !== "")]
const servers: Array<Server> = [await startServer("A", database, env, flags)]
servers.push(await startServer("B", database, env, flags), await startServer("C", database, env, flags))
// The shards are split once every runner has joined and the others saw it.
await sleep(8_000)

/** What a runner said of its memory in an `accounts in memory` line (MB, and its accounts in memory). */
interface Reported {
  readonly accounts: number
  readonly heapMb: number
  readonly heapTotalMb: number
  readonly externalMb: number
  readonly arrayBuffersMb: number
  readonly rssMb: number
}
const field = (line: string, name: string) => Number(new RegExp(` ${name}=(\\d+)`).exec(line)?.[1] ?? Number.NaN)
const reports = (server: Server): Array<Reported> =>
  [...server.log.matchAll(/message="accounts in memory"[^\n]*/g)].map(([line]) => ({
    accounts: field(line, "accounts"),
    heapMb: field(line, "heapMb"),
    heapTotalMb: field(line, "heapTotalMb"),
    externalMb: field(line, "externalMb"),
    arrayBuffersMb: field(line, "arrayBuffersMb"),
    rssMb: field(line, "rssMb")
  }))
const nothingReported: Reported = {
  accounts: 0,
  heapMb: Number.NaN,
  heapTotalMb: Number.NaN,
  externalMb: Number.NaN,
  arrayBuffersMb: Number.NaN,
  rssMb: Number.NaN
}
/** The last `accounts in memory` line of a runner (it logs one when its accounts change or its RSS moved by 32 MB). */
const reported = (server: Server): Reported => reports(server).at(-1) ?? nothingReported
const alive = (server: Server) => server.child.exitCode === null && server.child.signalCode === null
interface Sample {
  readonly at: string
  readonly rssMb: ReadonlyArray<number>
  readonly reported: ReadonlyArray<Reported>
}
const samples: Array<Sample> = []
const cell = (values: ReadonlyArray<number>) => values.map((value) => Number.isNaN(value) ? "-" : String(value)).join(" / ")
const of = (sample: Sample, key: keyof Reported) => sample.reported.map((figures) => figures[key])
const columns = ["RSS MB", "heap used MB", "heap total MB", "external MB", "of it buffers MB", "accounts in memory"]
const row = (sample: Sample) =>
  `${sample.at.padEnd(40)} ${
    [sample.rssMb, of(sample, "heapMb"), of(sample, "heapTotalMb"), of(sample, "externalMb"), of(sample, "arrayBuffersMb"), of(sample, "accounts")]
      .map((values) => cell(values).padStart(18)).join(" ")
  }`
const rssNow = () => servers.map((server) => alive(server) ? Math.round(residentMemory(server.child.pid).rssMb) : Number.NaN)
// RSS from /proc every second between the samples: the peaks, and when each was reached.
const peakRss = servers.map(() => ({ mb: 0, atMs: 0 }))
const startedMs = performance.now()
const watchPeaks = setInterval(() =>
  rssNow().forEach((mb, i) => {
    if (mb > peakRss[i].mb) peakRss[i] = { mb, atMs: performance.now() - startedMs }
  }), 1_000)
/** The runners' memory now, printed as it is taken (a run cut short still shows it). */
const sample = (at: string): Sample => {
  const taken = { at, rssMb: rssNow(), reported: servers.map(reported) }
  console.log(`  memory: ${row(taken)}`)
  return taken
}
await sleep(6_000)
const idle = sample("no accounts")
samples.push(idle)

// The clock at 21:00 UTC, three hours before the first day: no account opens before midnight UTC (Tokyo's 09:00).
const clock = await call(servers[0], "GET", "/v1/sandbox/clock")
const midnight = Math.ceil((Date.parse(clock.now) + 3 * HOUR) / (24 * HOUR)) * 24 * HOUR
const start = midnight - 3 * HOUR
const moveClock = (to: number) => call(servers.find(alive) ?? servers[0], "POST", "/v1/sandbox/clock", { to: new Date(to).toISOString() })
await moveClock(start)

const me = await call(servers[0], "GET", "/v1/me")
const written = performance.now()
await withSql((sql) =>
  Effect.gen(function*() {
    yield* insertAccounts(me.orgId, accounts).pipe(Effect.provideService(SqlClient.SqlClient, sql))
    yield* sql`
      UPDATE accounts SET work_from = '09:00', work_to = '17:00',
        timezone = (CASE abs(hashtext(id::text)) % 4 WHEN 0 THEN 'UTC' WHEN 1 THEN 'Europe/Berlin'
          WHEN 2 THEN 'America/New_York' ELSE 'Asia/Tokyo' END)
      WHERE label LIKE 'bulk %'`
    yield* sql`
      INSERT INTO account_limits (account_id, category, period, max_value, is_enabled)
      SELECT id, 'posts', 'daily', ${perDay}, true FROM accounts WHERE label LIKE 'bulk %'`
    // The first post waits for the account's opening on the first day; the others wait behind it.
    const firstDay = new Date(midnight).toISOString().slice(0, 10)
    yield* sql`
      INSERT INTO jobs (id, workspace_id, account_id, kind, is_write, origin, status, input, eta, waiting_reason, waiting_until, created_at)
      SELECT gen_random_uuid(), a.workspace_id, a.id, 'create_post', true, 'api',
        CASE WHEN k = 0 THEN 'scheduled' ELSE 'queued' END,
        jsonb_build_object('text', 'scale ' || a.id || ' ' || k),
        CASE WHEN k = 0 THEN opening END,
        CASE WHEN k = 0 THEN 'working_hours' ELSE 'queue' END,
        CASE WHEN k = 0 THEN opening END,
        ${new Date(start).toISOString()}::timestamptz
      FROM (
        SELECT a.*, CASE WHEN local_nine < ${new Date(start).toISOString()}::timestamptz
          THEN local_nine + interval '1 day' ELSE local_nine END AS opening
        FROM (SELECT *, ((${firstDay}::date + time '09:00') AT TIME ZONE timezone) AS local_nine FROM accounts
              WHERE label LIKE 'bulk %') a
      ) a, generate_series(0, ${writes - 1}) AS k
      ORDER BY a.id, k`
  })
)
console.log(`${accounts} accounts and ${accounts * writes} posts written in ${Math.round(performance.now() - written)} ms`)
await sleep(20_000)
samples.push(sample("accounts written, none due"))

const jobsDone = () => count((sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM jobs WHERE status IN ('completed', 'failed')`)
const dueAt = (nowMs: number) =>
  count((sql) =>
    sql<{ n: number }>`
      SELECT count(*)::int AS n FROM jobs
      WHERE status = 'running' OR (status = 'queued' AND waiting_reason IS NULL)
        OR (status = 'scheduled' AND waiting_until <= ${new Date(nowMs).toISOString()}::timestamptz)`
  )

let late = 0
let killedAt: number | undefined
let victimAccounts = new Set<string>()
let victimOpen: Array<string> = []
/** Those of `ids` with a job not ended. */
const withOpenWork = async (ids: ReadonlyArray<string>) => {
  const open: Array<string> = []
  for (let at = 0; at < ids.length; at += 5_000) {
    const rows = await withSql((sql) =>
      sql<{ id: string }>`
        SELECT DISTINCT account_id::text AS id FROM jobs
        WHERE account_id::text IN ${sql.in(ids.slice(at, at + 5_000))} AND status NOT IN ('completed', 'failed', 'cancelled')`
    )
    open.push(...rows.map((row) => row.id))
  }
  return open
}
let firstVictimWriteMs: number | undefined
let takeoverStepMs: number | undefined
const victim = servers[2]
const began = performance.now()
for (let now = start + STEP; now <= midnight + days * 24 * HOUR; now += STEP) {
  if (killedAt === undefined && now - midnight >= KILL_AT + STEP) {
    // The accounts this runner served, from its log; then kill -9, never restarted.
    victimAccounts = new Set([...victim.log.matchAll(/message="job completed" accountId=([0-9a-f-]+)/g)].map((line) => line[1]))
    const before = sample(`before the kill (day 1, ${new Date(now - STEP).toISOString().slice(11, 16)} UTC)`)
    samples.push(before)
    victim.child.kill("SIGKILL")
    killedAt = performance.now()
    // The takeover is timed on those of its accounts with work left: most it served are done for the day.
    victimOpen = await withOpenWork([...victimAccounts])
    console.log(`kill -9 of runner ${victim.name}: it had served ${victimAccounts.size} accounts, ${victimOpen.length} of them with work left`)
  }
  const moved = performance.now()
  await moveClock(now)
  let due = await dueAt(now)
  while (due > 0 && performance.now() - moved < LATE_AFTER_MS) {
    if (killedAt !== undefined && firstVictimWriteMs === undefined) {
      const ids = victimOpen.slice(0, 5_000)
      const done = await count((sql) =>
        sql<{ n: number }>`
          SELECT count(*)::int AS n FROM jobs WHERE account_id::text IN ${sql.in(ids)} AND status = 'completed'
            AND started_at >= ${new Date(now - STEP).toISOString()}::timestamptz`
      )
      if (done > 0) {
        firstVictimWriteMs = performance.now() - killedAt
        console.log(`  takeover: the first write of one of ${victim.name}'s accounts done on a survivor ${Math.round(firstVictimWriteMs)} ms after the kill`)
      }
    }
    await sleep(250)
    due = await dueAt(now)
  }
  late += due
  if (killedAt !== undefined && takeoverStepMs === undefined) takeoverStepMs = performance.now() - killedAt
  const hour = (now - midnight) / HOUR
  if (hour >= 0 && hour % 2 === 0) {
    samples.push(sample(`day ${Math.floor(hour / 24) + 1} ${String(hour % 24).padStart(2, "0")}:00 UTC`))
    console.log(`  ${samples[samples.length - 1].at}: ${await jobsDone()} of ${accounts * writes} posts ended, ${Math.round((performance.now() - began) / 1000)} s`)
  }
}
await sleep(20_000)
samples.push(sample("after the last day"))

const ends = await withSql((sql) =>
  sql<{ status: string; n: number }>`SELECT status, count(*)::int AS n FROM jobs GROUP BY status ORDER BY status`
)
const doubled = await count((sql) =>
  sql<{ n: number }>`SELECT count(*)::int AS n FROM (SELECT key FROM sandbox_writes WHERE NOT refused GROUP BY key HAVING count(*) > 1) twice`
)
const outsideHours = await count((sql) =>
  sql<{ n: number }>`
    SELECT count(*)::int AS n FROM jobs j JOIN accounts a ON a.id = j.account_id
    WHERE j.status = 'completed' AND ((j.started_at AT TIME ZONE a.timezone)::time < a.work_from::time
      OR (j.started_at AT TIME ZONE a.timezone)::time >= a.work_to::time)`
)
const overBudget = await count((sql) =>
  sql<{ n: number }>`
    SELECT count(*)::int AS n FROM (
      SELECT s.account_id, (s.spent_at AT TIME ZONE a.timezone)::date AS day FROM budget_spend s
      JOIN accounts a ON a.id = s.account_id WHERE s.category = 'posts'
      GROUP BY 1, 2 HAVING sum(s.units) > ${perDay}
    ) over`
)
const perHour = await withSql((sql) =>
  sql<{ hour: string; n: number }>`
    SELECT to_char(date_trunc('hour', started_at) AT TIME ZONE 'UTC', 'MM-DD HH24:00') AS hour, count(*)::int AS n
    FROM jobs WHERE status = 'completed' GROUP BY 1 ORDER BY 1`
)

console.log(`\nmemory per runner (${servers.map((server) => server.name).join(" / ")}; "-": killed)`)
console.log(`${"when".padEnd(40)} ${columns.map((name) => name.padStart(18)).join(" ")}`)
for (const taken of samples) console.log(row(taken))
clearInterval(watchPeaks)
const seconds = (ms: number) => `${Math.round(ms / 1000)} s`
for (const [i, server] of servers.entries()) {
  const lines = reports(server)
  const top = (key: keyof Reported) => Math.max(...lines.map((figures) => figures[key]).filter((mb) => !Number.isNaN(mb)))
  const atPeak = lines.reduce((most, figures) => Number.isNaN(most.rssMb) || figures.rssMb > most.rssMb ? figures : most, nothingReported)
  console.log(
    `runner ${server.name}: peak RSS ${peakRss[i].mb} MB (/proc, ${seconds(peakRss[i].atMs)} into the run); its highest report: ` +
      `RSS ${atPeak.rssMb}, heap used ${atPeak.heapMb} of ${atPeak.heapTotalMb}, external ${atPeak.externalMb} ` +
      `(buffers ${atPeak.arrayBuffersMb}) MB, ${atPeak.accounts} accounts; the most reported: heap used ${top("heapMb")}, ` +
      `heap total ${top("heapTotalMb")}, external ${top("externalMb")}, buffers ${top("arrayBuffersMb")} MB, ` +
      `${top("accounts")} accounts`
  )
}
const steady = samples.find((row) => row.at === "accounts written, none due")
if (steady !== undefined) {
  // Each runner holds about a third of the accounts.
  const perAccount = (after: ReadonlyArray<number>, before: ReadonlyArray<number>) =>
    after.map((mb, i) => ((mb - before[i]) * 1_048_576 * 3 / accounts).toFixed(0)).join(" / ")
  console.log(
    `per waiting account (bytes): heap ${perAccount(of(steady, "heapMb"), of(idle, "heapMb"))}, ` +
      `RSS ${perAccount(steady.rssMb, idle.rssMb)}`
  )
}
console.log(`\nposts started per simulated hour (UTC; budget ${perDay} a day per account, ${accounts * perDay} a day in all)`)
for (const row of perHour) console.log(`  ${row.hour}  ${row.n}`)
console.log(`\njobs by status: ${ends.map((row) => `${row.status} ${row.n}`).join(", ")}`)
console.log(
  `takeover: kill -9 of ${victim.name} (${victimAccounts.size} accounts served, ${victimOpen.length} with work left) -> first write of one of those done ` +
    `${firstVictimWriteMs === undefined ? "?" : Math.round(firstVictimWriteMs)} ms later; the step after it settled after ` +
    `${takeoverStepMs === undefined ? "?" : Math.round(takeoverStepMs)} ms`
)
const lost = ends.filter((row) => row.status !== "completed" && row.status !== "failed").reduce((sum, row) => sum + row.n, 0)
console.log(`lost (not ended) ${lost}, doubled ${doubled}, late (due ${LATE_AFTER_MS / 1000} s after the clock passed it) ${late}, outside working hours ${outsideHours}, over budget ${overBudget}`)

await Promise.all(servers.filter(alive).map((server) => stopProcess(server.child)))
await Effect.runPromise(Scope.close(scope, Exit.void))
