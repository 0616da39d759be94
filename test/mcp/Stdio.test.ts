/**
 * `npm run mcp` as a desktop assistant starts it: a child process on stdio,
 * bridged to the running service, driven by the official SDK's client.
 */
import { execFile } from "node:child_process"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { HttpServer } from "effect/http"
import { toolNames } from "../../src/mcp/Tools.ts"
import { layer as serverLayer, newWorkspace } from "../support/TestServer.ts"

const entry = new URL("../../src/mcp-stdio.ts", import.meta.url).pathname

const serviceUrl = Effect.map(HttpServer.HttpServer, (server) =>
  server.address._tag === "UnixPathAddress" ? "http://invalid" : `http://127.0.0.1:${server.address.port}`)

layer(serverLayer())("the stdio entry", (it) => {
  it.effect("lists the tools and calls one through the running service", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const url = yield* serviceUrl
      const client = yield* Effect.acquireRelease(
        Effect.promise(async () => {
          const client = new Client({ name: "desktop-assistant", version: "1.0.0" })
          await client.connect(
            new StdioClientTransport({
              command: process.execPath,
              args: [entry],
              env: { PATH: process.env["PATH"] ?? "", OUTREACH_URL: url, OUTREACH_API_KEY: keyValue },
              stderr: "pipe"
            })
          )
          return client
        }),
        (client) => Effect.promise(() => client.close())
      )
      const { tools } = yield* Effect.promise(() => client.listTools())
      assert.strictEqual(tools.length, toolNames.length)
      assert.include(tools.map((tool) => tool.name), "send_message")
      const accounts = yield* Effect.promise(() => client.callTool({ name: "list_accounts", arguments: {} }))
      assert.isFalse(accounts.isError === true)
      assert.deepStrictEqual(JSON.parse(JSON.stringify(accounts.structuredContent)).accounts, [])
    }))

  it.effect("without a key it says which setting to give, and exits 1", () =>
    Effect.gen(function*() {
      const outcome = yield* Effect.promise(() =>
        new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) => {
          const child = execFile(process.execPath, [entry], { env: { PATH: process.env["PATH"] ?? "" } }, (error, stdout, stderr) =>
            resolve({ code: error === null ? 0 : child.exitCode, stderr, stdout }))
          child.stdin?.end()
        })
      )
      assert.strictEqual(outcome.code, 1)
      assert.match(outcome.stderr, /OUTREACH_API_KEY/)
      assert.strictEqual(outcome.stdout, "")
    }))
})
