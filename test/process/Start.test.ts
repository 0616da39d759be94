/**
 * A start that cannot succeed says why in one line that names the fix, in the
 * log format, exits 1, prints no stack and no key; `--verbose` shows the cause.
 */
import { createServer, type Server } from "node:net"
import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import { cli, get, keyIn, run, startServer, stop, storage } from "../support/Processes.ts"
import { backend, serverDatabaseUrl } from "../support/TestDatabase.ts"

const start = (env: Record<string, string>, args: ReadonlyArray<string> = []) =>
  run("src/main.ts", args, { LOG_LEVEL: "Info", ...env })

/** The one error line, and proof nothing else went wrong on the way. */
const assertOneLine = (result: { readonly code: number | null; readonly output: string }, says: string) => {
  assert.strictEqual(result.code, 1, result.output)
  const errors = result.output.split("\n").filter((line) => line.includes("level=ERROR"))
  assert.strictEqual(errors.length, 1, result.output)
  assert.include(errors[0], says)
  assert.notMatch(result.output, /\n\s+at /, "a stack trace was printed")
  assert.isUndefined(keyIn(result.output), "a key was printed")
}

const listening = Effect.acquireRelease(
  Effect.callback<Server>((resume) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
  }),
  (server) => Effect.sync(() => server.close())
)

const portOf = (server: Server): string => {
  const address = server.address()
  return address !== null && typeof address === "object" ? String(address.port) : "0"
}

it.live(`a taken port: one line, no workspace, no key (${backend})`, () =>
  Effect.gen(function*() {
    const other = yield* listening
    const env = yield* storage
    const result = yield* start({ ...env, PORT: portOf(other) })
    assertOneLine(result, `Port ${portOf(other)} on 127.0.0.1 is already in use`)
    // Nothing was created on the way: the next start (on a free port) is a first start.
    const next = yield* startServer(env)
    assert.isDefined(keyIn(next.output()), next.output())
  }), 60_000)

it.live("an unreachable database: one line naming DATABASE_URL; --verbose shows the cause", () =>
  Effect.gen(function*() {
    const env = { DATABASE_URL: "postgres://postgres@127.0.0.1:1/nowhere" }
    assertOneLine(yield* start(env), "The database in DATABASE_URL cannot be reached")
    const verbose = yield* start(env, ["--verbose"])
    assert.strictEqual(verbose.code, 1)
    assert.include(verbose.output, "ECONNREFUSED")
    assert.include(verbose.output, "level=DEBUG")
  }), 60_000)

it.live("a bad setting: one line naming it", () =>
  Effect.gen(function*() {
    const env = yield* storage
    assertOneLine(yield* start({ ...env, PORT: "abc" }), "The setting PORT is not valid")
  }), 60_000)

it.live.skipIf(serverDatabaseUrl !== undefined)("a data directory another process holds: one line; the CLI's help still works", () =>
  Effect.gen(function*() {
    const env = yield* storage
    const first = yield* startServer(env)
    assertOneLine(yield* start(env), "is in use by process")
    const help = yield* cli(["--help"], env)
    assert.strictEqual(help.code, 0, help.output)
    assert.include(help.output, "key")
    assert.isDefined(first)
  }), 60_000)

it.live(`a lost first key: the CLI creates a new owner key for the workspace (${backend})`, () =>
  Effect.gen(function*() {
    const env = yield* storage
    const first = yield* startServer(env)
    const lostKey = keyIn(first.output())
    assert.isDefined(lostKey)
    // The embedded database has one process at a time: stop the server there; PostgreSQL serves both.
    if (serverDatabaseUrl === undefined) yield* stop(first)
    const listed = yield* cli(["workspace", "list"], env)
    const workspaceId = /^([0-9a-f-]{36})/m.exec(listed.output)?.[1]
    assert.isDefined(workspaceId, listed.output)
    const created = yield* cli(["key", "create", "--workspace", workspaceId ?? "", "--name", "recovered"], env)
    assert.strictEqual(created.code, 0, created.output)
    const newKey = keyIn(created.output)
    assert.isDefined(newKey, created.output)
    const server = serverDatabaseUrl === undefined ? yield* startServer(env) : first
    const me = yield* get(`${server.base}/v1/me`, newKey)
    assert.strictEqual(me.status, 200)
    assert.strictEqual(me.body.keyName, "recovered")
    const unknown = yield* cli(["key", "create", "--workspace", "00000000-0000-4000-8000-000000000000"], env)
    assert.strictEqual(unknown.code, 1, unknown.output)
    assert.notMatch(unknown.output, /\n\s+at /, "a stack trace was printed")
  }), 90_000)
