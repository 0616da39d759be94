/**
 * The service's real processes for tests: `node src/main.ts` and
 * `node src/cli.ts`, each on storage of its own.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { createServer } from "node:net"
import { join } from "node:path"
import { Effect } from "effect"
import { freshPostgresUrl, pgliteCopyInto, postgresCopyUrl, serverDatabaseUrl } from "./TestDatabase.ts"

const root = new URL("../../", import.meta.url).pathname

export interface Running {
  readonly child: ChildProcess
  readonly output: () => string
  readonly base: string
}

/**
 * Starts `node src/main.ts` (or `node ...args`) and waits until it listens and
 * its first start is done (`ready`).
 */
export const startServer = (env: Record<string, string>, args: ReadonlyArray<string> = ["src/main.ts"]) =>
  Effect.acquireRelease(
    Effect.callback<Running, Error>((resume) => {
      const child = spawn(process.execPath, args, {
        cwd: root,
        env: { ...process.env, PORT: "0", LOG_LEVEL: "Info", ...env },
        stdio: ["ignore", "pipe", "pipe"]
      })
      let output = ""
      const onData = (chunk: Buffer) => {
        output += chunk.toString()
        const match = /Listening on (http:\/\/[^\s"]+)/.exec(output)
        if (match !== null && /message="?ready/.test(output)) {
          child.off("exit", onExit)
          resume(Effect.succeed({ child, output: () => output, base: match[1].replace("0.0.0.0", "127.0.0.1") }))
        }
      }
      const onExit = (code: number | null) => resume(Effect.fail(new Error(`exited ${code}:\n${output}`)))
      child.stdout.on("data", onData)
      child.stderr.on("data", onData)
      child.on("exit", onExit)
    }),
    ({ child }) => child.exitCode === null ? Effect.sync(() => child.kill("SIGKILL")) : Effect.void
  )

/** Sends SIGTERM and waits for the exit code. */
export const stop = (running: Running) =>
  Effect.callback<number | null>((resume) => {
    if (running.child.exitCode !== null) return resume(Effect.succeed(running.child.exitCode))
    running.child.once("exit", (code) => resume(Effect.succeed(code)))
    running.child.kill("SIGTERM")
  })

/** A TCP port free on 127.0.0.1 right now. */
export const freePort = Effect.callback<number>((resume) => {
  const probe = createServer()
  probe.listen(0, "127.0.0.1", () => {
    const address = probe.address()
    const port = address !== null && typeof address === "object" ? address.port : 0
    probe.close(() => resume(Effect.succeed(port)))
  })
})

/** How long a command may run, and a request wait for its answer (a long-poll waits 60 s at most), before the test fails. */
const commandTimeoutMs = 120_000
const requestTimeoutMs = 90_000

/** Runs `node <script> ...args` to completion: its exit code and everything it printed. */
export const run = (script: string, args: ReadonlyArray<string>, env: Record<string, string>) =>
  Effect.callback<{ readonly code: number | null; readonly output: string }>((resume) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    // A command that never ends fails the test with what it printed, instead of hanging it.
    const timer = setTimeout(() => child.kill("SIGKILL"), commandTimeoutMs)
    child.on("exit", (code, signal) => {
      clearTimeout(timer)
      resume(
        signal === "SIGKILL"
          ? Effect.die(new Error(`node ${script} ${args.join(" ")} did not end in ${commandTimeoutMs} ms:\n${output}`))
          : Effect.succeed({ code, output })
      )
    })
  })

/** Runs the operator CLI to completion. */
export const cli = (args: ReadonlyArray<string>, env: Record<string, string>) => run("src/cli.ts", args, env)

export const get = (url: string, token?: string) => send("GET", url, token)

/** A JSON request; the reply's body parsed. */
export const send = (
  method: string,
  url: string,
  token?: string,
  body?: unknown,
  headers: Record<string, string> = {}
) =>
  Effect.promise(async () => {
    const response = await fetch(url, {
      // A request the server never answers fails the test, saying which, instead of hanging it.
      signal: AbortSignal.timeout(requestTimeoutMs),
      method,
      headers: {
        ...headers,
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    // Untyped JSON as received, read the way an integrator would.
    const json: any = await response.json()
    return { status: response.status, body: json }
  })

/**
 * Storage for one test: a temporary DATA_DIR, or a new database on the PostgreSQL server; `migrated`, a
 * copy of the tiers' migrated template there (`TestDatabase.ts`), else empty.
 */
const storageFor = (migrated: boolean) =>
  Effect.gen(function*() {
    const dir = yield* Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "outreach-process-"))),
      (path) => Effect.sync(() => rmSync(path, { recursive: true, force: true }))
    )
    const env: Record<string, string> = { DATA_DIR: dir, DATABASE_URL: "" }
    if (serverDatabaseUrl !== undefined) {
      env["DATABASE_URL"] = yield* (migrated ? postgresCopyUrl : freshPostgresUrl)(serverDatabaseUrl)
    } else if (migrated) {
      yield* pgliteCopyInto(dir)
    }
    return env
  })

/**
 * Storage for one test, migrated already: a process started on it opens the database instead of
 * creating and migrating one, seconds of every start.
 */
export const storage = storageFor(true)

/** Storage for one test, empty: the first process on it creates and migrates the database, as on a first install. */
export const emptyStorage = storageFor(false)

/** The first API key printed in `output`, if any. */
export const keyIn = (output: string) => /(svc_[A-Za-z0-9_-]{43})/.exec(output)?.[1]
