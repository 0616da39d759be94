/**
 * `npm run bench:scaling`: the same backlog drained by 1, 2 and 3 servers on
 * one PostgreSQL server (a fresh database for each count; `DATABASE_URL`).
 *
 * For each count the servers start, and once the cluster has spread its
 * shards over them, JOBS `ssi` reads (no budget) over 300 accounts are
 * written into the database and every account is told it changed (a `PATCH`,
 * round-robin over the servers), as after a restart with a backlog: each
 * account's owner runs its reads. Printed: jobs per second from the first
 * start to the last finish (service timestamps), and p50/p99 of each job's
 * time from the moment the accounts were told to its finish, with how many
 * jobs each server ran (from its log) and the 1-server row as the baseline.
 *
 * Options: JOBS (default 10000), RUNNERS (default "1,2,3").
 */
import { Effect, Exit, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { insertAccounts } from "../test/support/BulkAccounts.ts"
import { freshPostgresUrl, pgLayer } from "../test/support/TestDatabase.ts"
import { call, type Server, startServer } from "./servers.ts"
import { percentile, sleep, stopProcess } from "./support.ts"

const serverUrl = process.env["DATABASE_URL"]
if (serverUrl === undefined || serverUrl === "") {
  console.error("bench:scaling needs DATABASE_URL: a PostgreSQL server on which it makes fresh databases")
  process.exit(2)
}
const jobs = Number(process.env["JOBS"] ?? "10000")
const counts = (process.env["RUNNERS"] ?? "1,2,3").split(",").map(Number)
const accountCount = 300
const progress = (line: string) => process.stderr.write(`  ${line}\n`)

interface Row {
  readonly runners: number
  readonly jobsPerSecond: number
  readonly p50: number
  readonly p99: number
  readonly shares: ReadonlyArray<number>
}

const measure = async (runners: number): Promise<Row> => {
  const scope = Effect.runSync(Scope.make())
  try {
    const database = await Effect.runPromise(Scope.provide(freshPostgresUrl(serverUrl), scope))
    const withSql = <A>(statement: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
      Effect.runPromise(Effect.gen(function*() {
        return yield* statement(yield* SqlClient.SqlClient)
      }).pipe(Effect.provide(pgLayer(database)), Effect.orDie))
    const servers: Array<Server> = []
    for (let i = 0; i < runners; i++) servers.push(await startServer(String.fromCharCode(65 + i), database))
    try {
      // Shards are split once every runner has joined and the others saw it.
      if (runners > 1) await sleep(10_000)
      const me = await call(servers[0], "GET", "/v1/me")
      const accounts = await withSql((sql) => insertAccounts(me.orgId, accountCount).pipe(Effect.provideService(SqlClient.SqlClient, sql)))
      await withSql((sql) =>
        sql`
          INSERT INTO jobs (id, workspace_id, account_id, kind, is_write, origin, status, input, created_at)
          SELECT gen_random_uuid(), ${me.orgId}, (${JSON.stringify(accounts)}::jsonb ->> (n % ${accountCount}))::uuid,
            'ssi', false, 'api', 'queued', '{}'::jsonb, now()
          FROM generate_series(1, ${jobs}) AS n`
      )
      progress(`${runners} server(s): ${jobs} jobs queued over ${accountCount} accounts; telling the accounts`)
      const told = Date.now()
      await Promise.all(accounts.map((id, i) => call(servers[i % runners], "PATCH", `/v1/accounts/${id}`, { label: `bulk ${i}` })))
      while (true) {
        const [{ open }] = await withSql((sql) =>
          sql<{ open: number }>`SELECT count(*)::int AS open FROM jobs WHERE status NOT IN ('completed', 'failed', 'cancelled')`
        )
        if (open === 0) break
        await sleep(100)
      }
      const rows = await withSql((sql) =>
        sql<{ started: number; finished: number }>`
          SELECT (extract(epoch FROM started_at) * 1000)::float8 AS started, (extract(epoch FROM finished_at) * 1000)::float8 AS finished
          FROM jobs WHERE kind = 'ssi'`
      )
      const first = Math.min(...rows.map((row) => row.started))
      const last = Math.max(...rows.map((row) => row.finished))
      const waits = rows.map((row) => row.finished - told)
      const shares = servers.map((server) => server.log.split("\n").filter((line) => line.includes('message="job completed"')).length)
      return { runners, jobsPerSecond: jobs / ((last - first) / 1000), p50: percentile(waits, 50), p99: percentile(waits, 99), shares }
    } finally {
      await Promise.all(servers.map((server) => stopProcess(server.child)))
    }
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

const rows: Array<Row> = []
for (const runners of counts) rows.push(await measure(runners))
const baseline = rows[0]
console.log(`\nScaling: ${jobs} queued reads over ${accountCount} accounts, drained by N servers on one PostgreSQL`)
console.log(["servers", "jobs/s", "vs 1 server", "p50 ms", "p99 ms", "jobs per server"].map((h, i) => i === 0 ? h.padEnd(10) : h.padStart(16)).join("  "))
for (const row of rows) {
  console.log(
    String(row.runners).padEnd(10) +
      [row.jobsPerSecond.toFixed(0), (row.jobsPerSecond / baseline.jobsPerSecond).toFixed(2), row.p50.toFixed(0), row.p99.toFixed(0), row.shares.join(" / ")]
        .map((c) => c.padStart(16)).join("  ")
  )
}
