/**
 * An assistant as tests drive one: the official `@modelcontextprotocol/sdk` client over
 * streamable HTTP against the test server's `/mcp`.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect } from "effect"
import { HttpServer } from "effect/http"

export const mcpUrl = Effect.map(HttpServer.HttpServer, (server) =>
  new URL(server.address._tag === "UnixPathAddress" ? "http://invalid/mcp" : `http://127.0.0.1:${server.address.port}/mcp`))

/** An assistant connected with `key`; closed with the test's scope. */
export const assistant = (key: string) =>
  Effect.gen(function*() {
    const url = yield* mcpUrl
    return yield* Effect.acquireRelease(
      Effect.promise(async () => {
        const client = new Client({ name: "test-assistant", version: "1.0.0" })
        await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${key}` } } }))
        return client
      }),
      (client) => Effect.promise(() => client.close())
    )
  })

/** A tool call's structured answer (a failed call answers the REST envelope). */
export const callTool = (client: Client, name: string, args: Record<string, unknown>) =>
  Effect.promise(async () => {
    const result = await client.callTool({ name, arguments: args })
    // Untyped JSON as received: read like an assistant would.
    const content: any = result.content
    const text = content[0]?.text
    return { isError: result.isError === true, body: result.structuredContent ?? (text === undefined ? undefined : JSON.parse(text)) }
  })
