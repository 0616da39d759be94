/**
 * Shared pieces of the benchmark scripts: starting the service as a child
 * process, a bare `node:http` baseline, running autocannon and printing a table.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import autocannon from "autocannon"

export interface Figures {
  readonly label: string
  readonly requestsPerSecond: number
  readonly p50: number
  readonly p99: number
  readonly non2xx: number
  /** CPU time the server process spent per request (user + system), when it could be read. */
  readonly cpuPerRequestUs: number | undefined
}

/**
 * CPU time (user + system, ms) a process has used so far, from `/proc` (Linux);
 * `undefined` elsewhere. Unlike req/s it hardly moves when other work shares the
 * cores, so it compares servers measured on a busy machine.
 */
export const processCpuMs = (pid: number | undefined): number | undefined => {
  if (pid === undefined) return undefined
  try {
    // Fields after the command name: utime and stime are the 12th and 13th, in clock ticks (100 a second).
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return undefined
  }
}

/** VmRSS and RssAnon of a process, in MB, from `/proc` (Linux). */
export const residentMemory = (pid: number | undefined): { readonly rssMb: number; readonly anonMb: number } => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) / 1024
  return { rssMb: field("VmRSS"), anonMb: field("RssAnon") }
}

/** A child process started with `args`, resolved once it prints `readyPattern` on stdout, with what it printed until then. */
export const startProcess = (
  args: ReadonlyArray<string>,
  env: Record<string, string>,
  readyPattern: RegExp
): Promise<{ child: ChildProcess; match: RegExpMatchArray; output: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = output.match(readyPattern)
      if (match !== null) {
        child.stdout?.off("data", onData)
        child.stderr?.off("data", onData)
        resolve({ child, match, output })
      }
    }
    child.stdout?.on("data", onData)
    child.stderr?.on("data", onData)
    child.on("exit", (code) => reject(new Error(`process exited with ${code} before it was ready:\n${output}`)))
  })

/** A port that was free a moment ago. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

/**
 * Waits until `url` answers 200 (the service is migrated and listening), up to
 * `timeoutMs`; gives up at once when `child` has exited (it will never answer).
 */
export const waitUntilHealthy = async (url: string, child: ChildProcess, timeoutMs = 120_000): Promise<void> => {
  const deadline = performance.now() + timeoutMs
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode} before it was healthy`)
    try {
      if ((await fetch(url)).status === 200) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${url} did not become healthy within ${timeoutMs} ms`)
}

/** Starts `node <args>` without waiting for any output. */
export const spawnProcess = (args: ReadonlyArray<string>, env: Record<string, string>): ChildProcess =>
  spawn(process.execPath, [...args], { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] })

/** Stops a child with SIGTERM and waits for it to exit. */
export const stopProcess = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.removeAllListeners("exit")
    child.once("exit", () => resolve())
    child.kill("SIGTERM")
  })

/** A fresh temporary directory, removed by `dispose`. */
export const tempDir = (prefix: string) => {
  const path = mkdtempSync(join(tmpdir(), prefix))
  return { path, dispose: () => rmSync(path, { recursive: true, force: true }) }
}

/** Runs autocannon against `url`; `tokens` are rotated across requests; `server` is measured for CPU. */
export const load = async (
  label: string,
  url: string,
  options: {
    readonly tokens?: ReadonlyArray<string>
    readonly seconds: number
    readonly connections: number
    readonly server?: ChildProcess
  }
): Promise<Figures> => {
  const cpuBefore = processCpuMs(options.server?.pid)
  let next = 0
  const tokens = options.tokens ?? []
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.seconds,
    requests: [{
      method: "GET",
      setupRequest: (request) => {
        if (tokens.length === 0) return request
        const token = tokens[next++ % tokens.length]
        return { ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } }
      }
    }]
  })
  const cpuAfter = processCpuMs(options.server?.pid)
  return {
    label,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    cpuPerRequestUs: cpuBefore === undefined || cpuAfter === undefined || result.requests.total === 0
      ? undefined
      : (cpuAfter - cpuBefore) * 1000 / result.requests.total
  }
}

/** The `p`th percentile of `values` (nearest rank); NaN for none. */
export const percentile = (values: ReadonlyArray<number>, p: number): number => {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

/** Waits `ms` of real time. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

export const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/**
 * Prints figures side by side with the baseline (the first row), with the
 * server's CPU per request and the machine's load average (the load generator
 * shares the cores, so req/s drop when anything else runs). Each row holds one
 * measurement per round: its median round is shown, and its ratio is the median
 * of the rounds' ratios to the baseline of the same round, with their range.
 */
export const printTable = (title: string, rows: ReadonlyArray<ReadonlyArray<Figures>>) => {
  const baseline = rows[0]
  console.log(`\n${title} (load average ${loadavg().map((l) => l.toFixed(2)).join(", ")})`)
  console.log(
    ["", "req/s", "p50 ms", "p99 ms", "non-2xx", "vs baseline", "range", "CPU us/req"].map((h, i) =>
      i === 0 ? h.padEnd(34) : h.padStart(12)
    ).join("")
  )
  for (const rounds of rows) {
    const shown = [...rounds].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(rounds.length / 2)]
    const ratios = rounds.map((figures, i) => figures.requestsPerSecond / baseline[i].requestsPerSecond)
    const ratio = rounds === baseline ? "1.00" : median(ratios).toFixed(2)
    const range = rounds === baseline || rounds.length === 1
      ? ""
      : `${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}`
    const cpus = rounds.flatMap((figures) => figures.cpuPerRequestUs === undefined ? [] : [figures.cpuPerRequestUs])
    const cpu = cpus.length === 0 ? "-" : median(cpus).toFixed(0)
    const non2xx = rounds.reduce((sum, figures) => sum + figures.non2xx, 0)
    console.log(
      shown.label.padEnd(34) +
        [shown.requestsPerSecond.toFixed(0), String(shown.p50), String(shown.p99), String(non2xx), ratio, range, cpu]
          .map((c) => c.padStart(12)).join("")
    )
  }
}
