/**
 * `npm run mcp` across a real restart of the service: the desktop assistant's
 * bridge keeps its one MCP session while the service behind it stops, starts
 * again on the same data (and forgets every session), and a call made while
 * it was down waits for it instead of failing.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { assert, it } from "@effect/vitest"
import { Effect, Fiber, Schedule } from "effect"
import { freePort, keyIn, startServer, stop, storage } from "../support/Processes.ts"

const entry = new URL("../../src/mcp-stdio.ts", import.meta.url).pathname

it.live("the bridge opens a new session when the service restarts, and a call made while it is down waits for it", () =>
  Effect.gen(function*() {
    const env = { ...(yield* storage), PORT: String(yield* freePort) }
    const first = yield* startServer(env)
    const key = keyIn(first.output())
    assert.isDefined(key, first.output())
    let bridgeErrors = ""
    const client = yield* Effect.acquireRelease(
      Effect.promise(async () => {
        const client = new Client({ name: "desktop-assistant", version: "1.0.0" })
        const transport = new StdioClientTransport({
          command: process.execPath,
          args: [entry],
          env: { PATH: process.env["PATH"] ?? "", OUTREACH_URL: first.base, OUTREACH_API_KEY: key ?? "" },
          stderr: "pipe"
        })
        transport.stderr?.on("data", (chunk: Buffer) => (bridgeErrors += chunk.toString()))
        await client.connect(transport)
        return client
      }),
      (client) => Effect.promise(() => client.close())
    )
    const accounts = () =>
      Effect.promise(async () => {
        const answer = await client.callTool({ name: "list_accounts", arguments: {} })
        return { isError: answer.isError === true, text: JSON.stringify(answer.content) }
      })
    const before = yield* accounts()
    assert.isFalse(before.isError, before.text)

    // The service stops: the call made now waits, retried by the bridge, until the service is back.
    assert.strictEqual(yield* stop(first), 0)
    const during = yield* Effect.forkChild(accounts())
    // It reached the bridge and found nothing listening.
    yield* Effect.sync(() => bridgeErrors).pipe(
      Effect.repeat({ until: (errors) => errors.includes("not listening; trying again"), schedule: Schedule.spaced("50 millis") }),
      Effect.timeout("30 seconds")
    )
    const second = yield* startServer(env)
    assert.strictEqual(second.base, first.base)
    const answered = yield* Fiber.join(during)
    assert.isFalse(answered.isError, `${answered.text}\n${bridgeErrors}`)
    // The new service never knew the old session: the bridge opened a new one on its own.
    assert.include(bridgeErrors, "opened a new session")
    const tools = yield* Effect.promise(() => client.listTools())
    assert.include(tools.tools.map((tool) => tool.name), "list_accounts")

    // A restart between two calls (the session gone, the service up): the next call just works.
    assert.strictEqual(yield* stop(second), 0)
    yield* startServer(env)
    const after = yield* accounts()
    assert.isFalse(after.isError, `${after.text}\n${bridgeErrors}`)
    assert.strictEqual(bridgeErrors.match(/opened a new session/g)?.length, 2, bridgeErrors)
  }), 180_000)
