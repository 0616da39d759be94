/**
 * The chaos suite's harness: real `node src/main.ts` servers on a PostgreSQL
 * server of the suite's own, on the sandbox network and the sandbox test
 * clock, a workload of writes on 20 autopilot accounts, and the counts that
 * tell whether the service kept its promises through `kill -9`s and database
 * crashes: nothing acknowledged is lost, no write reaches the network twice,
 * nothing is left unfinished, and every `job.*` event is delivered.
 *
 * The harness owns the test clock: it moves every live server's clock to the
 * same instant (`POST /v1/sandbox/clock {to}`; each process keeps its own
 * test clock and reads the database's only at start), by one to two minutes
 * a step (the pacing gap between two writes of an account), or straight to
 * the next due time when every account waits for a later one or the last
 * step ended no job.
 */
import { randomBytes, randomInt } from "node:crypto"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { createServer } from "node:http"
import { Deferred, Duration, Effect, Exit, Fiber, Layer, Schedule, type Scope } from "effect"
import { SqlClient } from "effect/sql"
import type { WriteCommand } from "../../../src/domain/Commands.ts"
import { verifyWebhook } from "../../../src/webhooks/Receiver.ts"
import { ownPostgres, postgresBin } from "../../support/OwnPostgres.ts"
import { cli, freePort, type Running, send, startServer } from "../../support/Processes.ts"
import { pgLayer } from "../../support/TestDatabase.ts"

/** The workspace's key, made sure of by every server at start (`OUTREACH_BOOTSTRAP_KEY`). */
export const chaosKey = "svc_" + "K".repeat(43)

const log = (scenario: string, message: string) => console.log(`[chaos ${scenario}] ${message}`)

const realSleep = (ms: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

/** A request that may meet a dead server: its answer, or undefined when the connection failed. */
const attempt = (method: string, url: string, body?: unknown, headers?: Record<string, string>, key = chaosKey) =>
  Effect.map(Effect.exit(send(method, url, key, body, headers)), (exit) => Exit.isSuccess(exit) ? exit.value : undefined)

// ---------------------------------------------------------------------------------------------
// The database, read directly (what the counts are made of).

/** Queries on the scenario's database, retried while PostgreSQL restarts. */
export const database = (url: string) =>
  Effect.map(Layer.build(pgLayer(url)), (context) =>
    <A, E>(query: Effect.Effect<A, E, SqlClient.SqlClient>): Effect.Effect<A> =>
      query.pipe(
        Effect.provideContext(context),
        Effect.retry({ schedule: Schedule.spaced(Duration.millis(250)), times: 240 }),
        Effect.orDie
      ))

export type Query = Effect.Success<ReturnType<typeof database>>

// ---------------------------------------------------------------------------------------------
// The servers.

export interface ChaosServer {
  readonly name: string
  readonly port: number
  running: Running | undefined
  starts: number
}

/**
 * Servers on one database, each on its own port; started, killed and restarted by name. `settings`
 * are added to (or replace) the harness's environment: a live scenario's Unipile settings and clock.
 */
export const fleet = (scenario: string, databaseUrl: string, names: ReadonlyArray<string>, settings: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const servers: Array<ChaosServer> = []
    const processes: Array<Running> = []
    for (const name of names) servers.push({ name, port: yield* freePort, running: undefined, starts: 0 })
    const env = (server: ChaosServer): Record<string, string> => ({
      DATABASE_URL: databaseUrl,
      PORT: String(server.port),
      OUTREACH_CLOCK: "test",
      OUTREACH_NETWORK: "sandbox",
      OUTREACH_BOOTSTRAP_KEY: chaosKey,
      OUTREACH_ALLOW_PRIVATE_WEBHOOKS: "true",
      // Background syncs are reads of their own; the counts are about the workload's writes.
      OUTREACH_INBOX_SYNC: "false",
      ...settings
    })
    const start = (server: ChaosServer) =>
      Effect.gen(function*() {
        const began = Date.now()
        server.running = yield* startServer(env(server))
        processes.push(server.running)
        server.starts++
        log(scenario, `server ${server.name} ready on :${server.port} in ${Date.now() - began} ms`)
      })
    /** `kill -9`, and waits until the process is gone. */
    const kill = (server: ChaosServer) =>
      Effect.callback<void>((resume) => {
        const child = server.running?.child
        server.running = undefined
        if (child === undefined || child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
        child.once("exit", () => resume(Effect.void))
        child.kill("SIGKILL")
      })
    const live = () => servers.filter((server) => server.running !== undefined)
    const base = (server: ChaosServer) => `http://127.0.0.1:${server.port}`
    /** How the processes settled writes a dead process left running (the Governor's log lines). */
    const settled = () => {
      const logs = processes.map((running) => running.output()).join("\n")
      const lines = (pattern: string) => logs.split(pattern).length - 1
      return `writes left running by a dead process, settled: ${
        lines("had reached the network: completed")
      } completed from the network's record, ${lines("had not reached the network: queued again")} queued again, ${
        lines("the network cannot tell whether it went out")
      } failed interrupted`
    }
    /** Everything every process of the fleet printed, one string per process. */
    const outputs = () => processes.map((running) => running.output())
    /** How often the processes logged a line containing `pattern`. */
    const logged = (pattern: string) => outputs().map((output) => output.split(pattern).length - 1).reduce((a, b) => a + b, 0)
    // With CHAOS_LOG_DIR set, what every process printed is kept there when the scenario ends, however it ends.
    const logDir = process.env["CHAOS_LOG_DIR"]
    if (logDir !== undefined && logDir !== "") {
      yield* Effect.addFinalizer(() =>
        Effect.sync(() => {
          mkdirSync(logDir, { recursive: true })
          outputs().forEach((output, i) => writeFileSync(join(logDir, `${scenario}-${i}.log`), output))
        })
      )
    }
    return { servers, start, kill, live, base, settled, logged, outputs }
  })

export type Fleet = Effect.Success<ReturnType<typeof fleet>>

/** Waits until the server answers `/healthz` 200 (the database reachable again). */
export const healthy = (url: string) =>
  Effect.gen(function*() {
    for (let i = 0; i < 240; i++) {
      const answer = yield* Effect.exit(Effect.promise(() => fetch(`${url}/healthz`)))
      if (Exit.isSuccess(answer) && answer.value.status === 200) return true
      yield* realSleep(250)
    }
    return false
  })

// ---------------------------------------------------------------------------------------------
// The test clock, moved on every live server to the same instant.

/** The test clock of the live servers: asked of each in turn until one answers it (a server may answer 503 meanwhile). */
export const readClock = (fleet: Fleet) =>
  Effect.gen(function*() {
    for (let i = 0; i < 240; i++) {
      for (const server of fleet.live()) {
        const answer = yield* attempt("GET", `${fleet.base(server)}/v1/sandbox/clock`)
        const now = answer?.status === 200 ? Date.parse(String(answer.body.now)) : Number.NaN
        if (Number.isFinite(now)) return now
      }
      yield* realSleep(250)
    }
    return yield* Effect.die(new Error("no live server told its test clock within a minute"))
  })

/** Moves every live server's clock to `to` (retried while a server or the database is out). */
export const moveClock = (fleet: Fleet, to: number) =>
  Effect.forEach(fleet.live(), (server) =>
    Effect.gen(function*() {
      for (let i = 0; i < 240 && server.running !== undefined; i++) {
        const answer = yield* attempt("POST", `${fleet.base(server)}/v1/sandbox/clock`, { to: new Date(to).toISOString() })
        if (answer?.status === 200) return
        yield* realSleep(250)
      }
    }), { concurrency: "unbounded", discard: true })

// ---------------------------------------------------------------------------------------------
// The workspace: 20 connected sandbox accounts in autopilot, and a webhook receiver.

export interface Setup {
  readonly accounts: ReadonlyArray<string>
  readonly receiver: Receiver
}

/** Connects `count` sandbox accounts in autopilot (no approvals), running at any hour, with room in their budgets. */
export const setUp = (scenario: string, fleet: Fleet, databaseUrl: string, count: number) =>
  Effect.gen(function*() {
    const base = fleet.base(fleet.live()[0])
    const me = yield* send("GET", `${base}/v1/me`, chaosKey)
    const seats = yield* cli(["workspace", "seats", String(me.body.orgId), String(count)], { DATABASE_URL: databaseUrl })
    if (seats.code !== 0) return yield* Effect.die(new Error(`workspace seats failed:\n${seats.output}`))
    const accounts = yield* Effect.forEach(Array.from({ length: count }, (_, i) => i), (i) =>
      Effect.gen(function*() {
        const created = yield* send("POST", `${base}/v1/accounts/connect`, chaosKey, { label: `chaos ${i}`, timezone: "UTC" })
        if (created.status !== 201) return yield* Effect.die(new Error(`connect: ${JSON.stringify(created.body)}`))
        const id = String(created.body.account.id)
        const completed = yield* send("POST", `${base}/v1/sandbox/accounts/${id}/complete-connection`, chaosKey, { tier: "sales_nav" })
        if (completed.status !== 200) return yield* Effect.die(new Error(`account set-up: ${JSON.stringify(completed.body)}`))
        yield* autopilot(base, id)
        return id
      }), { concurrency: 2 })
    const receiver = yield* webhookReceiver
    const endpoint = yield* send("POST", `${base}/v1/webhooks`, chaosKey, {
      url: receiver.url,
      events: ["job.completed", "job.failed"]
    })
    if (endpoint.status !== 201 && endpoint.status !== 200) {
      return yield* Effect.die(new Error(`webhook endpoint: ${JSON.stringify(endpoint.body)}`))
    }
    receiver.secrets.push(String(endpoint.body.secret))
    log(scenario, `${count} autopilot accounts connected, webhook receiver at ${receiver.url}`)
    return { accounts, receiver }
  })

/** A Sales Navigator seat's ceilings (warm-up still scales them to a fifth on the first day). */
export const salesNavLimits: ReadonlyArray<{ readonly category: string; readonly period: string; readonly maxValue: number }> = [
  { category: "invites", period: "daily", maxValue: 40 },
  { category: "invites", period: "weekly", maxValue: 200 },
  { category: "messages", period: "daily", maxValue: 150 },
  { category: "inmails", period: "monthly", maxValue: 150 }
]

/**
 * Puts a connected account in autopilot (writes wait for no person), running at any hour (`run`),
 * inviting anyone, with `limits` in force.
 */
export const autopilot = (base: string, id: string, limits = salesNavLimits, key = chaosKey) =>
  Effect.gen(function*() {
    const steps = [
      send("PATCH", `${base}/v1/accounts/${id}`, key, { mode: "autopilot", offHoursPolicy: "run", minInviteQuality: 0 }),
      send("PUT", `${base}/v1/accounts/${id}/limits`, key, { limits })
    ]
    for (const step of steps) {
      const answer = yield* step
      if (answer.status !== 200) return yield* Effect.die(new Error(`account set-up: ${JSON.stringify(answer.body)}`))
    }
  })

/**
 * The harness's webhook endpoint: verifies every delivery with the receiver's kit
 * (`outreach-service/webhooks`) against its own (real) clock, as a receiver would: signatures
 * carry real time whatever the test clock says. Keeps each event id.
 */
export interface Receiver {
  readonly url: string
  readonly secrets: Array<string>
  /** Event ids received and verified, with how often. */
  readonly received: Map<string, number>
  /** Deliveries refused (a bad signature or an old timestamp). */
  refused: number
}

const webhookReceiver = Effect.gen(function*() {
  const port = yield* freePort
  const receiver: Receiver = { url: `http://127.0.0.1:${port}/hook`, secrets: [], received: new Map(), refused: 0 }
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const raw = Buffer.concat(chunks)
      const verified = verifyWebhook(receiver.secrets, request.headers, raw, { nowSeconds: Math.floor(Date.now() / 1000) })
      if (!verified.ok) {
        receiver.refused++
        response.writeHead(400).end(verified.reason)
        return
      }
      const event: { readonly id: string } = JSON.parse(raw.toString("utf8"))
      receiver.received.set(event.id, (receiver.received.get(event.id) ?? 0) + 1)
      response.writeHead(204).end()
    })
  })
  yield* Effect.acquireRelease(
    Effect.callback<void>((resume) => {
      server.listen(port, "127.0.0.1", () => resume(Effect.void))
    }),
    () => Effect.sync(() => server.close())
  )
  return receiver
})

/** A PostgreSQL server of the scenario's own (so it may crash it), and the servers named on it, all started. */
export const started = (scenario: string, names: ReadonlyArray<string>, settings: Record<string, string> = {}) =>
  Effect.gen(function*() {
    if (postgresBin === undefined) {
      return yield* Effect.die(new Error("The chaos suite needs PostgreSQL's binaries in /usr/lib/postgresql/<version>/bin"))
    }
    const postgres = yield* ownPostgres(postgresBin, { maxConnections: 200 })
    const query = yield* database(postgres.url)
    const servers = yield* fleet(scenario, postgres.url, names, settings)
    yield* servers.start(servers.servers[0])
    // The others after the first, which ran the migrations.
    yield* Effect.forEach(servers.servers.slice(1), servers.start, { discard: true })
    return { postgres, query, fleet: servers }
  })

/**
 * A scenario's world: a PostgreSQL server of its own (so it may crash it), the servers named,
 * all started, and the workspace set up with `accounts` accounts.
 */
export const begin = (scenario: string, names: ReadonlyArray<string>, accounts: number) =>
  Effect.gen(function*() {
    const began = Date.now()
    const { postgres, query, fleet: servers } = yield* started(scenario, names)
    const setup = yield* setUp(scenario, servers, postgres.url, accounts)
    log(scenario, `set up in ${Date.now() - began} ms`)
    return { postgres, query, fleet: servers, ...setup }
  })

// ---------------------------------------------------------------------------------------------
// The workload: writes to strangers, each carrying a token of its own so that the network's
// records show whether it went out more than once.

export interface PlannedJob {
  readonly token: string
  readonly account: string
  readonly command: WriteCommand
  readonly input: Record<string, unknown>
  /** The server it is created through (its index in the fleet). */
  readonly via: number
  /** The API key it is created with (the harness's by default; a key has 600 requests a minute). */
  readonly key?: string
  id: string | undefined
  createdAtMs: number | undefined
}

const run = randomBytes(4).toString("hex")

/** `perAccount` writes for each account, alternating invitations and InMails to people no one else writes to. */
export const plan = (
  accounts: ReadonlyArray<string>,
  perAccount: number,
  via: (accountIndex: number) => number,
  /** The first job number (tokens stay unique across plans of one run when these do not overlap). */
  first = 0
) => {
  const jobs: Array<PlannedJob> = []
  for (let n = first; n < first + perAccount; n++) {
    accounts.forEach((account, a) => {
      const token = `chaos-${run}-${a}-${n}`
      const person = `https://www.linkedin.com/in/${token}`
      jobs.push({
        token,
        account,
        via: via(a),
        id: undefined,
        createdAtMs: undefined,
        ...(n % 2 === 0
          ? { command: "connect" as const, input: { person, note: `Hello, ${token}.` } }
          : { command: "send_message" as const, input: { person, inmail: true, subject: "Hello", text: `Hello, ${token}.` } })
      })
    })
  }
  return jobs
}

/**
 * Creates the jobs through their servers (each under its token as `Idempotency-Key`, so a retry
 * after a dead connection is the same job). A job counts as created only once acknowledged (202).
 */
export const create = (
  fleet: Fleet,
  jobs: ReadonlyArray<PlannedJob>,
  fallback = true,
  /** Told each request's answer status (undefined: no answer). */
  answered?: (status: number | undefined) => void
) =>
  Effect.forEach(jobs, (job) =>
    Effect.gen(function*() {
      const preferred = fleet.servers[job.via]
      const server = preferred.running !== undefined || !fallback ? preferred : fleet.live()[0]
      if (server?.running === undefined) return
      const answer = yield* attempt(
        "POST",
        `${fleet.base(server)}/v1/accounts/${job.account}/${job.command}`,
        job.input,
        { "idempotency-key": job.token },
        job.key
      )
      answered?.(answer?.status)
      if (answer?.status === 202) {
        job.id = String(answer.body.job.id)
        job.createdAtMs = Date.now()
      }
    }), { concurrency: 8, discard: true })

// ---------------------------------------------------------------------------------------------
// Driving: the clock forward step by step until every job ends or time is up.

export interface Drive {
  readonly scenario: string
  readonly fleet: Fleet
  readonly query: Query
  readonly jobs: ReadonlyArray<PlannedJob>
  readonly receiver: Receiver
  /** Jobs created per step until all are. */
  readonly wave: number
  /**
   * Where the chaos happens: started with each step, beside its job creations, its clock move and
   * the writes the move lets run (wait a random moment first to land anywhere in them); the step
   * settles once it is done.
   */
  readonly during: (step: number, doneRatio: number, moved: Effect.Effect<void>) => Effect.Effect<void, Error, Scope.Scope>
  /** Real time the scenario may take, in ms. */
  readonly budgetMs: number
  /** Told each job creation's answer status (undefined: no answer). */
  readonly answered?: (status: number | undefined) => void
  /** Steps without a finished job after which the rest counts as stuck (20 by default)... */
  readonly stallSteps?: number
  /**
   * ...once this much real time passed too (35 s by default: failover in real time, as a
   * cluster's runner health checks take, may take up to the 30 s the service aims at).
   */
  readonly stallMs?: number
}

export interface Progress {
  readonly finished: number
  readonly open: number
  /** Accounts whose head write runs. */
  readonly running: number
  /** The earliest time past the next step an account's head write waits for, if any. */
  readonly nextDue: number | null
  /** Whether every head write that does not run waits past the next step. */
  readonly allWaitLong: boolean
}

const progress = (query: Query, ids: ReadonlyArray<string>, nowMs: number, stepMs: number) =>
  query(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const counts = yield* sql<{ finished: string; open: string }>`
      SELECT count(*) FILTER (WHERE status IN ('completed', 'failed', 'cancelled')) AS finished,
             count(*) FILTER (WHERE status NOT IN ('completed', 'failed', 'cancelled')) AS open
      FROM jobs WHERE id::text IN ${sql.in(ids)}`
    const heads = yield* sql<{ status: string; due: Date | null }>`
      SELECT DISTINCT ON (account_id) status, COALESCE(eta, waiting_until) AS due
      FROM jobs WHERE status IN ('queued', 'scheduled', 'running') AND is_write
      ORDER BY account_id, seq`
    const running = heads.filter((head) => head.status === "running").length
    // Heads still running here were left so by a dead process (the step's own writes have
    // ended): they do not hold the clock back.
    const dues = heads.filter((head) => head.status !== "running")
      .map((head) => head.due === null ? null : new Date(head.due).getTime())
    const later = dues.flatMap((due) => due !== null && due > nowMs + stepMs ? [due] : [])
    return {
      finished: Number(counts[0].finished),
      open: Number(counts[0].open),
      running,
      nextDue: later.length === 0 ? null : Math.min(...later),
      allWaitLong: dues.length > 0 && later.length === dues.length
    }
  }))

/** Waits (real time) until the writes a clock move started have ended: nothing started at `sinceMs` still runs, and nothing new finished for a moment. */
const settle = (query: Query, ids: ReadonlyArray<string>, sinceMs: number) =>
  Effect.gen(function*() {
    let last = -1
    for (let waited = 0; waited < 3000; waited += 75) {
      yield* realSleep(75)
      const [row] = yield* query(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        return yield* sql<{ finished: string; fresh: string }>`
          SELECT count(*) FILTER (WHERE status IN ('completed', 'failed', 'cancelled')) AS finished,
                 count(*) FILTER (WHERE status = 'running' AND attempt_started_at >= ${new Date(sinceMs).toISOString()}::timestamptz) AS fresh
          FROM jobs WHERE id::text IN ${sql.in(ids)}`
      }))
      const finished = Number(row.finished)
      if (Number(row.fresh) === 0 && finished === last) return
      last = finished
    }
  })

/** Moves the clock until every job has ended, nothing moved for `stallSteps` steps, or the budget is spent. */
export const drive = (options: Drive) =>
  Effect.gen(function*() {
    const { scenario, fleet, query, jobs } = options
    const began = Date.now()
    const stallSteps = options.stallSteps ?? 20
    const stallMs = options.stallMs ?? 35_000
    let lastProgressAt = Date.now()
    let now = yield* readClock(fleet)
    const startedAt = now
    let lastFinished = -1
    let sinceProgress = 0
    let step = 0
    let ended: "all jobs ended" | "stalled" | "out of time" = "out of time"
    while (Date.now() - began < options.budgetMs) {
      step++
      const moved = yield* Deferred.make<void>()
      const chaos = yield* Effect.forkChild(
        options.during(step, Math.max(0, lastFinished) / jobs.length, Deferred.await(moved))
      )
      const uncreated = jobs.filter((job) => job.id === undefined)
      yield* create(fleet, uncreated.slice(0, options.wave), true, options.answered)
      const ids = jobs.flatMap((job) => job.id === undefined ? [] : [job.id])
      const stepMs = randomInt(60_000, 120_001)
      const before = yield* progress(query, ids, now, stepMs)
      // Straight to the next due time when every account waits for a later one, or when the last
      // step ended nothing (the accounts that could write are blocked).
      now = before.nextDue !== null && (before.allWaitLong || sinceProgress > 0) ? before.nextDue : now + stepMs
        yield* moveClock(fleet, now)
      yield* Deferred.succeed(moved, undefined)
      yield* Fiber.join(chaos)
      yield* settle(query, ids, now)
      const after = yield* progress(query, ids, now, stepMs)
      if (after.finished !== lastFinished) {
        lastFinished = after.finished
        sinceProgress = 0
        lastProgressAt = Date.now()
      } else {
        sinceProgress++
        // Nothing moves: give what runs in real time (health checks, failover) time to act.
        yield* realSleep(400)
      }
      if (step % 5 === 0 || after.open === 0) {
        log(
          scenario,
          `step ${step} clock +${((now - startedAt) / 3_600_000).toFixed(2)} h: ${after.finished}/${jobs.length} ended, ` +
            `${after.open} open, ${after.running} accounts running a write, ${fleet.live().length} servers up, ` +
            `${((Date.now() - began) / 1000).toFixed(0)} s`
        )
      }
      if (uncreated.length <= options.wave && after.open === 0 && ids.length === jobs.length) {
        ended = "all jobs ended"
        break
      }
      if (sinceProgress >= stallSteps && Date.now() - lastProgressAt >= stallMs) {
        ended = "stalled"
        break
      }
    }
    log(scenario, `driving ended (${ended}) after ${step} steps, ${((Date.now() - began) / 1000).toFixed(0)} s`)
    return { nowMs: now, ended, testClockHours: (now - startedAt) / 3_600_000 }
  })

/**
 * A killed server's webhook leases and fan-out claims lapse on real time (the delivery timeout and a
 * minute: 70 s by default), whatever the test clock says; another server then sends what it held.
 * The drain waits that long, and the claims' sweep interval, before it calls an event undelivered.
 */
const deadServersLeasesLapseMs = 70_000 + 5_000 + 10_000

/** After the jobs: moves the clock on (retries' backoff) until every `job.*` event reached the receiver, or a bound. */
export const drainWebhooks = (scenario: string, fleet: Fleet, query: Query, receiver: Receiver, fromMs: number) =>
  Effect.gen(function*() {
    let now = fromMs
    const leasesLapsedAt = Date.now() + deadServersLeasesLapseMs
    for (let round = 0; round < 24 || Date.now() < leasesLapsedAt; round++) {
      const missing = yield* undelivered(query, receiver)
      if (missing === 0) return now
      if (round < 24) {
        // A minute at first (the first retry), then hours (the backoff reaches 6 hours).
        now += round < 4 ? 90_000 : round < 10 ? 3_600_000 : 6 * 3_600_000
        yield* moveClock(fleet, now)
        yield* realSleep(round < 4 ? 1000 : 500)
      } else {
        // Retries are due by now; what is left waits for a dead server's leases to lapse in real time.
        yield* realSleep(2000)
      }
      if (round % 4 === 3) log(scenario, `webhooks: ${missing} job events not yet delivered`)
    }
    return now
  })

const jobEventIds = (query: Query) =>
  query(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<{ id: string }>`SELECT id::text AS id FROM outbox_events WHERE type LIKE 'job.%'`
  }))

const undelivered = (query: Query, receiver: Receiver) =>
  Effect.map(jobEventIds(query), (events) => events.filter((event) => !receiver.received.has(event.id)).length)

// ---------------------------------------------------------------------------------------------
// The counts.

export interface Counts {
  readonly jobs: number
  readonly acknowledged: number
  readonly completed: number
  readonly failed: number
  readonly lost: number
  readonly doubled: number
  readonly stuck: number
  readonly interrupted: number
  readonly events: number
  readonly undelivered: number
  /** Failure types of the failed jobs, with how many. */
  readonly failures: Record<string, number>
  /** Statuses (and what they wait for) of the stuck jobs, with how many. */
  readonly stuckStatuses: Record<string, number>
  /** What `doubled` is made of: writes (tokens) with each kind of evidence. */
  readonly doubles: Record<string, number>
  /** Writes the network carried out whose job does not say completed. */
  readonly wentOutButNotCompleted: number
  /** Events delivered more than once (allowed: delivery is at least once). */
  readonly redelivered: number
}

export const count = (query: Query, jobs: ReadonlyArray<PlannedJob>, receiver: Receiver) =>
  Effect.gen(function*() {
    const acknowledged = jobs.flatMap((job) => job.id === undefined ? [] : [job.id])
    const found = yield* query(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ id: string; status: string; error: string | null; waiting: string | null }>`
        SELECT id::text AS id, status, error->>'type' AS error, waiting_reason AS waiting
        FROM jobs WHERE id::text IN ${sql.in(acknowledged)}`
      // The same write twice on the network: one key recorded twice, or one token's invitation or
      // message twice; and one request made into two jobs (a retried create under the same
      // Idempotency-Key), which sends twice whatever the network allows twice.
      const tokenOf = (column: string) => sql.unsafe(`substring(${column} from 'chaos-[0-9a-f]+-[0-9]+-[0-9]+')`)
      const evidence = yield* sql<{ evidence: string; token: string }>`
        SELECT 'sandbox_writes key' AS evidence, key AS token FROM sandbox_writes WHERE NOT refused GROUP BY key HAVING count(*) > 1
        UNION ALL
        SELECT 'invitation', ${tokenOf("note")} FROM sandbox_invitations WHERE note LIKE 'Hello, chaos-%'
          GROUP BY 2 HAVING count(*) > 1
        UNION ALL
        SELECT 'message', ${tokenOf("text")} FROM sandbox_messages WHERE text LIKE 'Hello, chaos-%'
          GROUP BY 2 HAVING count(*) > 1
        UNION ALL
        SELECT 'job', ${tokenOf("COALESCE(input->>'note', input->>'text')")} FROM jobs
          WHERE COALESCE(input->>'note', input->>'text') LIKE 'Hello, chaos-%' GROUP BY 2 HAVING count(*) > 1`
      const notCompleted = yield* sql<{ n: string }>`
        SELECT count(DISTINCT w.key) AS n FROM sandbox_writes w JOIN jobs j ON j.id::text = w.key
        WHERE NOT w.refused AND w.result IS NOT NULL AND j.status <> 'completed'`
      return {
        rows,
        evidence,
        notCompleted: Number(notCompleted[0].n)
      }
    }))
    const byId = new Map(found.rows.map((row) => [row.id, row]))
    const failures: Record<string, number> = {}
    const stuckStatuses: Record<string, number> = {}
    let completed = 0
    let failed = 0
    let stuck = 0
    for (const row of found.rows) {
      if (row.status === "completed") completed++
      else if (row.status === "failed" || row.status === "cancelled") {
        failed++
        const type = row.error ?? row.status
        failures[type] = (failures[type] ?? 0) + 1
      } else {
        stuck++
        const state = row.waiting === null ? row.status : `${row.status} (waiting for ${row.waiting})`
        stuckStatuses[state] = (stuckStatuses[state] ?? 0) + 1
      }
    }
    const events = yield* jobEventIds(query)
    return {
      jobs: jobs.length,
      acknowledged: acknowledged.length,
      completed,
      failed,
      lost: acknowledged.filter((id) => !byId.has(id)).length,
      doubled: new Set(found.evidence.map((row) => row.token)).size,
      stuck,
      interrupted: failures["interrupted"] ?? 0,
      events: events.length,
      undelivered: events.filter((event) => !receiver.received.has(event.id)).length,
      failures,
      stuckStatuses,
      doubles: found.evidence.reduce<Record<string, number>>(
        (kinds, row) => ({ ...kinds, [row.evidence]: (kinds[row.evidence] ?? 0) + 1 }),
        {}
      ),
      wentOutButNotCompleted: found.notCompleted,
      redelivered: [...receiver.received.values()].filter((times) => times > 1).length
    } satisfies Counts
  })

/** Prints the scenario's table, its details and timings. */
export const report = (title: string, counts: Counts, notes: ReadonlyArray<string>) => {
  const columns: ReadonlyArray<readonly [string, number]> = [
    ...jobColumns(counts, counts.doubled),
    ["job events", counts.events],
    ["undelivered", counts.undelivered]
  ]
  printTable(title, columns, [
    `failed by type: ${JSON.stringify(counts.failures)}; stuck by status: ${JSON.stringify(counts.stuckStatuses)}`,
    `doubled writes, by evidence (two jobs for one request, two invitations or messages with one token, one key twice): ${
      JSON.stringify(counts.doubles)
    }`,
    `writes that reached the network but whose job is not completed: ${counts.wentOutButNotCompleted}; ` +
    `events delivered more than once: ${counts.redelivered}`,
    ...notes
  ])
}

/** The columns of every scenario's table about its jobs, with `doubled` as the scenario counts it. */
export const jobColumns = (counts: Counts, doubled: number): ReadonlyArray<readonly [string, number]> => [
  ["jobs", counts.jobs],
  ["acknowledged", counts.acknowledged],
  ["completed", counts.completed],
  ["failed", counts.failed],
  ["lost", counts.lost],
  ["doubled", doubled],
  ["stuck", counts.stuck],
  ["interrupted", counts.interrupted]
]

/** Prints a scenario's table (one row of named counts) under its title, then `lines`. */
export const printTable = (title: string, columns: ReadonlyArray<readonly [string, number]>, lines: ReadonlyArray<string>) => {
  const widths = columns.map(([name, value]) => Math.max(name.length, String(value).length))
  const line = (cells: ReadonlyArray<string>) => "| " + cells.map((cell, i) => cell.padStart(widths[i])).join(" | ") + " |"
  const rule = "|" + widths.map((width) => "-".repeat(width + 2)).join("|") + "|"
  console.log([
    "",
    `== chaos: ${title}`,
    line(columns.map(([name]) => name)),
    rule,
    line(columns.map(([, value]) => String(value))),
    ...lines,
    ""
  ].join("\n"))
}

// ---------------------------------------------------------------------------------------------
// A scenario from start to verdict.

/** What a scenario's chaos works on. */
export interface World extends Effect.Success<ReturnType<typeof begin>> {
  readonly scenario: string
  readonly jobs: Array<PlannedJob>
  /** Lines printed under the table (timings, what the chaos did). */
  readonly notes: Array<string>
}

export interface Scenario {
  readonly id: string
  readonly title: string
  readonly servers: ReadonlyArray<string>
  readonly jobsPerAccount: number
  /** The server (its index) each account's jobs are created through; the first by default. */
  readonly via?: (accountIndex: number) => number
  /** Jobs created per step until all are. */
  readonly wave: number
  readonly stallSteps?: number
  /** The chaos of each step (see `Drive.during`). */
  readonly chaos: (world: World) => Drive["during"]
  /** After the table's counts are taken: more work, and more counts that must be 0. */
  readonly after?: (world: World) => Effect.Effect<Record<string, number>, Error, Scope.Scope>
  /** Whether undelivered `job.*` events fail the scenario (they are always counted). */
  readonly deliveriesChecked?: boolean
}

/**
 * Runs a scenario: sets up, drives the workload through the chaos, lets the webhooks drain,
 * counts, prints the table; answers the counts that must be 0 (lost, doubled, stuck, and what
 * the scenario adds).
 */
export const runScenario = (spec: Scenario) =>
  Effect.gen(function*() {
    const began = Date.now()
    const world: World = {
      ...(yield* begin(spec.id, spec.servers, 20)),
      scenario: spec.id,
      jobs: [],
      notes: []
    }
    world.jobs.push(...plan(world.accounts, spec.jobsPerAccount, spec.via ?? (() => 0)))
    const driven = yield* drive({
      scenario: spec.id,
      fleet: world.fleet,
      query: world.query,
      jobs: world.jobs,
      receiver: world.receiver,
      wave: spec.wave,
      budgetMs: 150_000,
      during: spec.chaos(world),
      ...(spec.stallSteps === undefined ? {} : { stallSteps: spec.stallSteps })
    })
    const drained = yield* drainWebhooks(spec.id, world.fleet, world.query, world.receiver, driven.nowMs)
    const counts = yield* count(world.query, world.jobs, world.receiver)
    const more = spec.after === undefined ? {} : yield* spec.after(world)
    report(spec.title, counts, [
      `driving: ${driven.ended} after ${driven.testClockHours.toFixed(1)} h of test clock; ` +
      `the webhooks' retries were given ${((drained - driven.nowMs) / 3_600_000).toFixed(1)} h more; ` +
      `deliveries the receiver refused (signature or timestamp): ${world.receiver.refused}`,
      world.fleet.settled(),
      ...world.notes,
      `scenario time: ${((Date.now() - began) / 1000).toFixed(0)} s`
    ])
    const checked: Record<string, number> = {
      lost: counts.lost,
      doubled: counts.doubled,
      stuck: counts.stuck,
      ...(spec.deliveriesChecked === true ? { undelivered: counts.undelivered } : {}),
      ...more
    }
    return checked
  })

/** `count` distinct random steps from `from` to `to` (inclusive). */
export const randomSteps = (count: number, from: number, to: number) => {
  const steps = new Set<number>()
  while (steps.size < count) steps.add(randomInt(from, to + 1))
  return steps
}

/**
 * A random moment of the step: a third of the time among its job creations, otherwise within
 * 200 ms of its clock move, while the writes the move let through run.
 */
export const randomMoment = (moved: Effect.Effect<void>) =>
  randomInt(3) === 0 ? realSleep(randomInt(0, 150)) : Effect.andThen(moved, realSleep(randomInt(0, 200)))

/** `kill -9` of the server at a random moment of the step, started again at once. */
export const killAndRestart = (world: World, server: ChaosServer, step: number, moved: Effect.Effect<void>) =>
  Effect.gen(function*() {
    yield* randomMoment(moved)
    yield* world.fleet.kill(server)
    const killed = Date.now()
    const received = world.receiver.received.size
    yield* world.fleet.start(server)
    world.notes.push(
      `kill -9 at step ${step}: ready again ${Date.now() - killed} ms later (${received} job events had been received)`
    )
    log(world.scenario, `kill -9 of server ${server.name} at step ${step}, restarted`)
  })

export { log, realSleep }
