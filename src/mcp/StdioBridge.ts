/**
 * The stdio entry for desktop assistants (`npm run mcp`): a bridge between
 * the assistant's standard input and output and the running service's
 * `POST /mcp`, built from the official SDK's two transports. The assistant
 * talks to the same service, database and Governor as every other caller,
 * with the same API key rules: no second process owns the data.
 *
 * @since 1.0.0
 */
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js"
import { Config, Effect, Redacted } from "effect"

/** Where the bridge connects, and with which key. */
export const BridgeConfig = Config.all({
  url: Config.String("OUTREACH_URL").pipe(Config.withDefault("http://127.0.0.1:8080")),
  apiKey: Config.Redacted("OUTREACH_API_KEY")
})

const requestId = (message: JSONRPCMessage): string | number | undefined =>
  "method" in message && "id" in message ? message.id : undefined

const protocolVersionOf = (message: JSONRPCMessage): string | undefined =>
  "result" in message && typeof message.result["protocolVersion"] === "string" ? message.result["protocolVersion"] : undefined

/** Runs the bridge until standard input closes. */
export const run = Effect.gen(function*() {
  const { apiKey, url } = yield* BridgeConfig
  const endpoint = new URL("/mcp", url)
  const http = new StreamableHTTPClientTransport(endpoint, {
    requestInit: { headers: { authorization: `Bearer ${Redacted.value(apiKey)}` } }
  })
  const stdio = new StdioServerTransport()
  yield* Effect.callback<void>((resume) => {
    const forward = (message: JSONRPCMessage) => {
      const version = protocolVersionOf(message)
      // What `initialize` agreed is sent on every later request, as the transport requires.
      if (version !== undefined) http.setProtocolVersion(version)
      stdio.send(message).catch(() => resume(Effect.void))
    }
    http.onmessage = forward
    http.onerror = (error) => process.stderr.write(`outreach mcp: ${error.message}\n`)
    stdio.onmessage = (message) => {
      http.send(message).catch((error: unknown) => {
        const id = requestId(message)
        const reason = error instanceof Error ? error.message : String(error)
        process.stderr.write(`outreach mcp: ${endpoint.href} refused a request: ${reason}\n`)
        // The assistant gets an answer to its request instead of waiting forever.
        if (id !== undefined) {
          forward({ jsonrpc: "2.0", id, error: { code: -32000, message: `The service at ${endpoint.href} refused the request: ${reason}` } })
        }
      })
    }
    stdio.onclose = () => resume(Effect.void)
    // The assistant closed its end (it quit, or stopped the server): the bridge ends with it.
    process.stdin.once("end", () => resume(Effect.void))
    void http.start().then(() => stdio.start())
    return Effect.promise(() => Promise.all([http.close(), stdio.close()]))
  })
})
