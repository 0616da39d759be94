/**
 * The workflow routes' contract, fast: the service's own handlers (`http/WorkflowsHandlers.ts`,
 * through `WorkflowIntake` and `WorkflowActivity`) behind the contract's middleware, called with the
 * typed client in memory (`HttpApiTest`), on the in-memory workflows (held to the stored ones by
 * `test/workflows/WorkflowsContract.ts`), idempotency and activity log, the sandbox's addresses
 * identifying a workflow's person. Nothing runs a workflow's steps here (that is the engine's, on
 * the database). Each test checks status codes, the envelope and error types, bad input included.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { HttpApiTest } from "effect/http-api"
import { ActivityLog } from "../../src/activity/ActivityLog.ts"
import { Api } from "../../src/api/Api.ts"
import type { Step } from "../../src/domain/Workflow.ts"
import { WorkflowsHandlers } from "../../src/http/WorkflowsHandlers.ts"
import { Workflows } from "../../src/workflows/Workflows.ts"
import { callerKeyId, callerWorkspaceId } from "../support/AnyCaller.ts"
import { assertEnvelope, inMemory, read, sending } from "../support/RouteCalls.ts"
import { memoryAccount as account, memoryServices, person } from "../workflows/InMemory.ts"

const client = HttpApiTest.groups(Api, ["workflows"])

const steps: ReadonlyArray<Step> = [
  { type: "command", command: "connect", input: { note: "Hi, glad to connect." } },
  { type: "wait", seconds: 3_600 },
  { type: "command", command: "send_message", input: { text: "Thanks!" } }
]

const notFoundNext = "List the workspace's workflows with GET /v1/workflows."

layer(inMemory(WorkflowsHandlers.pipe(Layer.provideMerge(memoryServices))))("the workflow routes in memory", (it) => {
  it.effect("POST /v1/workflows answers 202 with the workflow; GET reads it; an Idempotency-Key replays it and starts nothing", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const accountId = yield* account()
      const address = person("routes-start")
      const payload = { account: accountId, person: address.replace("https://www.", ""), steps }
      const [{ body: started, headers }, response] = yield* api.workflows.start({
        payload,
        headers: { "idempotency-key": "start-once" },
        responseMode: "decoded-and-response"
      })
      assert.strictEqual(response.status, 202)
      assert.isTrue(started.ok)
      assert.isUndefined(headers["idempotent-replayed"])
      assert.deepInclude(started.workflow, {
        accountId,
        automationId: null,
        person: address,
        status: "running",
        paused: false,
        step: null,
        stepAt: null,
        waitingFor: null,
        outcome: null,
        finishedAt: null
      })
      assert.deepStrictEqual(started.workflow.steps, steps)
      assert.deepStrictEqual(started.workflow.jobs, [])
      assert.deepStrictEqual(started.workflow.log.map((line) => line.entry), ["created"])

      const [got, gotResponse] = yield* api.workflows.get({ params: { id: started.workflow.id }, responseMode: "decoded-and-response" })
      assert.strictEqual(gotResponse.status, 200)
      assert.deepStrictEqual(got, { ok: true, workflow: started.workflow })

      const again = yield* api.workflows.start({ payload, headers: { "idempotency-key": "start-once" } })
      assert.strictEqual(again.headers["idempotent-replayed"], "true")
      assert.deepStrictEqual(again.body.workflow, started.workflow)
      const reused = yield* api.workflows.start({
        payload: { ...payload, steps: [steps[0]] },
        headers: { "idempotency-key": "start-once" },
        responseMode: "response-only"
      })
      // The same key with another body: 422, as for every idempotent start.
      assert.include(assertEnvelope(yield* read(reused), 422, "unprocessable").message, "start-once")
      const listed = yield* api.workflows.list({ query: { limit: 100 } })
      assert.strictEqual(listed.workflows.filter((workflow) => workflow.person === address).length, 1)
    })))

  it.effect("GET /v1/workflows answers 200 newest first, paged by cursor and limit, filtered by automation; a foreign cursor is 422", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const accountId = yield* account()
      const ids: Array<string> = []
      for (let i = 0; i < 3; i++) {
        ids.push((yield* api.workflows.start({ payload: { account: accountId, person: person("routes-list", i), steps }, headers: {} })).body.workflow.id)
      }
      const [first, response] = yield* api.workflows.list({ query: { limit: 2 }, responseMode: "decoded-and-response" })
      assert.strictEqual(response.status, 200)
      assert.deepStrictEqual(first.workflows.map((workflow) => workflow.id), [ids[2], ids[1]])
      assert.isString(first.nextCursor)
      const rest = yield* api.workflows.list({ query: { limit: 2, cursor: first.nextCursor ?? "" } })
      assert.strictEqual(rest.workflows[0]?.id, ids[0])
      const none = yield* api.workflows.list({ query: { automation: crypto.randomUUID() } })
      assert.deepStrictEqual(none, { ok: true, workflows: [], nextCursor: null })

      const foreign = yield* api.workflows.list({ query: { cursor: "not-a-cursor" }, responseMode: "response-only" })
      assertEnvelope(yield* read(foreign), 422, "unprocessable")
      const typed = yield* Effect.flip(api.workflows.list({ query: { cursor: "not-a-cursor" } }))
      assert.strictEqual(typed._tag, "Unprocessable")
      for (const path of ["/v1/workflows?limit=0", "/v1/workflows?limit=many", "/v1/workflows?automation=not-a-uuid"]) {
        const bad = yield* api.workflows.list({ query: {}, responseMode: "response-only" }).pipe(sending({ path }))
        assertEnvelope(yield* read(bad), 400, "badRequest")
      }
    })))

  it.effect("a bad start is refused before anything is stored: 404 for an account not of the workspace, 422 for the person or a step's input, 400 for a malformed body", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const accountId = yield* account()
      const elsewhere = yield* account(crypto.randomUUID())
      const start = (payload: { readonly account: string; readonly person: string; readonly steps: ReadonlyArray<Step> }) =>
        Effect.flatMap(api.workflows.start({ payload, headers: {}, responseMode: "response-only" }), read)
      const before = (yield* api.workflows.list({ query: { limit: 100 } })).workflows.length

      for (const unknown of [elsewhere, crypto.randomUUID()]) {
        const missing = assertEnvelope(yield* start({ account: unknown, person: person("routes-bad"), steps }), 404, "notFound")
        assert.include(missing.message, unknown)
      }
      const nobody = assertEnvelope(yield* start({ account: accountId, person: "not a profile address", steps }), 422, "unprocessable")
      assert.match(nobody.message, /^body\.person: /)
      const inputs = assertEnvelope(
        yield* start({ account: accountId, person: person("routes-bad"), steps: [{ type: "command", command: "send_message", input: { colour: "red" } }] }),
        422,
        "unprocessable"
      )
      assert.include(inputs.message, "body.steps[0].input")

      const typed = yield* Effect.flip(api.workflows.start({ payload: { account: accountId, person: "not a profile address", steps }, headers: {} }))
      assert.strictEqual(typed._tag, "Unprocessable")

      const call = api.workflows.start({ payload: { account: accountId, person: person("routes-bad"), steps }, headers: {}, responseMode: "response-only" })
      for (
        const [body, field] of [
          [{ account: accountId, person: "x" }, "steps"],
          [{ account: "not-a-uuid", person: "x", steps }, "account"],
          [{ account: accountId, person: "x", steps: [{ type: "teleport" }] }, "steps"],
          [{ account: accountId, person: "x", steps: [{ type: "wait", seconds: -1 }] }, "seconds"]
        ] as const
      ) {
        const error = assertEnvelope(yield* read(yield* call.pipe(sending({ body }))), 400, "badRequest")
        assert.include(error.message, field, JSON.stringify(body))
      }
      const notJson = yield* call.pipe(sending({ body: "not json" }))
      assertEnvelope(yield* read(notJson), 400, "badRequest")
      assert.strictEqual((yield* api.workflows.list({ query: { limit: 100 } })).workflows.length, before)
    })))

  it.effect("pause, resume and cancel answer 200 and are recorded with who did it; once ended 409; another workspace's or none is 404", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const accountId = yield* account()
      const { workflow } = (yield* api.workflows.start({ payload: { account: accountId, person: person("routes-change"), steps }, headers: {} })).body
      const params = { id: workflow.id }

      const [paused, response] = yield* api.workflows.pause({ params, responseMode: "decoded-and-response" })
      assert.strictEqual(response.status, 200)
      assert.isTrue(paused.workflow.paused)
      assert.isFalse((yield* api.workflows.resume({ params })).workflow.paused)
      const cancelled = (yield* api.workflows.cancel({ params })).workflow
      assert.deepInclude(cancelled, { status: "cancelled", outcome: "cancelled by a caller" })
      assert.isNotNull(cancelled.finishedAt)
      assert.deepStrictEqual(cancelled.log.map((line) => line.entry), ["created", "paused", "resumed", "cancelled: cancelled by a caller"])

      const { entries } = yield* (yield* ActivityLog).list(callerWorkspaceId, { resourceType: "workflow", limit: 100 })
      const mine = entries.filter((entry) => entry.resourceId === workflow.id)
      assert.deepStrictEqual(mine.map((entry) => entry.action), ["workflow.stopped", "workflow.resumed", "workflow.paused"])
      assert.isTrue(mine.every((entry) => entry.actor === `key:${callerKeyId}`), JSON.stringify(mine))
      assert.include(mine[0]?.summary ?? "", "stopped the workflow about")

      for (const change of [api.workflows.pause, api.workflows.resume, api.workflows.cancel]) {
        const ended = assertEnvelope(yield* read(yield* change({ params, responseMode: "response-only" })), 409, "conflict")
        assert.strictEqual(ended.message, `Workflow ${workflow.id} has already ended (cancelled).`)
        const unknown = assertEnvelope(yield* read(yield* change({ params: { id: crypto.randomUUID() }, responseMode: "response-only" })), 404, "notFound")
        assert.strictEqual(unknown.next, notFoundNext)
      }
      const typed = yield* Effect.flip(api.workflows.pause({ params }))
      assert.strictEqual(typed._tag, "Conflict")

      // Another workspace's workflow is not found, and not changed.
      const elsewhere = crypto.randomUUID()
      const workflows = yield* Workflows
      const theirs = yield* workflows.start({ workspaceId: elsewhere, accountId: yield* account(elsewhere), person: person("routes-theirs"), steps })
      for (const change of [api.workflows.pause, api.workflows.cancel, api.workflows.get]) {
        assertEnvelope(yield* read(yield* change({ params: { id: theirs.row.id }, responseMode: "response-only" })), 404, "notFound")
      }
      assert.deepInclude((yield* workflows.get(elsewhere, theirs.row.id)).row, { paused: false, status: "running" })
      const notJson = yield* api.workflows.get({ params, responseMode: "response-only" }).pipe(sending({ path: "/v1/workflows/not-a-uuid" }))
      assert.include(assertEnvelope(yield* read(notJson), 400, "badRequest").message, "id")
      const unknownGet = assertEnvelope(yield* read(yield* api.workflows.get({ params: { id: crypto.randomUUID() }, responseMode: "response-only" })), 404, "notFound")
      assert.strictEqual(unknownGet.next, notFoundNext)
    })))
})
