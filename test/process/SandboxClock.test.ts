/**
 * The test clock across a real restart: `node src/main.ts` with
 * `OUTREACH_CLOCK=test`, moved over HTTP, stopped, started again.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import { backend, freshPostgresUrl, serverDatabaseUrl } from "../support/TestDatabase.ts"

const root = new URL("../../", import.meta.url).pathname
const key = "svc_" + "C".repeat(43)

/** Starts `node src/main.ts` and waits for it to listen; killed if still running at the end. */
const startServer = (env: Record<string, string>) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly child: ChildProcess; readonly base: string }, Error>((resume) => {
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
          resume(Effect.succeed({ child, base: match[1].replace("0.0.0.0", "127.0.0.1") }))
        }
      }
      const onExit = (code: number | null) => resume(Effect.fail(new Error(`exited ${code}:\n${output}`)))
      child.stdout.on("data", onData)
      child.stderr.on("data", onData)
      child.on("exit", onExit)
    }),
    ({ child }) => child.exitCode === null ? Effect.sync(() => child.kill("SIGKILL")) : Effect.void
  )

/** SIGTERM, then the exit (its code is Processes.test.ts's concern). */
const stop = (child: ChildProcess) =>
  Effect.callback<number | null>((resume) => {
    if (child.exitCode !== null) return resume(Effect.succeed(child.exitCode))
    child.once("exit", (code) => resume(Effect.succeed(code)))
    child.kill("SIGTERM")
  })

const request = (url: string, body?: unknown) =>
  Effect.promise(async () => {
    const response = await fetch(url, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: response.status, body: await response.json() as Record<string, unknown> }
  })

it.live(`OUTREACH_CLOCK=test: the time moved over HTTP is where a restart resumes (${backend})`, () =>
  Effect.gen(function*() {
    const dir = yield* Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "outreach-clock-"))),
      (path) => Effect.sync(() => rmSync(path, { recursive: true, force: true }))
    )
    const env: Record<string, string> = {
      DATA_DIR: dir,
      DATABASE_URL: serverDatabaseUrl === undefined ? "" : yield* freshPostgresUrl(serverDatabaseUrl),
      OUTREACH_BOOTSTRAP_KEY: key,
      OUTREACH_CLOCK: "test"
    }

    const first = yield* startServer(env)
    const before = yield* request(`${first.base}/v1/sandbox/clock`)
    assert.strictEqual(before.status, 200)
    assert.strictEqual(before.body["mode"], "test")
    const moved = yield* request(`${first.base}/v1/sandbox/clock`, { advanceSeconds: 45 * 86_400 })
    assert.strictEqual(moved.status, 200)
    assert.strictEqual(Date.parse(String(moved.body["now"])), Date.parse(String(before.body["now"])) + 45 * 86_400_000)
    yield* stop(first.child)

    const second = yield* startServer(env)
    const after = yield* request(`${second.base}/v1/sandbox/clock`)
    assert.strictEqual(after.body["now"], moved.body["now"])
    yield* stop(second.child)

    // The default clock is the system clock, which refuses moves.
    const system = yield* startServer({ ...env, OUTREACH_CLOCK: "system" })
    const refused = yield* request(`${system.base}/v1/sandbox/clock`, { advanceSeconds: 60 })
    assert.strictEqual(refused.status, 409)
    yield* stop(system.child)
  }), { timeout: 90_000 })
