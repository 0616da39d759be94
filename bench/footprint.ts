/**
 * `npm run bench:footprint`: what `npm start` runs, timed. Its first step,
 * bundling (scripts/bundle.ts), is timed on its own; then how long the bundled
 * service takes from `node <flags> dist/service/main.js` to its first `GET /healthz`
 * 200, and its resident memory once idle, beside a bare node:http server
 * (bench/bare-server.ts: Node, its TypeScript loader and an HTTP server,
 * nothing else), in one run. BENCH_FROM_SOURCE=1 adds the service run from its
 * TypeScript modules (`node <flags> src/main.ts`, as the tests run it).
 *
 * The service is started on embedded PGlite in a fresh directory, and also on
 * a fresh database of the PostgreSQL server at `DATABASE_URL` when it is set;
 * each is started twice: on empty storage (the migrations run; PGlite also
 * creates its cluster) and again on what the first start left (a restart).
 * Resident memory is read from `/proc` (Linux) BENCH_IDLE_SECONDS (default 5)
 * after ready, when the start-up's work is done. BENCH_ROUNDS (default 3)
 * rounds; the table shows medians and ranges.
 */
import type { ChildProcess } from "node:child_process"
import { Effect } from "effect"
import { bundle, entry } from "../scripts/bundle.ts"
import { nodeFlags } from "../src/platform/NodeFlags.ts"
import { freshPostgresUrl } from "../test/support/TestDatabase.ts"
import { freePort, median, residentMemory, sleep, spawnProcess, startProcess, stopProcess, tempDir } from "./support.ts"

const rounds = Math.max(1, Number(process.env["BENCH_ROUNDS"] ?? 3))
const idleSeconds = Number(process.env["BENCH_IDLE_SECONDS"] ?? 5)
const databaseUrl = process.env["DATABASE_URL"]
const entries: ReadonlyArray<readonly [label: string, script: string]> = [
  ["service", entry],
  ...(process.env["BENCH_FROM_SOURCE"] === "1" ? [["service from src/main.ts", "src/main.ts"] as const] : [])
]

interface Footprint {
  readonly readyMs: number
  /** Resident set, and its anonymous part (heaps, WASM memory) in MB. */
  readonly rssMb: number
  readonly anonMb: number
}


/** Waits (polling every 10 ms) until `url` answers 200. */
const ready = async (url: string, child: ChildProcess): Promise<void> => {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the process exited with ${child.exitCode} before it was ready`)
    try {
      if ((await fetch(url)).status === 200) return
    } catch {
      // not listening yet
    }
    await sleep(10)
  }
}

const idle = async (child: ChildProcess, readyMs: number): Promise<Footprint> => {
  await sleep(idleSeconds * 1000)
  return { readyMs, ...residentMemory(child.pid) }
}

/** The bare server: ready when it says so. */
const bare = async (): Promise<Footprint> => {
  const started = performance.now()
  const server = await startProcess(["bench/bare-server.ts"], {}, /listening on (\d+)/)
  try {
    return await idle(server.child, performance.now() - started)
  } finally {
    await stopProcess(server.child)
  }
}

/** The service (`script`) started on `dataDir` (and `url` when set): ready at its first /healthz 200. */
const service = async (script: string, dataDir: string, url: string | undefined): Promise<Footprint> => {
  const port = await freePort()
  const started = performance.now()
  const child = spawnProcess([...nodeFlags, script], {
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: url ?? "",
    LOG_LEVEL: "Warn"
  })
  try {
    await ready(`http://127.0.0.1:${port}/healthz`, child)
    return await idle(child, performance.now() - started)
  } finally {
    await stopProcess(child)
  }
}

/** A first start on empty storage, then a restart on what it left. */
const startAndRestart = async (script: string, url: string | undefined): Promise<[Footprint, Footprint]> => {
  const data = tempDir("outreach-bench-footprint-")
  try {
    return [await service(script, data.path, url), await service(script, data.path, url)]
  } finally {
    data.dispose()
  }
}

const onPostgres = (script: string): Promise<[Footprint, Footprint]> =>
  Effect.runPromise(Effect.scoped(Effect.flatMap(
    Effect.orDie(freshPostgresUrl(databaseUrl ?? "")),
    (url) => Effect.promise(() => startAndRestart(script, url))
  )))

const rows = new Map<string, Array<Footprint>>()
const add = (label: string, figures: Footprint) => rows.set(label, [...(rows.get(label) ?? []), figures])
const bundleMs: Array<number> = []
for (let round = 1; round <= rounds; round++) {
  bundleMs.push(await bundle())
  add("bare node:http server (baseline)", await bare())
  for (const [label, script] of entries) {
    const [pgliteFirst, pgliteRestart] = await startAndRestart(script, undefined)
    add(`${label}, PGlite, first start`, pgliteFirst)
    add(`${label}, PGlite, restart`, pgliteRestart)
    if (databaseUrl !== undefined && databaseUrl !== "") {
      const [first, restart] = await onPostgres(script)
      add(`${label}, PostgreSQL, first start`, first)
      add(`${label}, PostgreSQL, restart`, restart)
    }
  }
  console.log(`round ${round}/${rounds} done`)
}
if (databaseUrl === undefined || databaseUrl === "") {
  console.log("(set DATABASE_URL to also measure the service on a PostgreSQL server)")
}

const cell = (values: ReadonlyArray<number>) =>
  `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)})`
console.log(`\nStart-up and idle memory, ${rounds} rounds, read ${idleSeconds} s after ready: median (range)`)
console.log(`npm start's first step, bundling into ${entry}: ${cell(bundleMs)} ms`)
console.log(["", "ready ms", "RSS MB", "of it anonymous MB"].map((h, i) => i === 0 ? h.padEnd(48) : h.padStart(20)).join(""))
for (const [label, figures] of rows) {
  console.log(
    label.padEnd(48) + [
      cell(figures.map((f) => f.readyMs)),
      cell(figures.map((f) => f.rssMb)),
      cell(figures.map((f) => f.anonMb))
    ].map((c) => c.padStart(20)).join("")
  )
}
