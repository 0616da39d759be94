/**
 * The MCP server, driven as an assistant drives it: the official
 * `@modelcontextprotocol/sdk` client over streamable HTTP against the real
 * server.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { HttpServer } from "effect/http"
import { connectedAccount, strangers } from "../jobs/support.ts"
import { call, layer as serverLayer, newWorkspace } from "../support/TestServer.ts"

const mcpUrl = Effect.map(HttpServer.HttpServer, (server) =>
  new URL(server.address._tag === "UnixPathAddress" ? "http://invalid/mcp" : `http://127.0.0.1:${server.address.port}/mcp`))

/** An assistant connected with `key`; closed with the test's scope. */
const assistant = (key: string) =>
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
const callTool = (client: Client, name: string, args: Record<string, unknown>) =>
  Effect.promise(async () => {
    const result = await client.callTool({ name, arguments: args })
    // Untyped JSON as received: read like an assistant would.
    const content: any = result.content
    const text = content[0]?.text
    return { isError: result.isError === true, body: result.structuredContent ?? (text === undefined ? undefined : JSON.parse(text)) }
  })

/** A call that fails at the protocol level (not a tool result): its message. */
const refused = (attempt: () => Promise<unknown>) =>
  Effect.promise(() => attempt().then(() => "no error", (error: unknown) => error instanceof Error ? error.message : String(error)))

layer(serverLayer())("the MCP server", (it) => {
  it.effect("lists every tool with correct annotations, and none decides an approval", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const client = yield* assistant(keyValue)
      const { tools } = yield* Effect.promise(() => client.listTools())
      const byName = new Map(tools.map((tool) => [tool.name, tool]))
      assert.strictEqual(tools.length, 39)
      for (const name of ["get_profile", "search_people", "ssi", "get_job", "list_jobs", "list_approvals", "get_brief", "find_people", "forecast_account"]) {
        const hints = byName.get(name)?.annotations
        assert.strictEqual(hints?.readOnlyHint, true, name)
        assert.strictEqual(hints?.destructiveHint, false, name)
      }
      for (const name of ["connect", "send_message", "withdraw_invite", "create_post", "start_workflow", "start_automation"]) {
        const hints = byName.get(name)?.annotations
        assert.strictEqual(hints?.readOnlyHint, false, name)
        assert.strictEqual(hints?.destructiveHint, true, name)
        assert.strictEqual(hints?.idempotentHint, true, name)
        assert.property(byName.get(name)?.inputSchema.properties ?? {}, "idempotencyKey", name)
      }
      assert.strictEqual(byName.get("cancel_job")?.annotations?.idempotentHint, false)
      assert.strictEqual(byName.get("send_message")?.annotations?.openWorldHint, true)
      assert.strictEqual(byName.get("list_jobs")?.annotations?.openWorldHint, false)
      // The command tools take the command's own input schema.
      assert.deepStrictEqual(byName.get("send_message")?.inputSchema.required?.slice().sort(), ["accountId", "input"])
      // Nothing an assistant is offered decides, or could decide, an approval.
      assert.deepStrictEqual(tools.filter((tool) => /approv|reject|decide/.test(tool.name)).map((tool) => tool.name), ["list_approvals"])
      const decide = yield* callTool(client, "approve", { id: crypto.randomUUID() }).pipe(
        Effect.map((answer) => JSON.stringify(answer)),
        Effect.catchDefect((defect) => Effect.succeed(String(defect)))
      )
      assert.match(decide, /approve/)
      assert.notMatch(decide, /"ok":true/)
    }))

  it.effect("a read answers with its result; a write in approve mode waits for a person, and list_approvals shows it", () =>
    Effect.gen(function*() {
      const { keyValue: token } = yield* newWorkspace()
      const accountId = yield* connectedAccount(token, { mode: "approve" })
      const client = yield* assistant(token)
      const [person] = strangers(accountId, 1, "mcp")

      const profile = yield* callTool(client, "get_profile", { accountId, input: { person } })
      assert.isFalse(profile.isError, JSON.stringify(profile.body))
      assert.strictEqual(profile.body.job.status, "completed", JSON.stringify(profile.body))
      assert.isString(profile.body.job.result.providerId)

      const invite = yield* callTool(client, "connect", { accountId, input: { person }, idempotencyKey: "mcp-invite-1" })
      assert.isFalse(invite.isError, JSON.stringify(invite.body))
      assert.strictEqual(invite.body.job.status, "awaiting_approval")
      assert.strictEqual(invite.body.job.waitingFor.reason, "approval")
      // The idempotency key answers the same job again, and creates nothing.
      const again = yield* callTool(client, "connect", { accountId, input: { person }, idempotencyKey: "mcp-invite-1" })
      assert.strictEqual(again.body.job.id, invite.body.job.id)

      const pending = yield* callTool(client, "list_approvals", {})
      assert.deepStrictEqual(pending.body.approvals.map((a: { jobId: string }) => a.jobId), [invite.body.job.id])
      // The forecast lists it apart, and answers what-ifs without creating anything.
      const forecast = yield* callTool(client, "forecast_account", { accountId, assume: "connect:25" })
      assert.isFalse(forecast.isError, JSON.stringify(forecast.body))
      assert.deepStrictEqual(forecast.body.forecast.awaitingApproval.map((a: { jobId: string }) => a.jobId), [invite.body.job.id])
      assert.strictEqual(forecast.body.forecast.assumed[0].count, 25)
      const badAssume = yield* callTool(client, "forecast_account", { accountId, assume: "ssi:1" })
      assert.isTrue(badAssume.isError)
      assert.strictEqual(badAssume.body.error.type, "badRequest")
      // The job went through the same path as REST: the integrator sees it waiting too.
      const seen = yield* call("GET", `/v1/jobs/${invite.body.job.id}`, { token })
      assert.strictEqual(seen.body.job.status, "awaiting_approval")
    }))

  it.effect("bad input names the field; a failed call answers the REST envelope", () =>
    Effect.gen(function*() {
      const { keyValue: token } = yield* newWorkspace()
      const client = yield* assistant(token)
      // Arguments that fail the tool's schema are a tool error naming the path, as MCP asks (the model can correct itself).
      const badId = yield* Effect.promise(() => client.callTool({ name: "get_account", arguments: { accountId: "not-a-uuid" } }))
      assert.isTrue(badId.isError)
      assert.match(JSON.stringify(badId.content), /Expected a UUID.*accountId/)
      const badInput = yield* Effect.promise(() =>
        client.callTool({ name: "send_message", arguments: { accountId: crypto.randomUUID(), input: { text: 5 } } })
      )
      assert.isTrue(badInput.isError)
      assert.match(JSON.stringify(badInput.content), /input.*text/)
      // An input the schema accepts but the service refuses answers the REST envelope.
      const missing = yield* callTool(client, "get_account", { accountId: crypto.randomUUID() })
      assert.isTrue(missing.isError)
      assert.strictEqual(missing.body.ok, false)
      assert.strictEqual(missing.body.error.type, "notFound")
      assert.isString(missing.body.error.next)
    }))

  it.effect("a revoked key fails the assistant's very next call", () =>
    Effect.gen(function*() {
      const { keyValue: owner } = yield* newWorkspace()
      const created = yield* call("POST", "/v1/keys", { token: owner, body: { name: "assistant" } })
      assert.strictEqual(created.status, 201, JSON.stringify(created.body))
      const client = yield* assistant(created.body.value ?? created.body.key.value)
      const before = yield* callTool(client, "list_accounts", {})
      assert.isFalse(before.isError)
      const revoked = yield* call("POST", `/v1/keys/${created.body.key.id}/revoke`, { token: owner })
      assert.strictEqual(revoked.status, 200, JSON.stringify(revoked.body))
      const after = yield* refused(() => client.callTool({ name: "list_accounts", arguments: {} }))
      assert.match(after, /401|unknown or revoked/i)
      const list = yield* refused(() => client.listTools())
      assert.match(list, /401|unknown or revoked/i)
    }))

  it.effect("MCP calls count against the key's 600 a minute, and past it are refused", () =>
    Effect.gen(function*() {
      const { keyValue: token } = yield* newWorkspace()
      const client = yield* assistant(token)
      const remaining = Effect.map(call("GET", "/v1/me", { token }), (reply) => Number(reply.headers["ratelimit-remaining"]))
      const first = yield* remaining
      yield* callTool(client, "list_accounts", {})
      yield* callTool(client, "list_jobs", {})
      const second = yield* remaining
      // Two tool calls and the REST read itself.
      assert.strictEqual(first - second, 3)
      yield* Effect.forEach(Array.from({ length: second }, (_, i) => i), () => call("GET", "/v1/me", { token }), {
        concurrency: 16,
        discard: true
      })
      const limited = yield* refused(() => client.callTool({ name: "list_accounts", arguments: {} }))
      assert.match(limited, /429|Too many requests/i)
    }))

  it.effect("two assistants on keys of two workspaces see only their own accounts", () =>
    Effect.gen(function*() {
      const { keyValue: first } = yield* newWorkspace("First")
      const { keyValue: second } = yield* newWorkspace("Second")
      const mine = yield* connectedAccount(first, {}, "Mine")
      const theirs = yield* connectedAccount(second, {}, "Theirs")
      const a = yield* assistant(first)
      const b = yield* assistant(second)
      const listed = (client: Client) =>
        Effect.map(callTool(client, "list_accounts", {}), (answer) => answer.body.accounts.map((x: { id: string }) => x.id))
      assert.deepStrictEqual(yield* listed(a), [mine])
      assert.deepStrictEqual(yield* listed(b), [theirs])
      const across = yield* callTool(a, "get_account", { accountId: theirs })
      assert.strictEqual(across.body.error.type, "notFound")
    }))

  it.effect("serves the brief, the health report and the OpenAPI document as resources", () =>
    Effect.gen(function*() {
      const { keyValue: token } = yield* newWorkspace()
      const accountId = yield* connectedAccount(token)
      const client = yield* assistant(token)
      const { resourceTemplates } = yield* Effect.promise(() => client.listResourceTemplates())
      assert.includeMembers(resourceTemplates.map((t) => t.uriTemplate), [
        "outreach://accounts/{accountId}/brief",
        "outreach://accounts/{accountId}/health-report"
      ])
      const brief = yield* Effect.promise(() => client.readResource({ uri: `outreach://accounts/${accountId}/brief` }))
      const briefText: any = brief.contents[0]
      assert.isString(JSON.parse(briefText.text).headline)
      const openapi = yield* Effect.promise(() => client.readResource({ uri: "outreach://openapi.json" }))
      const doc: any = openapi.contents[0]
      assert.strictEqual(JSON.parse(doc.text).openapi, "3.1.0")
    }))
})
