/**
 * The real processes, as an operator runs them: `npm start` (src/main.ts) and
 * `npm run cli` (src/cli.ts), on the backend the tests run on.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import { backend, freshPostgresUrl, serverDatabaseUrl } from "../support/TestDatabase.ts"

const root = new URL("../../", import.meta.url).pathname

interface Running {
  readonly child: ChildProcess
  readonly output: () => string
  readonly base: string
}

/** Starts `node src/main.ts` and waits for it to listen. */
const startServer = (env: Record<string, string>) =>
  Effect.acquireRelease(
    Effect.callback<Running, Error>((resume) => {
      const child = spawn(process.execPath, ["src/main.ts"], {
        cwd: root,
        env: { ...process.env, PORT: "0", LOG_LEVEL: "Info", ...env },
        stdio: ["ignore", "pipe", "pipe"]
      })
      let output = ""
      const onData = (chunk: Buffer) => {
        output += chunk.toString()
        const match = /Listening on (http:\/\/[^\s"]+)/.exec(output)
        if (match !== null) {
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
const stop = (running: Running) =>
  Effect.callback<number | null>((resume) => {
    if (running.child.exitCode !== null) return resume(Effect.succeed(running.child.exitCode))
    running.child.once("exit", (code) => resume(Effect.succeed(code)))
    running.child.kill("SIGTERM")
  })

/** Runs the operator CLI to completion. */
const cli = (args: ReadonlyArray<string>, env: Record<string, string>) =>
  Effect.callback<{ readonly code: number | null; readonly output: string }>((resume) => {
    const child = spawn(process.execPath, ["src/cli.ts", ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.on("exit", (code) => resume(Effect.succeed({ code, output })))
  })

const get = (url: string, token?: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } })
    return { status: response.status, body: await response.json() as Record<string, unknown> }
  })

/** Storage for one test: a temporary DATA_DIR, or a fresh database on the PostgreSQL server. */
const storage = Effect.gen(function*() {
  const dir = yield* Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "outreach-process-"))),
    (path) => Effect.sync(() => rmSync(path, { recursive: true, force: true }))
  )
  const env: Record<string, string> = { DATA_DIR: dir, DATABASE_URL: "" }
  if (serverDatabaseUrl !== undefined) env["DATABASE_URL"] = yield* freshPostgresUrl(serverDatabaseUrl)
  return env
})

const keyIn = (output: string) => /(svc_[A-Za-z0-9_-]{43})/.exec(output)?.[1]

it.live(`first start prints a key once; SIGTERM exits cleanly; a restart loses nothing (${backend})`, () =>
  Effect.gen(function*() {
    const env = yield* storage
    const first = yield* startServer(env)
    const key = keyIn(first.output())
    assert.isDefined(key, first.output())
    assert.strictEqual((yield* get(`${first.base}/healthz`)).status, 200)
    const me = yield* get(`${first.base}/v1/me`, key)
    assert.strictEqual(me.status, 200)
    assert.strictEqual(yield* stop(first), 0)

    const second = yield* startServer(env)
    assert.isUndefined(keyIn(second.output()), "a key was printed again")
    const again = yield* get(`${second.base}/v1/me`, key)
    assert.strictEqual(again.status, 200)
    assert.strictEqual(again.body["orgId"], me.body["orgId"])
    assert.strictEqual(yield* stop(second), 0)
  }), { timeout: 60_000 })

it.live(`the bootstrap key makes sure its workspace exists, idempotently (${backend})`, () =>
  Effect.gen(function*() {
    const env = yield* storage
    const bootstrapKey = "svc_" + "A".repeat(43)
    const first = yield* startServer({ ...env, OUTREACH_BOOTSTRAP_KEY: bootstrapKey })
    assert.isUndefined(keyIn(first.output()))
    const me = yield* get(`${first.base}/v1/me`, bootstrapKey)
    assert.strictEqual(me.status, 200)
    assert.strictEqual(yield* stop(first), 0)
    const second = yield* startServer({ ...env, OUTREACH_BOOTSTRAP_KEY: bootstrapKey })
    const again = yield* get(`${second.base}/v1/me`, bootstrapKey)
    assert.strictEqual(again.body["orgId"], me.body["orgId"])
    assert.strictEqual(yield* stop(second), 0)
  }), { timeout: 60_000 })

it.live(`the operator CLI creates, lists and changes workspaces (${backend})`, () =>
  Effect.gen(function*() {
    const env = yield* storage
    const created = yield* cli(["workspace", "create", "--name", "Acme", "--seats", "3"], env)
    assert.strictEqual(created.code, 0, created.output)
    const key = keyIn(created.output)
    assert.isDefined(key, created.output)
    const id = /workspace ([0-9a-f-]{36})/.exec(created.output)?.[1]
    assert.isDefined(id)

    const seats = yield* cli(["workspace", "seats", id!, "7"], env)
    assert.strictEqual(seats.code, 0, seats.output)
    const listed = yield* cli(["workspace", "list"], env)
    assert.include(listed.output, id!)
    assert.match(listed.output, /seats\s+7\s+Acme/)

    const unknown = yield* cli(["workspace", "seats", crypto.randomUUID(), "2"], env)
    assert.notStrictEqual(unknown.code, 0)

    const server = yield* startServer(env)
    const live = yield* cli(["workspace", "create", "--name", "Live"], env)
    if (serverDatabaseUrl !== undefined) {
      // On PostgreSQL the CLI works while the server runs.
      assert.strictEqual(live.code, 0, live.output)
      const me = yield* get(`${server.base}/v1/me`, keyIn(live.output))
      assert.strictEqual(me.status, 200)
    } else {
      // The embedded database is one process's at a time: the CLI refuses, clearly, and nothing breaks.
      assert.notStrictEqual(live.code, 0)
      assert.include(live.output, "in use by process")
      assert.strictEqual((yield* get(`${server.base}/healthz`)).status, 200)
    }
    assert.strictEqual(yield* stop(server), 0)
  }), { timeout: 60_000 })
