/**
 * Shared pieces of the benchmark scripts: starting the service as a child
 * process, a bare `node:http` baseline, running autocannon and printing a table.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import autocannon from "autocannon"

export interface Figures {
  readonly label: string
  readonly requestsPerSecond: number
  readonly p50: number
  readonly p99: number
  readonly non2xx: number
}

/** A child process started with `args`, resolved once it prints `readyPattern` on stdout. */
export const startProcess = (
  args: ReadonlyArray<string>,
  env: Record<string, string>,
  readyPattern: RegExp
): Promise<{ child: ChildProcess; match: RegExpMatchArray }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = output.match(readyPattern)
      if (match !== null) {
        child.stdout?.off("data", onData)
        child.stderr?.off("data", onData)
        resolve({ child, match })
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

/** Runs autocannon against `url`; `tokens` are rotated across requests. */
export const load = async (
  label: string,
  url: string,
  options: { readonly tokens?: ReadonlyArray<string>; readonly seconds: number; readonly connections: number }
): Promise<Figures> => {
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
  return {
    label,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx
  }
}

/** Prints figures side by side with the baseline (the first row). */
export const printTable = (title: string, rows: ReadonlyArray<Figures>) => {
  const baseline = rows[0]
  console.log(`\n${title}`)
  console.log(
    ["", "req/s", "p50 ms", "p99 ms", "non-2xx", "vs baseline"].map((h, i) => i === 0 ? h.padEnd(34) : h.padStart(12))
      .join("")
  )
  for (const row of rows) {
    const ratio = row === baseline ? "1.00" : (row.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)
    console.log(
      row.label.padEnd(34) +
        [row.requestsPerSecond.toFixed(0), String(row.p50), String(row.p99), String(row.non2xx), ratio]
          .map((c) => c.padStart(12)).join("")
    )
  }
}
