/**
 * What `npm start` runs: the service bundled by `scripts/bundle.ts` into one
 * file, started with the service's `node` flags. It must start and serve like
 * `src/main.ts`, including what it loads from outside the bundle or builds
 * later: PGlite's files, htmx from its package, the API reference's chunk,
 * the MCP server.
 */
import { readFileSync, rmSync, utimesSync } from "node:fs"
import { join } from "node:path"
import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import { bundle, entry, upToDate } from "../../scripts/bundle.ts"
import { nodeFlags } from "../../src/platform/NodeFlags.ts"
import { emptyStorage, get, keyIn, startServer, stop } from "../support/Processes.ts"
import { backend } from "../support/TestDatabase.ts"

const root = new URL("../../", import.meta.url).pathname

/** A bundle of its own under `dist/` (where the packages left outside it resolve), removed after. */
const bundled = Effect.acquireRelease(
  Effect.promise(async () => {
    const dir = join("dist", `test-${process.pid}-${Date.now()}`)
    await bundle(dir)
    return dir
  }),
  (dir) => Effect.sync(() => rmSync(join(root, dir), { recursive: true, force: true }))
)

const fetchText = (url: string, init?: RequestInit) =>
  Effect.promise(async () => {
    const response = await fetch(url, init)
    return { status: response.status, body: await response.text() }
  })

it("npm start bundles, then runs the bundle with the service's node flags", () => {
  const start: unknown = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts.start
  assert.strictEqual(start, `node scripts/bundle.ts && exec node ${[...nodeFlags, entry].join(" ")}`)
})

it.live("npm start bundles again only when the bundle is missing or older than its sources", () =>
  Effect.gen(function*() {
    assert.isFalse(upToDate(join("dist", "never-bundled")))
    const dir = yield* bundled
    assert.isTrue(upToDate(dir))
    // A bundle written before the sources last changed is out of date.
    const past = new Date(Date.UTC(2020, 0, 1))
    utimesSync(join(root, dir, "main.js"), past, past)
    assert.isFalse(upToDate(dir))
  }).pipe(Effect.scoped), { timeout: 60_000 })

it.live(`the bundled service starts and answers, reference, dashboard assets and MCP included (${backend})`, () =>
  Effect.gen(function*() {
    const dir = yield* bundled
    const source = readFileSync(join(root, dir, "main.js"), "utf8")
    // V8 holds the source at one byte a character only while every character is Latin-1.
    assert.notMatch(source, /[^\x00-\xff]/)
    assert.include(source, 'from "@electric-sql/pglite"', "PGlite must stay outside the bundle, beside its files")
    // Empty storage: the bundle's own migrations create the database, as on a first install.
    const env = yield* emptyStorage
    const server = yield* startServer(env, [...nodeFlags, join(dir, "main.js")])
    const key = keyIn(server.output())
    assert.isDefined(key, server.output())
    assert.strictEqual((yield* get(`${server.base}/healthz`)).status, 200)
    const me = yield* get(`${server.base}/v1/me`, key)
    assert.strictEqual(me.status, 200)
    assert.isString(me.body["orgId"])
    const docs = yield* fetchText(`${server.base}/docs`)
    assert.strictEqual(docs.status, 200)
    assert.include(docs.body, "Scalar.createApiReference")
    const htmx = yield* fetchText(`${server.base}/dashboard/assets/htmx.min.js`)
    assert.strictEqual(htmx.status, 200)
    assert.isAbove(htmx.body.length, 10_000)
    const mcp = yield* fetchText(`${server.base}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } }
      })
    })
    assert.strictEqual(mcp.status, 200, mcp.body)
    assert.include(mcp.body, "outreach-service")
    assert.strictEqual(yield* stop(server), 0)
  }), 120_000)
