/**
 * The MCP server, driven as an assistant drives it: the official
 * `@modelcontextprotocol/sdk` client over streamable HTTP against the real
 * server.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { assistant, callTool } from "../support/Assistant.ts"
import { connectedAccount, strangers } from "../jobs/support.ts"
import { toolNames } from "../../src/mcp/Tools.ts"
import { quietConnection } from "../workflows/support.ts"
import { call, layer as serverLayer, newWorkspace } from "../support/TestServer.ts"

/** A tool call's raw answer: whether it failed, and its text. */
const callRaw = (client: Client, name: string, args: Record<string, unknown>) =>
  Effect.promise(async () => {
    const result = await client.callTool({ name, arguments: args })
    const content: any = result.content
    return { isError: result.isError === true, text: String(content[0]?.text) }
  })

/** A call that fails at the protocol level (not a tool result): its message. */
const refused = (attempt: () => Promise<unknown>) =>
  Effect.promise(() => attempt().then(() => "no error", (error: unknown) => error instanceof Error ? error.message : String(error)))

layer(serverLayer())("the MCP server", (it) => {
  it.effect("lists every tool with a title and truthful annotations, and none decides an approval", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const client = yield* assistant(keyValue)
      const { tools } = yield* Effect.promise(() => client.listTools())
      const byName = new Map(tools.map((tool) => [tool.name, tool]))
      assert.deepStrictEqual(tools.map((tool) => tool.name).sort(), [...toolNames].sort())
      for (const tool of tools) {
        assert.isString(tool.title, tool.name)
        assert.strictEqual(tool.annotations?.title, tool.title, tool.name)
        // Closed: an argument the tool does not know is refused, not dropped.
        assert.strictEqual(tool.inputSchema["additionalProperties"], false, tool.name)
      }
      for (const name of ["get_profile", "search_people", "ssi", "get_job", "list_jobs", "list_approvals", "get_brief", "find_people", "forecast_account"]) {
        const hints = byName.get(name)?.annotations
        assert.strictEqual(hints?.readOnlyHint, true, name)
        assert.strictEqual(hints?.destructiveHint, false, name)
        assert.strictEqual(hints?.idempotentHint, true, name)
      }
      // A write is idempotent only with its key, so none claims it; each takes the key.
      for (const name of ["connect", "send_message", "withdraw_invite", "create_post", "start_workflow", "start_automation"]) {
        const hints = byName.get(name)?.annotations
        assert.strictEqual(hints?.readOnlyHint, false, name)
        assert.strictEqual(hints?.destructiveHint, true, name)
        assert.strictEqual(hints?.idempotentHint, false, name)
        assert.property(byName.get(name)?.inputSchema.properties ?? {}, "idempotencyKey", name)
      }
      // Pausing, resuming and stopping twice is the same as once.
      for (const name of ["pause_workflow", "resume_workflow", "stop_workflow", "pause_automation", "resume_automation", "stop_automation", "cancel_job"]) {
        const hints = byName.get(name)?.annotations
        assert.strictEqual(hints?.readOnlyHint, false, name)
        assert.strictEqual(hints?.idempotentHint, true, name)
      }
      assert.strictEqual(byName.get("stop_workflow")?.annotations?.destructiveHint, true)
      assert.strictEqual(byName.get("pause_workflow")?.annotations?.destructiveHint, false)
      assert.strictEqual(byName.get("send_message")?.annotations?.openWorldHint, true)
      assert.strictEqual(byName.get("list_jobs")?.annotations?.openWorldHint, false)
      // The command tools take the command's own input schema.
      assert.deepStrictEqual(byName.get("send_message")?.inputSchema.required?.slice().sort(), ["accountId", "input"])
      // One vocabulary: ids are `<thing>Id`, never `account`, `automation` or `id`.
      const argumentNames = new Set(tools.flatMap((tool) => Object.keys(tool.inputSchema.properties ?? {})))
      for (const name of ["account", "automation", "id", "job", "wait_seconds"]) assert.isFalse(argumentNames.has(name), name)
      assert.isTrue(argumentNames.has("accountId"))
      // Numbers are numbers.
      assert.strictEqual(JSON.parse(JSON.stringify(byName.get("get_job")?.inputSchema.properties?.["wait"])).type, "integer")
      assert.strictEqual(JSON.parse(JSON.stringify(byName.get("list_jobs")?.inputSchema.properties?.["limit"])).type, "integer")
      assert.strictEqual(JSON.parse(JSON.stringify(byName.get("get_brief")?.inputSchema.properties?.["hours"])).type, "integer")
      // Small: each command's output schema is its own job, not every command's.
      assert.isBelow(JSON.stringify({ tools }).length, 150 * 1024)
      for (const tool of tools) assert.isBelow(JSON.stringify(tool.outputSchema ?? {}).length, 2048, tool.name)
      // Nothing an assistant is offered decides, or could decide, an approval.
      assert.deepStrictEqual(tools.filter((tool) => /approv|reject|decide/.test(tool.name)).map((tool) => tool.name), ["list_approvals"])
      const decide = yield* Effect.promise(() => client.callTool({ name: "approve", arguments: { id: crypto.randomUUID() } }).then(
        (answer) => JSON.stringify(answer),
        (error: unknown) => String(error)
      ))
      assert.match(decide, /approve/)
      assert.notMatch(decide, /"ok":true/)
    }))

  it.effect("an unknown argument is a tool error naming it, at any depth; numbers are numbers", () =>
    Effect.gen(function*() {
      const { keyValue: token } = yield* newWorkspace()
      const accountId = yield* connectedAccount(token, { mode: "approve" })
      const client = yield* assistant(token)
      const [person] = strangers(accountId, 1, "mcp-strict")
      // `message` instead of `note`: refused, and nothing is queued.
      const misnamed = yield* callRaw(client, "connect", { accountId, input: { person, message: "Hi" } })
      assert.isTrue(misnamed.isError)
      assert.match(misnamed.text, /excess property[\s\S]*\["input"\]\["message"\]/)
      const queued = yield* call("GET", "/v1/jobs", { token })
      assert.deepStrictEqual(queued.body.jobs, [])
      const top = yield* callRaw(client, "list_jobs", { account: accountId })
      assert.isTrue(top.isError)
      assert.match(top.text, /excess property[\s\S]*\["account"\]/)
      const none = yield* callRaw(client, "list_accounts", { verbose: true })
      assert.isTrue(none.isError)
      assert.match(none.text, /\["verbose"\]/)
      // `wait: 30` is a number, as JSON has it; the string form is refused.
      const invite = yield* callTool(client, "connect", { accountId, input: { person, note: "Hi" } })
      assert.isFalse(invite.isError, JSON.stringify(invite.body))
      const waited = yield* callTool(client, "get_job", { jobId: invite.body.job.id, wait: 1 })
      assert.isFalse(waited.isError, JSON.stringify(waited.body))
      assert.strictEqual(waited.body.job.status, "awaiting_approval")
      const thirty = yield* callTool(client, "list_jobs", { accountId, limit: 30 })
      assert.deepStrictEqual(thirty.body.jobs.map((job: { id: string }) => job.id), [invite.body.job.id])
      const digits = yield* callRaw(client, "get_job", { jobId: invite.body.job.id, wait: "30" })
      assert.isTrue(digits.isError)
      assert.match(digits.text, /Expected number[\s\S]*\["wait"\]/)
      // Without an idempotency key, a second call is a second write: the annotation says so.
      const second = yield* callTool(client, "connect", { accountId, input: { person: strangers(accountId, 2, "mcp-strict")[1], note: "Hi" } })
      assert.notStrictEqual(second.body.job.id, invite.body.job.id)
    }))

  it.effect("pauses, resumes and stops a workflow and an automation it started", () =>
    Effect.gen(function*() {
      const { keyValue: token } = yield* newWorkspace()
      const accountId = yield* connectedAccount(token, { mode: "approve" })
      const client = yield* assistant(token)
      const [first] = strangers(accountId, 1, "mcp-flow")
      const second = quietConnection(accountId, "mcp-automation")
      const started = yield* callTool(client, "start_workflow", {
        accountId,
        person: first,
        steps: [{ type: "wait", seconds: 86_400 }, { type: "command", command: "get_profile" }],
        idempotencyKey: "mcp-flow-1"
      })
      assert.isFalse(started.isError, JSON.stringify(started.body))
      const workflowId = started.body.workflow.id
      assert.strictEqual(started.body.workflow.accountId, accountId)
      const paused = yield* callTool(client, "pause_workflow", { workflowId })
      assert.isTrue(paused.body.workflow.paused, JSON.stringify(paused.body))
      const resumed = yield* callTool(client, "resume_workflow", { workflowId })
      assert.isFalse(resumed.body.workflow.paused, JSON.stringify(resumed.body))
      const stopped = yield* callTool(client, "stop_workflow", { workflowId })
      assert.strictEqual(stopped.body.workflow.status, "cancelled", JSON.stringify(stopped.body))
      const seen = yield* call("GET", `/v1/workflows/${workflowId}`, { token })
      assert.strictEqual(seen.body.workflow.status, "cancelled")

      const automation = yield* callTool(client, "start_automation", {
        accountId,
        name: "MCP follow-ups",
        people: [second],
        messages: [{ text: "Thanks for connecting!" }]
      })
      assert.isFalse(automation.isError, JSON.stringify(automation.body))
      const automationId = automation.body.automation.id
      const pausedAutomation = yield* callTool(client, "pause_automation", { automationId })
      assert.strictEqual(pausedAutomation.body.automation.status, "paused", JSON.stringify(pausedAutomation.body))
      const resumedAutomation = yield* callTool(client, "resume_automation", { automationId })
      assert.notStrictEqual(resumedAutomation.body.automation.status, "paused")
      const stoppedAutomation = yield* callTool(client, "stop_automation", { automationId })
      assert.strictEqual(stoppedAutomation.body.automation.status, "stopped", JSON.stringify(stoppedAutomation.body))
      // Stopping again changes nothing: a conflict that says why.
      const again = yield* callTool(client, "stop_automation", { automationId })
      assert.isTrue(again.isError)
      assert.isString(again.body.error.message)
    }))

  it.effect("offers prompts for the daily work", () =>
    Effect.gen(function*() {
      const { keyValue: token } = yield* newWorkspace()
      const accountId = yield* connectedAccount(token)
      const client = yield* assistant(token)
      const { prompts } = yield* Effect.promise(() => client.listPrompts())
      assert.deepStrictEqual(prompts.map((prompt) => prompt.name).sort(), ["plan_campaign", "review_approvals", "triage_replies"])
      for (const prompt of prompts) assert.isString(prompt.title, prompt.name)
      const triage = yield* Effect.promise(() => client.getPrompt({ name: "triage_replies", arguments: { accountId } }))
      const text = JSON.stringify(triage.messages)
      assert.include(text, accountId)
      assert.include(text, "get_brief")
      assert.include(text, "idempotencyKey")
      const plan = yield* Effect.promise(() =>
        client.getPrompt({ name: "plan_campaign", arguments: { accountId, goal: "Meet ops leads in Lisbon" } })
      )
      assert.include(JSON.stringify(plan.messages), "Meet ops leads in Lisbon")
      const review = yield* Effect.promise(() => client.getPrompt({ name: "review_approvals", arguments: {} }))
      assert.include(JSON.stringify(review.messages), "list_approvals")
      const bad = yield* refused(() => client.getPrompt({ name: "triage_replies", arguments: { accountId: "nope" } }))
      assert.match(bad, /accountId|UUID/)
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
      assert.strictEqual(badAssume.body.error.type, "unprocessable")
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

  it.effect("serves the brief, the health report and the REST API as a short index of per-group documents", () =>
    Effect.gen(function*() {
      const { keyValue: token } = yield* newWorkspace()
      const { keyValue: stranger } = yield* newWorkspace("Other")
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
      // Another workspace's account: an error that says what and why, never an empty message.
      const outsider = yield* assistant(stranger)
      const foreign = yield* refused(() => outsider.readResource({ uri: `outreach://accounts/${accountId}/brief` }))
      assert.match(foreign, /notFound: No account/)

      const index = yield* Effect.promise(() => client.readResource({ uri: "outreach://openapi.json" }))
      const indexText: any = index.contents[0]
      assert.isBelow(indexText.text.length, 20 * 1024)
      const groups: Array<{ name: string; resource: string; operations: Array<string> }> = JSON.parse(indexText.text).groups
      const approvals = groups.find((group) => group.name === "Approvals")
      assert.include(approvals?.operations ?? [], "GET /v1/approvals: List approvals")
      const { resources } = yield* Effect.promise(() => client.listResources())
      assert.includeMembers(resources.map((resource) => resource.uri), groups.map((group) => group.resource))
      const document = yield* Effect.promise(() => client.readResource({ uri: approvals?.resource ?? "" }))
      const documentText: any = document.contents[0]
      const spec = JSON.parse(documentText.text)
      assert.strictEqual(spec.openapi, "3.1.0")
      assert.include(Object.keys(spec.paths), "/v1/approvals")
      for (const path of Object.keys(spec.paths)) assert.match(path, /^\/v1\/approvals/)
      // Every reference resolves inside the group's document.
      for (const [, kind, name] of documentText.text.matchAll(/"#\/components\/([^/]+)\/([^"]+)"/g)) {
        assert.property(spec.components[kind], name)
      }
    }))
})
