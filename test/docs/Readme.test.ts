/**
 * Every code block of the README, run as a reader copies it: the first hour's
 * commands in bash against `npm start` on a fresh data directory, the two MCP
 * client configurations with the official SDK's client, and the typed client
 * as a file that imports the package by name. The placeholders a reader fills
 * in (the key, and the ports when 8080 or 3000 are taken) are the only edits.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { assert, describe, it, layer } from "@effect/vitest"
import { Context, Effect, Layer, Schema } from "effect"
import { walkthroughPerson } from "../../src/sandbox/SandboxPeople.ts"
import { eventually } from "../support/Eventually.ts"
import { freePort, keyIn, run } from "../support/Processes.ts"
import { serverDatabaseUrl } from "../support/TestDatabase.ts"
import { blocksIn, readme, root } from "./ReadmeBlocks.ts"

const quickStart = "Quick start"
const firstHour = "Your first hour"
const assistants = "AI assistants (MCP)"
const library = "A typed client, and the core as a library"

/** The README's blocks as this file runs them; a block added to the README must be added here. */
const runs = [
  [quickStart, "sh"],
  [quickStart, ""],
  ...Array.from({ length: 6 }, () => [firstHour, "sh"]),
  [assistants, "json"],
  [assistants, "json"],
  [library, "ts"]
]

interface Running {
  readonly child: ChildProcess
  readonly output: () => string
}

/** A shell command in a process group of its own, killed with everything it started. */
const shell = (script: string, env: NodeJS.ProcessEnv) =>
  Effect.acquireRelease(
    Effect.sync((): Running => {
      const child = spawn("bash", ["-c", script], { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] })
      let output = ""
      const collect = (chunk: Buffer) => {
        output += chunk.toString()
      }
      child.stdout.on("data", collect)
      child.stderr.on("data", collect)
      return { child, output: () => output }
    }),
    ({ child }) =>
      Effect.sync(() => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL")
        } catch {
          // The group is gone already.
        }
      })
  )

const { DATABASE_URL: _ignored, ...embeddedEnv } = process.env

class FirstHour extends Context.Service<FirstHour, {
  readonly port: number
  readonly key: string
  readonly server: Running
  readonly walkthrough: Running
}>()("test/FirstHour") {}

/** The service started by the first hour's own command, then the first hour's commands run against it. */
const firstHourLayer = Layer.effect(
  FirstHour,
  Effect.gen(function*() {
    const [start, ...commands] = blocksIn(firstHour, "sh")
    const port = yield* freePort
    const hookPort = yield* freePort
    const dataDir = mkdtempSync(join(tmpdir(), "outreach-first-hour-"))
    yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))

    const server = yield* shell(start, { ...embeddedEnv, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "Info" })
    const started = yield* eventually("npm start to be ready", Effect.sync(server.output), (output) =>
      /message="?ready/.test(output) || server.child.exitCode !== null, 120_000, 100)
    const key = keyIn(started)
    if (key === undefined) return yield* Effect.die(new Error(`npm start printed no key:\n${started}`))

    const script = ["set -euo pipefail", ...commands].join("\n")
      .replaceAll("svc_…", key)
      .replaceAll("127.0.0.1:8080", `127.0.0.1:${port}`)
      .replaceAll("3000", String(hookPort))
      // A person reads "Listening for webhooks" before going on; the script waits for the listener to listen,
      // or an event sent before it is retried only a minute later (the first retry's delay).
      .replace(/(webhooks:listen[^\n]*&)\n/, `$1\nuntil (echo > /dev/tcp/127.0.0.1/${hookPort}) 2>/dev/null; do sleep 0.1; done\n`)
    const walkthrough = yield* shell(script, embeddedEnv)
    yield* eventually(
      "the walkthrough to finish and its webhooks to arrive",
      Effect.sync(walkthrough.output),
      (output) =>
        (walkthrough.child.exitCode !== null && walkthrough.child.exitCode !== 0) ||
        (walkthrough.child.exitCode === 0 && output.includes("verified job.completed") &&
          output.includes("verified account.connected")),
      120_000,
      100
    )
    return FirstHour.of({ port, key, server, walkthrough })
  })
)

describe("the README's code blocks", () => {
  it("are the ones this file runs", () => {
    assert.deepStrictEqual(
      readme().map((block) => [block.section, block.info]),
      runs,
      "a README code block changed: run it in test/docs/Readme.test.ts"
    )
  })

  it("invite in the first hour the sandbox's walkthrough person, whom no account is connected to", () => {
    // Anyone else is a connection of about one fresh account in 25, and the connect would fail its guardrail.
    const invited = blocksIn(firstHour, "sh").flatMap((block) => [...block.matchAll(/"person": "([^"]+)"/g)].map((m) => m[1]))
    assert.deepStrictEqual(invited, [walkthroughPerson])
  })

  it("name only npm scripts the project has", () => {
    const scripts = Schema.decodeUnknownSync(Schema.Struct({ scripts: Schema.Record(Schema.String, Schema.String) }))(
      JSON.parse(readFileSync(`${root}package.json`, "utf8"))
    ).scripts
    const text = readFileSync(`${root}README.md`, "utf8")
    const named = [...text.matchAll(/npm (?:run (?:-s |--silent )?([a-z:]+)|(start|test)\b)/g)].map((m) => m[1] ?? m[2])
    assert.includeMembers(named, ["start", "test", "webhooks:listen"])
    for (const name of named) assert.property(scripts, name, `the README names npm script "${name}"`)
  })
})

// The first hour is on the embedded defaults: run once, in the PGlite pass.
describe.skipIf(serverDatabaseUrl !== undefined)("the README's first hour, on embedded defaults", () =>
  layer(firstHourLayer, { timeout: 300_000 })((it) => {
    it.effect("npm start prints the key as the quick start shows", () =>
      Effect.gen(function*() {
        const { server } = yield* FirstHour
        const [shown] = blocksIn(quickStart, "")
        assert.include(server.output(), shown.split("\n")[0])
      }))

    it.effect("the first hour's commands run as written: approval, long-poll, verified webhooks", () =>
      Effect.gen(function*() {
        const { walkthrough } = yield* FirstHour
        const output = walkthrough.output()
        assert.strictEqual(walkthrough.child.exitCode, 0, output)
        assert.include(output, `"kind":"key"`)
        assert.include(output, `"status":"awaiting_approval"`)
        assert.include(output, `"text":"Hello María, good to meet you at the meetup."`)
        assert.match(output, /"status":"completed".*"note":"Hello María, it was good to meet you at the meetup\."/)
        assert.include(output, "verified account.connected")
        assert.include(output, "verified job.completed")
        assert.notInclude(output, "rejected")
      }))

    it.effect("Claude Desktop's configuration starts the stdio entry, which serves the tools", () =>
      Effect.gen(function*() {
        const { key, port } = yield* FirstHour
        const [desktop] = blocksIn(assistants, "json")
        const config = Schema.decodeUnknownSync(StdioConfig)(
          JSON.parse(desktop.replaceAll("svc_…", key).replaceAll("127.0.0.1:8080", `127.0.0.1:${port}`))
        ).mcpServers.outreach
        const tools = yield* listTools(
          new StdioClientTransport({
            command: config.command,
            args: config.args.map((arg) => arg === "/path/to/outreach-service" ? root : arg),
            env: { PATH: process.env["PATH"] ?? "", ...config.env },
            // Not this test process's own stderr: npm's child would hold it open after the client closes.
            stderr: "pipe"
          })
        )
        assert.includeMembers(tools, ["connect", "send_message", "get_job", "list_approvals"])
        assert.notInclude(tools, "approve")
      }), 60_000)

    it.effect("Cursor's configuration reaches POST /mcp with the key", () =>
      Effect.gen(function*() {
        const { key, port } = yield* FirstHour
        const [, cursor] = blocksIn(assistants, "json")
        const config = Schema.decodeUnknownSync(HttpConfig)(
          JSON.parse(cursor.replaceAll("svc_…", key).replaceAll("127.0.0.1:8080", `127.0.0.1:${port}`))
        ).mcpServers.outreach
        const tools = yield* listTools(
          new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } })
        )
        assert.includeMembers(tools, ["connect", "list_accounts", "list_approvals"])
      }))

    it.effect("the typed client example reads the first hour's account", () =>
      Effect.gen(function*() {
        const { key, port } = yield* FirstHour
        const [example] = blocksIn(library, "ts")
        const file = `${root}.readme-client-example.ts`
        writeFileSync(file, example.replaceAll("127.0.0.1:8080", `127.0.0.1:${port}`))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(file, { force: true })))
        const { code, output } = yield* run(file, [], { KEY: key })
        assert.strictEqual(code, 0, output)
        assert.match(output, /^completed \{.*María García/s)
      }), 90_000)
  }))

const StdioConfig = Schema.Struct({
  mcpServers: Schema.Struct({
    outreach: Schema.Struct({
      command: Schema.String,
      args: Schema.Array(Schema.String),
      env: Schema.Record(Schema.String, Schema.String)
    })
  })
})

const HttpConfig = Schema.Struct({
  mcpServers: Schema.Struct({
    outreach: Schema.Struct({ url: Schema.String, headers: Schema.Record(Schema.String, Schema.String) })
  })
})

/** Connects the official SDK's client on `transport` and lists the tool names. */
const listTools = (transport: StdioClientTransport | StreamableHTTPClientTransport) =>
  Effect.acquireUseRelease(
    Effect.promise(async () => {
      const client = new Client({ name: "readme", version: "1.0.0" })
      await client.connect(transport)
      return client
    }),
    (client) => Effect.promise(() => client.listTools().then(({ tools }) => tools.map((tool) => tool.name))),
    (client) => Effect.promise(() => client.close())
  )
