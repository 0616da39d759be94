/**
 * `npm run bench:queue`: the service's job queue beside graphile-worker, on
 * the same PostgreSQL server, in one run; the service on embedded PGlite too.
 *
 * - Idle pickup: one job at a time with nothing else queued, from the call
 *   that creates it to the moment it starts (the service: `Jobs.create` to
 *   the Executor starting it, its account already in memory; graphile-worker:
 *   `addJob` to its task function being called). ROUNDS jobs, p50 and p99.
 * - Burst drain: N jobs queued in the database before the workers start (the
 *   service: a restart with a backlog, its runner taking the accounts over;
 *   graphile-worker: a runner started on a full queue). Jobs per second from
 *   the first job's start to the moment the last one's completion is
 *   committed (startup is left out on both sides).
 *
 * The service's job is an `ssi` read (it spends no budget, so bursts are not
 * cut short by a daily limit) through the Governor and the sandbox network,
 * spread over 100 accounts; graphile-worker's task does nothing. Both run as
 * many jobs at once (CONCURRENCY, by default the Governor's `readConcurrency`,
 * 64); graphile-worker with its
 * batching on (a local queue one larger than that, completions batched), as its docs advise
 * for throughput.
 *
 * The drain also shows CPU per job: this process's CPU time (user + system)
 * from the first job's start to the end, over the jobs (both run in this
 * process; PostgreSQL's own CPU is not counted).
 *
 * Options: ROUNDS (default 50), BURSTS (default "1000,10000"), CONCURRENCY (default 64), ONLY (`service` or `graphile`:
 * that side alone, on PostgreSQL; `postgres`: both sides, on PostgreSQL only); LOAD (default 0: that many CPU-bound processes, `node -e "for(;;);"`,
 * run beside the whole bench, a background load); DATABASE_URL
 * (a PostgreSQL server on which fresh databases are made) for the PostgreSQL
 * rows and graphile-worker.
 */
import { Effect, Exit, Layer, Option, Redacted, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { Logger as GraphileLogger, makeWorkerUtils, run as runGraphile, runMigrations } from "graphile-worker"
import { GovernorSettings } from "../src/jobs/GovernorSettings.ts"
import { Jobs } from "../src/jobs/Jobs.ts"
import { AppConfig, type AppSettings } from "../src/platform/AppConfig.ts"
import * as Database from "../src/platform/Database.ts"
import { Workspaces } from "../src/workspaces/Workspaces.ts"
import { insertAccounts } from "../test/support/BulkAccounts.ts"
import { freshPostgresUrl } from "../test/support/TestDatabase.ts"
import { serviceLayer } from "./inProcess.ts"
import { countStatements, printStatements, startedAt, statements } from "./recorder.ts"
import { percentile, sleep, spawnProcess, tempDir } from "./support.ts"

const rounds = Number(process.env["ROUNDS"] ?? "50")
const bursts = (process.env["BURSTS"] ?? "1000,10000").split(",").map(Number)
const serverUrl = process.env["DATABASE_URL"]
/** `service` or `graphile`: measure only that side; `postgres`: both, on PostgreSQL only (PGlite left out). */
const only = process.env["ONLY"]
/** Jobs run at once, on both sides (the Governor's `readConcurrency`, graphile-worker's `concurrency`). */
const concurrency = Number(process.env["CONCURRENCY"] ?? GovernorSettings.defaultValue().readConcurrency)
const accountCount = 100
/**
 * How often a drain looks whether it is done, on both sides. Each look is a statement and CPU of this process,
 * counted in the CPU per job: every 5 ms it was up to 130 µs a job in a slow drain. The end is known to 20 ms.
 */
const drainLookMs = 20

const progress = (line: string) => process.stderr.write(`  ${line}\n`)

/** A burst's drain: jobs a second, and CPU µs of this process per job. */
interface Drain {
  readonly perSecond: number
  readonly cpuUsPerJob: number
}

interface Row {
  readonly label: string
  readonly pickupP50: number
  readonly pickupP99: number
  readonly drains: ReadonlyArray<Drain>
}

/** This process's CPU time so far (user + system), µs. */
const cpuUs = () => {
  const used = process.cpuUsage()
  return used.user + used.system
}

const load = Number(process.env["LOAD"] ?? "0")
const loaders = Array.from({ length: load }, () => spawnProcess(["-e", "for(;;);"], {}))

// ---------------------------------------------------------------------------
// The service

interface Backend {
  readonly name: string
  /** The database's settings for a new service on it. */
  readonly settings: Partial<AppSettings>
}

const configOf = (backend: Backend) => AppConfig.layerWith({ clock: "test", inboxSync: false, ...backend.settings })
const serviceOn = (backend: Backend) =>
  serviceLayer(backend.settings).pipe(
    Layer.provide(Layer.succeed(GovernorSettings, { ...GovernorSettings.defaultValue(), readConcurrency: concurrency }))
  )

/** A workspace with 100 accounts, made by the service itself. */
const seedAccounts = (backend: Backend) =>
  Effect.gen(function*() {
    const { workspace } = yield* (yield* Workspaces).create({ name: "bench queue" })
    const accounts = yield* insertAccounts(workspace.id, accountCount)
    return { workspaceId: workspace.id, accounts }
  }).pipe(Effect.provide(serviceOn(backend)))

const doneCount = (workspaceId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ done: number }>`
      SELECT count(*)::int AS done FROM jobs
      WHERE workspace_id = ${workspaceId} AND status IN ('completed', 'failed', 'cancelled')`
    return rows[0]?.done ?? 0
  }).pipe(Effect.orDie)

/** Jobs in the database that no server has been told of, what a restart finds; the jobs finished before them. */
const queueJobs = (backend: Backend, workspaceId: string, count: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const before = yield* doneCount(workspaceId)
    yield* sql`
      INSERT INTO jobs (id, workspace_id, account_id, kind, is_write, origin, status, input, created_at)
      SELECT gen_random_uuid(), ${workspaceId}, a.id, 'ssi', false, 'api', 'queued', '{}'::jsonb, now()
      FROM generate_series(1, ${count}) AS n
      JOIN LATERAL (SELECT id FROM accounts WHERE workspace_id = ${workspaceId} ORDER BY id
                    OFFSET (n % ${accountCount}) LIMIT 1) a ON true`
    return before
  }).pipe(Effect.provide(Database.layer), Effect.provide(configOf(backend)), Effect.orDie)

/** The service taking a backlog of `count` jobs over, started afresh; jobs per second once the first started. */
const serviceDrain = (backend: Backend, workspaceId: string, count: number) =>
  Effect.gen(function*() {
    const before = yield* queueJobs(backend, workspaceId, count)
    startedAt.clear()
    return yield* Effect.scoped(Effect.gen(function*() {
      countStatements()
      const service = yield* Layer.build(serviceOn(backend))
      let cpuAtFirst: number | undefined
      while ((yield* Effect.provide(doneCount(workspaceId), service)) < before + count) {
        if (cpuAtFirst === undefined && startedAt.size > 0) cpuAtFirst = cpuUs()
        yield* Effect.promise(() => sleep(drainLookMs))
      }
      const end = performance.now()
      const cpu = cpuUs() - (cpuAtFirst ?? cpuUs())
      statements.counting = false
      printStatements(`service, ${backend.name}, burst of ${count}`, count)
      const first = Math.min(...startedAt.values())
      const drain: Drain = { perSecond: count / ((end - first) / 1000), cpuUsPerJob: cpu / count }
      return drain
    }))
  })

const servicePickup = (backend: Backend, workspaceId: string, accounts: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const jobs = yield* Jobs
    const pickups: Array<number> = []
    // Every account in memory first, as an account with recent work is.
    for (const accountId of accounts) {
      const job = yield* jobs.create({ workspaceId, accountId, command: "ssi", input: {} })
      yield* jobs.get(workspaceId, job.id, 10)
    }
    for (let round = 0; round < rounds; round++) {
      const before = performance.now()
      const job = yield* jobs.create({ workspaceId, accountId: accounts[round % accounts.length], command: "ssi", input: {} })
      yield* jobs.get(workspaceId, job.id, 10)
      const start = startedAt.get(job.id)
      if (start !== undefined) pickups.push(start - before)
    }
    return pickups
  }).pipe(Effect.provide(serviceOn(backend)), Effect.orDie)

const serviceRow = (backend: Backend) =>
  Effect.gen(function*() {
    progress(`service, ${backend.name}: idle pickup, ${rounds} rounds`)
    const { accounts, workspaceId } = yield* seedAccounts(backend)
    const pickups = yield* servicePickup(backend, workspaceId, accounts)
    const drains: Array<Drain> = []
    for (const count of bursts) {
      progress(`service, ${backend.name}: burst of ${count}`)
      drains.push(yield* serviceDrain(backend, workspaceId, count))
    }
    const row: Row = { label: `service, ${backend.name}`, pickupP50: percentile(pickups, 50), pickupP99: percentile(pickups, 99), drains }
    return row
  })

// ---------------------------------------------------------------------------
// graphile-worker

const graphileRow = async (connectionString: string): Promise<Row> => {
  await runMigrations({ connectionString, logger: quietLogger })
  const utils = await makeWorkerUtils({ connectionString, logger: quietLogger })
  /** When the first task of a run started, and who waits to hear of the next start. */
  let firstStart: number | undefined
  let cpuAtFirst: number | undefined
  let waiting: ((at: number) => void) | undefined
  const startRunner = () =>
    runGraphile({
      connectionString,
      concurrency,
      noHandleSignals: true,
      pollInterval: 2000,
      logger: quietLogger,
      preset: { worker: { localQueue: { size: concurrency + 1 }, completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
      taskList: {
        ssi: async () => {
          const at = performance.now()
          firstStart ??= at
          cpuAtFirst ??= cpuUs()
          waiting?.(at)
        }
      }
    })
  const remaining = async () => {
    const rows = await utils.withPgClient((client) => client.query("SELECT count(*)::int AS n FROM graphile_worker.jobs"))
    return Number(rows.rows[0]?.n ?? 0)
  }
  progress(`graphile-worker: idle pickup, ${rounds} rounds`)
  const runner = await startRunner()
  const pickups: Array<number> = []
  for (let round = 0; round < rounds + accountCount; round++) {
    const begun = new Promise<number>((resolve) => {
      waiting = resolve
    })
    const before = performance.now()
    await utils.addJob("ssi", {})
    const at = await begun
    // Its first 100 warm it up, as the service's accounts are warmed.
    if (round >= accountCount) pickups.push(at - before)
    while ((await remaining()) > 0) await sleep(1)
  }
  waiting = undefined
  await runner.stop()
  const drains: Array<Drain> = []
  for (const count of bursts) {
    progress(`graphile-worker: burst of ${count}`)
    for (let from = 0; from < count; from += 1000) {
      await utils.addJobs(Array.from({ length: Math.min(1000, count - from) }, () => ({ identifier: "ssi", payload: {} })))
    }
    firstStart = undefined
    cpuAtFirst = undefined
    const drainer = await startRunner()
    while ((await remaining()) > 0) await sleep(drainLookMs)
    const end = performance.now()
    drains.push({ perSecond: count / ((end - (firstStart ?? end)) / 1000), cpuUsPerJob: (cpuUs() - (cpuAtFirst ?? cpuUs())) / count })
    await drainer.stop()
  }
  await utils.release()
  return { label: "graphile-worker 0.18 (baseline)", pickupP50: percentile(pickups, 50), pickupP99: percentile(pickups, 99), drains }
}

const quietLogger = new GraphileLogger(() => (level: string, message: string) => {
  if (level === "error") progress(`graphile-worker: ${message}`)
})

// ---------------------------------------------------------------------------

const print = (rows: ReadonlyArray<Row>) => {
  const baseline = rows.find((row) => row.label.startsWith("graphile"))
  const headers = [
    "pickup p50 ms",
    "pickup p99 ms",
    ...bursts.map((n) => `drain ${n}/s`),
    ...bursts.map((n) => `cpu µs/job ${n}`),
    "p50 vs base",
    ...bursts.map((n) => `${n} vs base`)
  ]
  const background = load === 0 ? "no background load" : `background load: ${load} CPU-bound processes (node -e "for(;;);")`
  console.log(`\nJob queue: idle pickup over ${rounds} jobs; burst drain of queued jobs (${concurrency} at once); ${background}`)
  console.log("".padEnd(34) + headers.map((h) => h.padStart(15)).join(""))
  for (const row of rows) {
    const ratio = (value: number, base: number | undefined) => base === undefined ? "-" : (value / base).toFixed(2)
    const cells = [
      row.pickupP50.toFixed(2),
      row.pickupP99.toFixed(2),
      ...row.drains.map((drain) => drain.perSecond.toFixed(0)),
      ...row.drains.map((drain) => drain.cpuUsPerJob.toFixed(0)),
      ratio(row.pickupP50, baseline?.pickupP50),
      ...row.drains.map((drain, index) => ratio(drain.perSecond, baseline?.drains[index]?.perSecond))
    ]
    console.log(row.label.padEnd(34) + cells.map((c) => c.padStart(15)).join(""))
  }
}

const rows: Array<Row> = []
const scope = Effect.runSync(Scope.make())
if (serverUrl !== undefined && serverUrl !== "") {
  const graphileDb = await Effect.runPromise(Scope.provide(freshPostgresUrl(serverUrl), scope))
  if (only !== "service") rows.push(await graphileRow(graphileDb))
  const serviceDb = await Effect.runPromise(Scope.provide(freshPostgresUrl(serverUrl), scope))
  if (only !== "graphile") rows.push(await Effect.runPromise(serviceRow({ name: "PostgreSQL", settings: { databaseUrl: Option.some(Redacted.make(serviceDb)) } })))
}
if (only === undefined) {
  const data = tempDir("outreach-bench-queue-")
  rows.push(await Effect.runPromise(serviceRow({ name: "embedded PGlite", settings: { dataDir: data.path } })))
  data.dispose()
}
print(rows)
if (serverUrl === undefined || serverUrl === "") console.log("(set DATABASE_URL to measure graphile-worker and the service on PostgreSQL)")
await Effect.runPromise(Scope.close(scope, Exit.void))
for (const loader of loaders) loader.kill("SIGKILL")
