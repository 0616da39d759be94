/**
 * `npm run bench:cluster`: three servers on one PostgreSQL database (the
 * server at `DATABASE_URL`; a fresh database is made on it).
 *
 * - Pickup: a read job created on one server, run by the server that owns its
 *   account. From `createdAt` to `startedAt` (both stamped by the service),
 *   across servers (the job travelled as an entity message), beside the same
 *   on the owner itself (the baseline, in the same run).
 * - Failover: the owner of an account is killed with SIGKILL; a write for that
 *   account is created on a survivor at once. From the kill to the write's
 *   `startedAt` on its new owner.
 *
 * - Many accounts (`ACCOUNTS=100000`): that many accounts, each with one read
 *   job, written straight into the database; the servers take them over, run
 *   every job, and the bench prints how long that took and each server's
 *   resident memory with the accounts in memory and after they left it
 *   (`OUTREACH_ACCOUNT_IDLE_TIME` is 10 s here).
 *
 * Which server ran a job is read from the servers' logs (`job completed` with
 * its `jobId`). Options: `ROUNDS` (jobs for pickup, default 60), `ACCOUNTS`
 * (default 0: that part is skipped).
 */
import { Effect, Exit, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { insertAccounts } from "../test/support/BulkAccounts.ts"
import { strangers } from "../test/jobs/support.ts"
import { freshPostgresUrl, pgLayer } from "../test/support/TestDatabase.ts"
import { call, type Server, startServer } from "./servers.ts"
import { percentile, residentMemory, stopProcess } from "./support.ts"

const serverUrl = process.env["DATABASE_URL"]
if (serverUrl === undefined || serverUrl === "") {
  console.error("bench:cluster needs DATABASE_URL: a PostgreSQL server on which it makes a fresh database")
  process.exit(2)
}
// Five accounts (a workspace's seats) share the rounds: 12 profile reads each stay within a day's budget.
const rounds = Number(process.env["ROUNDS"] ?? "60")
const manyAccounts = Number(process.env["ACCOUNTS"] ?? "0")
const alwaysOpen = { days: [1, 2, 3, 4, 5, 6, 7], from: "00:00", to: "23:59", timezone: "UTC" }

// A fresh database, dropped when the bench ends.
const scope = Effect.runSync(Scope.make())
const database = await Effect.runPromise(freshPostgresUrl(serverUrl).pipe(Scope.provide(scope)))

const start = (name: string) => startServer(name, database, { OUTREACH_ACCOUNT_IDLE_TIME: "10 seconds" })

const connect = async (server: Server, label: string): Promise<string> => {
  const created = await call(server, "POST", "/v1/accounts/connect", { label })
  const id: string = created.account.id
  await call(server, "POST", `/v1/sandbox/accounts/${id}/complete-connection`, { tier: "premium", connections: 900 })
  await call(server, "PATCH", `/v1/accounts/${id}`, { mode: "autopilot", minInviteQuality: 0, workingHours: alwaysOpen })
  return id
}

/** The server that ran the job: the one that logged its ending. */
const ownerOf = (servers: ReadonlyArray<Server>, jobId: string) =>
  servers.find((server) =>
    server.log.split("\n").some((line) => line.includes(`jobId=${jobId}`) && /message="job (completed|failed)"/.test(line))
  )

console.log(`starting 3 servers on ${database.replace(/\/\/[^@]*@/, "//")}`)
const servers = [await start("A"), await start("B"), await start("C")]
// The shards are split once every runner has joined and the others saw it.
await new Promise((resolve) => setTimeout(resolve, 8_000))
const accounts: Array<string> = []
// A workspace has 5 seats.
for (let i = 0; i < 5; i++) accounts.push(await connect(servers[0], `bench-${i}`))
const people = new Map(accounts.map((id) => [id, strangers(id, rounds, "bench-cluster")]))

const cross: Array<number> = []
const same: Array<number> = []
const ownerOfAccount = new Map<string, Server>()
for (let round = 0; round < rounds; round++) {
  const accountId = accounts[round % accounts.length]
  const via = servers[round % servers.length]
  const person = people.get(accountId)?.[Math.floor(round / accounts.length)] ?? ""
  const created = (await call(via, "POST", `/v1/accounts/${accountId}/get_profile`, { person })).job
  const job = (await call(via, "GET", `/v1/jobs/${created.id}?wait=10`)).job
  if (job.status !== "completed" || job.startedAt === null) throw new Error(`job ${created.id}: ${JSON.stringify(job)}`)
  const pickup = Date.parse(job.startedAt) - Date.parse(job.createdAt)
  // The owner's log line may trail its answer by a moment.
  let owner = ownerOf(servers, created.id)
  for (let tries = 0; owner === undefined && tries < 50; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 20))
    owner = ownerOf(servers, created.id)
  }
  if (owner === undefined) throw new Error(`no server logged job ${created.id}`)
  ownerOfAccount.set(accountId, owner)
  ;(owner === via ? same : cross).push(pickup)
}

const row = (label: string, values: ReadonlyArray<number>) =>
  `${label.padEnd(44)} ${String(values.length).padStart(5)} ${String(percentile(values, 50)).padStart(8)} ${
    String(percentile(values, 99)).padStart(8)
  }`
console.log(`\npickup: createdAt -> startedAt of a read (ms), ${rounds} jobs, one at a time`)
console.log(`${"".padEnd(44)} ${"jobs".padStart(5)} ${"p50".padStart(8)} ${"p99".padStart(8)}`)
console.log(row("created on another server (entity message)", cross))
console.log(row("baseline: created on the owner", same))

if (manyAccounts > 0) {
  const me = await call(servers[0], "GET", "/v1/me")
  const withSql = <A>(statement: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
    Effect.runPromise(Effect.gen(function*() {
      return yield* statement(yield* SqlClient.SqlClient)
    }).pipe(Effect.provide(pgLayer(database)), Effect.orDie))
  const before = servers.map((server) => residentMemory(server.child.pid).rssMb)
  const started = performance.now()
  await withSql((sql) =>
    Effect.andThen(
      insertAccounts(me.orgId, manyAccounts).pipe(Effect.provideService(SqlClient.SqlClient, sql)),
      sql`
        INSERT INTO jobs (id, workspace_id, account_id, kind, is_write, origin, status, input, created_at)
        SELECT gen_random_uuid(), workspace_id, id, 'ssi', false, 'api', 'queued', '{}'::jsonb, now()
        FROM accounts WHERE label LIKE 'bulk %'`
    )
  )
  console.log(`\n${manyAccounts} accounts with a read job each written in ${Math.round(performance.now() - started)} ms; the servers take them over`)
  const open = () =>
    withSql((sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM jobs WHERE status NOT IN ('completed', 'failed', 'cancelled')`)
  let peak = before
  for (let polls = 1;; polls++) {
    const [{ n }] = await open()
    const now = servers.map((server) => residentMemory(server.child.pid).rssMb)
    peak = now.map((mb, i) => Math.max(peak[i], mb))
    if (n === 0) break
    if (polls % 15 === 0) {
      const seconds = Math.round((performance.now() - started) / 1000)
      console.log(`  ${seconds} s: ${manyAccounts - n} of ${manyAccounts} done (${Math.round((manyAccounts - n) / seconds)}/s); resident MB ${now.join(" / ")}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000))
  }
  const drained = Math.round((performance.now() - started) / 1000)
  await new Promise((resolve) => setTimeout(resolve, 25_000))
  const after = servers.map((server) => residentMemory(server.child.pid).rssMb)
  console.log(`every job ran within ${drained} s (${Math.round(manyAccounts / drained)} accounts/s over 3 servers)`)
  console.log(`resident MB per server: before ${before.join(" / ")}; peak ${peak.join(" / ")}; once the accounts left memory ${after.join(" / ")}`)
}

// Failover: kill the owner of an account, then ask a survivor for a write on it.
const orphan = accounts[0]
const victim = ownerOfAccount.get(orphan)
const survivor = servers.find((server) => server !== victim)
if (victim === undefined || survivor === undefined) throw new Error("no owner seen for the first account")
const killedAt = Date.now()
victim.child.kill("SIGKILL")
const [invitee] = strangers(orphan, 1, "bench-failover")
const write = (await call(survivor, "POST", `/v1/accounts/${orphan}/connect`, { person: invitee })).job
const finished = async () => (await call(survivor, "GET", `/v1/jobs/${write.id}?wait=60`)).job
let done = await finished()
while (done.status !== "completed" && done.status !== "failed") {
  console.log(`  the write is ${done.status}${done.waitingFor ? ` (${JSON.stringify(done.waitingFor)})` : ""}`)
  done = await finished()
}
const newOwner = ownerOf(servers, write.id)?.name ?? "?"
console.log(
  `\nfailover: kill -9 of ${victim.name} -> first write of its account started on ${newOwner}: ` +
    `${Date.parse(done.startedAt) - killedAt} ms (${done.status})`
)

await Promise.all(servers.filter((server) => server !== victim).map((server) => stopProcess(server.child)))
await Effect.runPromise(Scope.close(scope, Exit.void))
