/**
 * `npm run bench`: GET /v1/me and GET /v1/jobs/{id} (a queued job, and a finished
 * one, which the service answers from memory; no wait) with valid keys against the service, beside the same JSON from a bare
 * node:http server and from a minimal Effect HttpApi server
 * (bench/effect-floor.ts: the framework's share), in one run. Runs on embedded PGlite,
 * and also on PostgreSQL when DATABASE_URL is set. Keys are rotated (3,000
 * of them, BENCH_KEYS) so the 600-a-minute limit per key is not what is measured.
 *
 * The rows are measured in turn, BENCH_ROUNDS times (default 3), each server
 * started afresh for each round and measured on both routes; the table shows each row's median round,
 * and the ratio is the median of the rounds' own ratios (a row against the
 * baseline measured in the same round), with their range, so a machine that
 * drifts between rows moves the range, not the verdict.
 *
 * The service runs as `npm start` runs it: bundled (scripts/bundle.ts, once at
 * the start), with the service's `node` flags. BENCH_COMPARE_FLAGS adds rows
 * of the service on PostgreSQL with other flags in their place (sets separated
 * by `;`, e.g. `--max-semi-space-size=8;--optimize-for-size`). BENCH_BASELINE_ENTRY adds
 * rows of another build of the service, in the same rounds: a bundle of an earlier commit
 * (`git worktree add /tmp/base <commit>`, link its node_modules, `node scripts/bundle.ts` there,
 * then `BENCH_BASELINE_ENTRY=/tmp/base/dist/service/main.js`), so before and after are measured
 * on the same machine at the same moments.
 *
 * Options: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50). The last
 * column is the server process's CPU time per request (Linux): it hardly moves
 * when other work shares the machine, where req/s and their ratio do.
 */
import type { ChildProcess } from "node:child_process"
import { Effect, Schema } from "effect"
import { bundle, entry } from "../scripts/bundle.ts"
import { nodeFlags } from "../src/platform/NodeFlags.ts"
import { freshPostgresUrl } from "../test/support/TestDatabase.ts"
import {
  type Figures,
  freePort,
  load,
  printTable,
  spawnProcess,
  startProcess,
  stopProcess,
  tempDir,
  waitUntilHealthy
} from "./support.ts"

const seconds = Number(process.env["BENCH_SECONDS"] ?? 10)
const connections = Number(process.env["BENCH_CONNECTIONS"] ?? 50)
const bootstrapKey = "svc_" + "b".repeat(43)
// Enough keys that none reaches 600 requests in a minute at full speed, so every answer is a 200:
// a run of 12 s at 60,000 req/s spreads 720,000 requests over them. A key that creates keys is
// itself limited to 600 requests a minute, so each creates at most 500.
const keyCount = Number(process.env["BENCH_KEYS"] ?? 3000)
const keysPerCreator = 500

const createKey = async (base: string, creator: string, name: string): Promise<string> => {
  const response = await fetch(`${base}/v1/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${creator}`, "content-type": "application/json" },
    body: JSON.stringify({ name })
  })
  const body = (await response.json()) as { value?: string }
  if (response.status !== 201 || body.value === undefined) {
    throw new Error(`creating a key answered ${response.status}: ${JSON.stringify(body)}`)
  }
  return body.value
}

/** `count` fresh keys; the ones that created others are left out (their minute is spent on it). */
const createKeys = async (base: string, count: number): Promise<Array<string>> => {
  const keys: Array<string> = []
  const creators = Math.ceil(count / keysPerCreator)
  const total = count + creators
  while (keys.length < total) {
    // The bootstrap key creates the first 500, the first key created the next 500, and so on.
    const round = Math.floor(keys.length / keysPerCreator)
    const creator = round === 0 ? bootstrapKey : keys[round - 1]
    const names = Array.from(
      { length: Math.min(10, total - keys.length, keysPerCreator - (keys.length % keysPerCreator)) },
      (_, i) => `bench ${keys.length + i}`
    )
    keys.push(...await Promise.all(names.map((name) => createKey(base, creator, name))))
  }
  return keys.slice(creators)
}

/** The routes measured, each with its own table (the reference servers answer any job alike). */
const routes = ["GET /v1/me", "GET /v1/jobs/{id}", "GET /v1/jobs/{id}, finished"] as const
type Measured = Readonly<Record<(typeof routes)[number], Figures>>

/** Warms `url` up and measures it. */
const measure = async (label: string, url: string, tokens: ReadonlyArray<string>, server: ChildProcess) => {
  await load("warm-up", url, { tokens, seconds: 2, connections })
  return load(label, url, { tokens, seconds, connections, server })
}

/**
 * Two jobs of a fresh account, to read: a queued one (`GET /v1/jobs/{id}` reads it each time) and a
 * cancelled one (finished: answered from memory after its first read).
 */
const createJobs = async (base: string, key: string): Promise<{ readonly queued: string; readonly finished: string }> => {
  const post = async <A>(path: string, body: unknown, answer: Schema.Decoder<A>): Promise<A> => {
    const response = await fetch(`${base}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body)
    })
    const json: unknown = await response.json()
    if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${JSON.stringify(json)}`)
    return Schema.decodeUnknownSync(answer)(json)
  }
  const withId = Schema.Struct({ id: Schema.String })
  const { account } = await post("/v1/accounts/connect", { label: "Ada" }, Schema.Struct({ account: withId }))
  const { job } = await post(`/v1/accounts/${account.id}/ssi`, {}, Schema.Struct({ job: withId }))
  // A write waits for its approval in the default mode, so it can be cancelled before it starts.
  const write = await post(`/v1/accounts/${account.id}/connect`, { person: "maria-garcia" }, Schema.Struct({ job: withId }))
  await post(`/v1/jobs/${write.job.id}/cancel`, {}, Schema.Struct({ job: withId }))
  return { queued: job.id, finished: write.job.id }
}

const serviceRun = async (
  label: string,
  env: Record<string, string>,
  flags: ReadonlyArray<string> = nodeFlags,
  script: string = entry
): Promise<Measured> => {
  const data = tempDir("outreach-bench-")
  const port = await freePort()
  const child = spawnProcess([...flags, script], {
    PORT: String(port),
    DATA_DIR: data.path,
    LOG_LEVEL: "Warn",
    OUTREACH_BOOTSTRAP_KEY: bootstrapKey,
    ...env
  })
  try {
    const base = `http://127.0.0.1:${port}`
    await waitUntilHealthy(`${base}/healthz`, child)
    const keys = await createKeys(base, keyCount)
    const jobs = await createJobs(base, keys[0])
    return {
      "GET /v1/me": await measure(label, `${base}/v1/me`, keys, child),
      "GET /v1/jobs/{id}": await measure(label, `${base}/v1/jobs/${jobs.queued}`, keys, child),
      "GET /v1/jobs/{id}, finished": await measure(label, `${base}/v1/jobs/${jobs.finished}`, keys, child)
    }
  } finally {
    await stopProcess(child)
    data.dispose()
  }
}

/** A reference server that needs no key: started, warmed up, measured and stopped. */
const referenceRun = async (label: string, script: string, readyPattern: RegExp): Promise<Measured> => {
  const server = await startProcess([script], {}, readyPattern)
  try {
    const base = `http://127.0.0.1:${server.match[1]}`
    const me = await measure(label, `${base}/v1/me`, ["x"], server.child)
    const job = await measure(label, `${base}/v1/jobs/${crypto.randomUUID()}`, ["x"], server.child)
    return { "GET /v1/me": me, "GET /v1/jobs/{id}": job, "GET /v1/jobs/{id}, finished": job }
  } finally {
    await stopProcess(server.child)
  }
}

const rounds = Math.max(1, Number(process.env["BENCH_ROUNDS"] ?? 3))
const databaseUrl = process.env["DATABASE_URL"]

/** The rows, first the baseline; each measures once per round. */
const rows: Array<() => Promise<Measured>> = [
  () => referenceRun("bare node:http (baseline)", "bench/bare-server.ts", /listening on (\d+)/),
  // The framework's floor: the least an Effect HttpApi server with bearer security does for this route.
  () => referenceRun("Effect HttpApi + bearer, no work", "bench/effect-floor.ts", /Listening on http:\/\/[^:]+:(\d+)/),
  () => serviceRun("service, embedded PGlite", { DATABASE_URL: "" })
]
const compared = (process.env["BENCH_COMPARE_FLAGS"] ?? "").split(";").filter((set) => set.trim() !== "")
const baseline = process.env["BENCH_BASELINE_ENTRY"]
if (baseline !== undefined && baseline !== "") {
  rows.push(() => serviceRun("baseline build, embedded PGlite", { DATABASE_URL: "" }, nodeFlags, baseline))
}
if (databaseUrl !== undefined && databaseUrl !== "") {
  /** A row measured on a fresh database of the PostgreSQL server each round. */
  const onPostgres = (run: (url: string) => Promise<Measured>) => () =>
    Effect.runPromise(Effect.scoped(Effect.flatMap(
      Effect.orDie(freshPostgresUrl(databaseUrl)),
      (url) => Effect.promise(() => run(url))
    )))
  if (baseline !== undefined && baseline !== "") {
    rows.push(onPostgres((url) => serviceRun("baseline build, PostgreSQL", { DATABASE_URL: url }, nodeFlags, baseline)))
  }
  for (const flags of [undefined, ...compared]) {
    rows.push(onPostgres((url) =>
      flags === undefined
        ? serviceRun("service, PostgreSQL", { DATABASE_URL: url })
        : serviceRun(`service, PostgreSQL, ${flags}`, { DATABASE_URL: url }, flags.trim().split(/\s+/))
    ))
  }
} else {
  console.log("(set DATABASE_URL to also measure the service on a PostgreSQL server)")
}

console.log(`bundled the service into ${entry} in ${(await bundle()).toFixed(0)} ms`)
const measured: Array<Array<Measured>> = rows.map(() => [])
for (let round = 1; round <= rounds; round++) {
  for (const [i, row] of rows.entries()) {
    const figures = await row()
    measured[i].push(figures)
    for (const route of routes) {
      const { label, requestsPerSecond } = figures[route]
      console.log(`round ${round}/${rounds}: ${route}: ${label}: ${requestsPerSecond.toFixed(0)} req/s`)
    }
  }
}
for (const route of routes) {
  printTable(
    `${route}, ${connections} connections, ${seconds} s each, ${rounds} rounds`,
    measured.map((row) => row.map((figures) => figures[route]))
  )
}
