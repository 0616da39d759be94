/**
 * `npm run bench:governor`: jobs through the Governor for N accounts in
 * autopilot (1,000 and 10,000 by default), M writes each, on the service's
 * test clock (pacing gaps and working hours cost no real time), beside the
 * same jobs through a bare in-memory queue per account. Runs on embedded
 * PGlite, and also on PostgreSQL when DATABASE_URL is set.
 *
 * Figures: jobs per second from the first create to the last completion;
 * create-to-start latency (real time, for the jobs that could start at once:
 * each account's first, inside working hours with budget and no pacing
 * wait); heap per account once every account has its idle actor; event-loop
 * delay (p50, p99, max) while the jobs run.
 *
 * Options: BENCH_ACCOUNTS (default "1000,10000"), BENCH_JOBS_PER_ACCOUNT (default 1, so that
 * 10,000 accounts on PGlite finish in about three minutes; 2 or more also drives the pacing gap
 * between writes of one account, 3 or more the daily posts budget of 2, which waits for the next day).
 */
import { monitorEventLoopDelay } from "node:perf_hooks"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { Effect, Option, Queue, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { PACING_MAX_MS } from "../src/domain/Job.ts"
import { Jobs } from "../src/jobs/Jobs.ts"
import { ServiceClock } from "../src/platform/ServiceClock.ts"
import { Workspaces } from "../src/workspaces/Workspaces.ts"
import { insertAccounts } from "../test/support/BulkAccounts.ts"
import { freshPostgresUrl } from "../test/support/TestDatabase.ts"
import { serviceLayer } from "./inProcess.ts"
import { countStatements, printStatements, startedAt, statements } from "./recorder.ts"
import { percentile, sleep, tempDir } from "./support.ts"

setFlagsFromString("--expose-gc")
const gc: () => void = runInNewContext("gc")

const sizes = (process.env["BENCH_ACCOUNTS"] ?? "1000,10000").split(",").map(Number)
const perAccount = Number(process.env["BENCH_JOBS_PER_ACCOUNT"] ?? 1)

interface Row {
  readonly label: string
  readonly jobs: number
  readonly jobsPerSecond: number
  readonly startP50: number
  readonly startP99: number
  readonly heapPerAccountKb: number
  readonly lagP50: number
  readonly lagP99: number
  readonly lagMax: number
  /** Database round trips per job, from its create to its completion event (NaN for the baseline). */
  readonly statementsPerJob: number
  /** Of the sandbox network's own tables, per job (not the service's). */
  readonly networkStatementsPerJob: number
}

const heapNow = (): number => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

/** A table row from what a run measured; the heap is read now, after the run. */
const rowOf = (
  label: string,
  accounts: number,
  measured: { readonly result: number; readonly lagP50: number; readonly lagP99: number; readonly lagMax: number },
  startLatencies: ReadonlyArray<number>,
  heapBefore: number,
  statementCount = Number.NaN,
  networkCount = Number.NaN
): Row => ({
  label,
  jobs: accounts * perAccount,
  jobsPerSecond: (accounts * perAccount) / measured.result,
  startP50: percentile(startLatencies, 50),
  startP99: percentile(startLatencies, 99),
  heapPerAccountKb: (heapNow() - heapBefore) / accounts / 1024,
  lagP50: measured.lagP50,
  lagP99: measured.lagP99,
  lagMax: measured.lagMax,
  statementsPerJob: statementCount / (accounts * perAccount),
  networkStatementsPerJob: networkCount / (accounts * perAccount)
})

const progress = (line: string) => process.stderr.write(`  ${line}\n`)

const lagResolutionMs = 1

/**
 * Event-loop delay while `work` runs, in milliseconds. The histogram records the time between the
 * ticks of a `lagResolutionMs` timer, so an idle loop reads as the resolution: it is taken off.
 */
const withLag = <A, E, R>(work: Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const histogram = monitorEventLoopDelay({ resolution: lagResolutionMs })
      histogram.enable()
      return histogram
    }),
    (histogram) =>
      Effect.map(work, (result) => {
        const delay = (nanoseconds: number) =>
          histogram.count === 0 ? Number.NaN : Math.max(0, nanoseconds / 1e6 - lagResolutionMs)
        return {
          result,
          lagP50: delay(histogram.percentile(50)),
          lagP99: delay(histogram.percentile(99)),
          lagMax: delay(histogram.max)
        }
      }),
    (histogram) => Effect.sync(() => histogram.disable())
  )

/** How far the workspace's jobs are: finished, running, and the earliest eta of those scheduled. */
const progressOf = (workspaceId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ done: number; running: number; nextEta: number | null }>`
      SELECT count(*) FILTER (WHERE status IN ('completed', 'failed', 'cancelled'))::int AS done,
             count(*) FILTER (WHERE status = 'running')::int AS running,
             (extract(epoch FROM min(eta) FILTER (WHERE status = 'scheduled')) * 1000)::float8 AS "nextEta"
      FROM jobs WHERE workspace_id = ${workspaceId}`
    return rows[0]
  }).pipe(Effect.orDie)


const governorRun = (label: string, accounts: number) =>
  Effect.gen(function*() {
    startedAt.clear()
    const { workspace } = yield* (yield* Workspaces).create({ name: `bench ${accounts}` })
    const ids = yield* insertAccounts(workspace.id, accounts)
    progress(`${label}: ${accounts} accounts set up`)
    const heapBefore = heapNow()
    const jobs = yield* Jobs
    const clock = yield* ServiceClock
    const total = accounts * perAccount
    const createdAt = new Map<string, number>()
    const firsts = new Set<string>()

    countStatements()
    const measured = yield* withLag(Effect.gen(function*() {
      const began = performance.now()
      for (let round = 0; round < perAccount; round++) {
        yield* Effect.forEach(ids, (accountId) =>
          Effect.gen(function*() {
            const before = performance.now()
            const job = yield* jobs.create({
              workspaceId: workspace.id,
              accountId,
              command: "create_post",
              input: { text: `Bench post ${round}` }
            })
            createdAt.set(job.id, before)
            if (round === 0) firsts.add(job.id)
          }).pipe(Effect.orDie), { concurrency: 32, discard: true })
        progress(`${label}: created ${(round + 1) * accounts}/${total} jobs`)
      }
      // Once nothing runs or finishes and every scheduled job waits for a time still ahead, move the test
      // clock past every pacing gap, or to the earliest eta when that is later (a used-up daily budget).
      let last = -1
      while (true) {
        const { done, running, nextEta } = yield* progressOf(workspace.id)
        if (done >= total) break
        const now = yield* clock.now
        if (done === last && running === 0 && nextEta !== null && nextEta > now) {
          const moved = yield* Effect.orDie(clock.setTo(Math.max(nextEta, now + PACING_MAX_MS + 1)))
          progress(`${label}: ${done}/${total} jobs finished; clock moved ${((moved - now) / 1000).toFixed(0)} s`)
        }
        last = done
        yield* Effect.promise(() => sleep(50))
      }
      return (performance.now() - began) / 1000
    }))
    statements.counting = false
    // The bench's own progress query is not the service's.
    const own = [...statements.byText].filter(([text]) => text.includes("FILTER (WHERE status IN")).reduce((n, [, c]) => n + c, 0)
    printStatements(label, total)
    const latencies = [...firsts].flatMap((id) => {
      const start = startedAt.get(id)
      const created = createdAt.get(id)
      return start === undefined || created === undefined ? [] : [start - created]
    })
    return rowOf(label, accounts, measured, latencies, heapBefore, statements.service - own, statements.network)
  })

/** The same jobs through one bare in-memory queue and fiber per account: the floor of the machinery. */
const baselineRun = (accounts: number) =>
  Effect.gen(function*() {
    const heapBefore = heapNow()
    const total = accounts * perAccount
    const starts: Array<number> = []
    let finished = 0
    const queues = yield* Effect.forEach(Array.from({ length: accounts }), () =>
      Effect.gen(function*() {
        const queue = yield* Queue.unbounded<{ readonly createdAt: number; readonly first: boolean }>()
        yield* Queue.take(queue).pipe(
          Effect.tap((job) =>
            Effect.sync(() => {
              if (job.first) starts.push(performance.now() - job.createdAt)
              finished++
            })
          ),
          Effect.forever,
          Effect.forkScoped
        )
        return queue
      }))
    const measured = yield* withLag(Effect.gen(function*() {
      const began = performance.now()
      for (let round = 0; round < perAccount; round++) {
        for (const queue of queues) yield* Queue.offer(queue, { createdAt: performance.now(), first: round === 0 })
      }
      while (finished < total) yield* Effect.yieldNow
      return (performance.now() - began) / 1000
    }))
    return rowOf("bare in-memory queue (baseline)", accounts, measured, starts, heapBefore)
  }).pipe(Effect.scoped)

/** The service on its own database and test clock, with the recorder as tracer. */
const serviceOn = (databaseUrl: string | undefined, dataDir: string) =>
  serviceLayer({
    dataDir,
    databaseUrl: databaseUrl === undefined ? Option.none() : Option.some(Redacted.make(databaseUrl))
  })

const onBackend = (name: string, databaseUrl: string | undefined, accounts: number) =>
  Effect.acquireUseRelease(
    Effect.sync(() => tempDir("outreach-bench-governor-")),
    (data) => governorRun(`Governor, ${name}`, accounts).pipe(Effect.provide(serviceOn(databaseUrl, data.path))),
    (data) => Effect.sync(() => data.dispose())
  )

// No tick of the delay timer in the whole run: it never let the event loop turn.
const lagCell = (ms: number) => Number.isNaN(ms) ? "n/a" : ms.toFixed(1)

const printRows = (title: string, rows: ReadonlyArray<Row>) => {
  const baseline = rows[0]
  const headers = ["jobs", "stmts/job", "network/job", "jobs/s", "start p50 ms", "start p99 ms", "heap/acct KB", "lag p50 ms", "lag p99 ms", "lag max ms", "jobs/s vs base"]
  console.log(`\n${title}`)
  console.log("".padEnd(34) + headers.map((h) => h.padStart(15)).join(""))
  for (const row of rows) {
    const cells = [
      String(row.jobs),
      Number.isNaN(row.statementsPerJob) ? "-" : row.statementsPerJob.toFixed(1),
      Number.isNaN(row.networkStatementsPerJob) ? "-" : row.networkStatementsPerJob.toFixed(1),
      row.jobsPerSecond.toFixed(0),
      row.startP50.toFixed(2),
      row.startP99.toFixed(2),
      row.heapPerAccountKb.toFixed(2),
      lagCell(row.lagP50),
      lagCell(row.lagP99),
      lagCell(row.lagMax),
      (row.jobsPerSecond / baseline.jobsPerSecond).toFixed(3)
    ]
    console.log(row.label.padEnd(34) + cells.map((c) => c.padStart(15)).join(""))
  }
}

const databaseUrl = process.env["DATABASE_URL"]
const program = Effect.gen(function*() {
  for (const accounts of sizes) {
    const rows: Array<Row> = [yield* baselineRun(accounts)]
    rows.push(yield* onBackend("embedded PGlite", undefined, accounts))
    if (databaseUrl !== undefined && databaseUrl !== "") {
      rows.push(yield* Effect.scoped(Effect.flatMap(
        Effect.orDie(freshPostgresUrl(databaseUrl)),
        (url) => onBackend("PostgreSQL", url, accounts)
      )))
    }
    printRows(`${accounts} accounts x ${perAccount} writes (create_post), autopilot, test clock`, rows)
  }
  if (databaseUrl === undefined || databaseUrl === "") {
    console.log("(set DATABASE_URL to also measure the Governor on a PostgreSQL server)")
  }
})

await Effect.runPromise(program)
