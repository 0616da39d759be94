/**
 * The automation routes' contract, fast: the service's own handlers (`http/AutomationsHandlers.ts`,
 * through `AutomationIntake` and `WorkflowActivity`) behind the contract's middleware, called with
 * the typed client in memory (`HttpApiTest`), on the in-memory automations and workflows (held to
 * the stored ones by `test/workflows/AutomationsContract.ts`), idempotency and activity log, the
 * sandbox's addresses identifying each person; the workflow routes beside them read the runs. Nothing runs the runs' steps here (the engine's, on
 * the database). Each test checks status codes, the envelope and error types, bad input included.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { HttpApiTest } from "effect/http-api"
import { ActivityLog } from "../../src/activity/ActivityLog.ts"
import { Api } from "../../src/api/Api.ts"
import { AutomationsHandlers } from "../../src/http/AutomationsHandlers.ts"
import { WorkflowsHandlers } from "../../src/http/WorkflowsHandlers.ts"
import { Automations } from "../../src/workflows/Automations.ts"
import { callerKeyId, callerWorkspaceId } from "../support/AnyCaller.ts"
import { assertEnvelope, inMemory, read, sending } from "../support/RouteCalls.ts"
import { memoryAccount as account, memoryServices, person } from "../workflows/InMemory.ts"

const client = HttpApiTest.groups(Api, ["automations", "workflows"])

const messages = [{ text: "Hello" }, { text: "Following up", afterDays: 3 }]

const notFoundNext = "List the workspace's automations with GET /v1/automations."

// The runs are read on the workflow routes, served beside.
layer(inMemory(Layer.mergeAll(AutomationsHandlers, WorkflowsHandlers).pipe(Layer.provideMerge(memoryServices))))("the automation routes in memory", (it) => {
  it.effect("POST /v1/automations answers 202 with one run per person in order; GET reads it; the list has it; an Idempotency-Key replays it", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const accountId = yield* account()
      const people = [person("routes-auto", 0), person("routes-auto", 1)]
      const payload = { account: accountId, name: "Spring follow-up", people, messages }
      const [{ body: started, headers }, response] = yield* api.automations.start({
        payload,
        headers: { "idempotency-key": "automation-once" },
        responseMode: "decoded-and-response"
      })
      assert.strictEqual(response.status, 202)
      assert.isTrue(started.ok)
      assert.isUndefined(headers["idempotent-replayed"])
      assert.deepInclude(started.automation, { accountId, name: "Spring follow-up", status: "active" })
      assert.deepStrictEqual(started.automation.messages, messages)
      assert.deepStrictEqual(started.automation.runs.map((run) => [run.person, run.status, run.outcome]), [
        [people[0], "running", null],
        [people[1], "running", null]
      ])

      const [got, gotResponse] = yield* api.automations.get({ params: { id: started.automation.id }, responseMode: "decoded-and-response" })
      assert.strictEqual(gotResponse.status, 200)
      assert.deepStrictEqual(got, { ok: true, automation: started.automation })
      const [listed, listResponse] = yield* api.automations.list({ responseMode: "decoded-and-response" })
      assert.strictEqual(listResponse.status, 200)
      assert.deepStrictEqual(listed.automations.find((automation) => automation.id === started.automation.id), started.automation)

      // Each run is a workflow of the automation, read on the workflow routes.
      const runs = yield* api.workflows.list({ query: { automation: started.automation.id } })
      assert.deepStrictEqual(runs.workflows.map((workflow) => workflow.id), started.automation.runs.map((run) => run.workflowId).reverse())
      assert.isTrue(runs.workflows.every((workflow) => workflow.automationId === started.automation.id))

      const again = yield* api.automations.start({ payload, headers: { "idempotency-key": "automation-once" } })
      assert.strictEqual(again.headers["idempotent-replayed"], "true")
      assert.deepStrictEqual(again.body.automation, started.automation)
      assert.strictEqual((yield* api.workflows.list({ query: { automation: started.automation.id } })).workflows.length, 2)
    })))

  it.effect("a bad start keeps nothing: 404 for an account not of the workspace, 422 naming the person's place, 400 for a malformed body", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const accountId = yield* account()
      const elsewhere = yield* account(crypto.randomUUID())
      const before = (yield* api.automations.list()).automations.length
      const start = (payload: { readonly account: string; readonly people: ReadonlyArray<string> }) =>
        Effect.flatMap(api.automations.start({ payload: { ...payload, name: "Bad", messages }, headers: {}, responseMode: "response-only" }), read)

      for (const unknown of [elsewhere, crypto.randomUUID()]) {
        assert.include(assertEnvelope(yield* start({ account: unknown, people: [person("routes-auto-bad")] }), 404, "notFound").message, unknown)
      }
      const nobody = assertEnvelope(yield* start({ account: accountId, people: [person("routes-auto-bad"), "not a profile address"] }), 422, "unprocessable")
      assert.match(nobody.message, /^body\.people\[1\]: /)

      const call = api.automations.start({ payload: { account: accountId, name: "Bad", people: [person("routes-auto-bad")], messages }, headers: {}, responseMode: "response-only" })
      for (
        const [body, field] of [
          [{ account: accountId, name: "Bad", people: [], messages }, "people"],
          [{ account: accountId, name: "", people: ["ada"], messages }, "name"],
          [{ account: accountId, name: "Bad", people: ["ada"], messages: [] }, "messages"],
          [{ account: accountId, name: "Bad", people: ["ada"], messages: [{ text: "Hi", afterDays: 2 }] }, "afterDays"],
          [{ account: "not-a-uuid", name: "Bad", people: ["ada"], messages }, "account"]
        ] as const
      ) {
        const error = assertEnvelope(yield* read(yield* call.pipe(sending({ body }))), 400, "badRequest")
        assert.include(error.message, field, JSON.stringify(body))
      }
      assert.strictEqual((yield* api.automations.list()).automations.length, before)
      assert.strictEqual((yield* api.workflows.list({ query: { limit: 100 } })).workflows.filter((workflow) => workflow.person === person("routes-auto-bad")).length, 0)
    })))

  it.effect("pause, resume and stop answer 200, change every run and are recorded with who did it; 409 when the status refuses; 404 for none or another workspace's", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const accountId = yield* account()
      const { automation } = (yield* api.automations.start({
        payload: { account: accountId, name: "Changes", people: [person("routes-auto-change", 0), person("routes-auto-change", 1)], messages },
        headers: {}
      })).body
      const params = { id: automation.id }
      const paused = (v: { readonly runs: ReadonlyArray<{ readonly workflowId: string }> }) =>
        Effect.forEach(v.runs, (run) => Effect.map(api.workflows.get({ params: { id: run.workflowId } }), ({ workflow }) => workflow.paused))

      const resumeActive = assertEnvelope(yield* read(yield* api.automations.resume({ params, responseMode: "response-only" })), 409, "conflict")
      assert.strictEqual(resumeActive.message, `Automation ${automation.id} is active.`)
      const [pausedOne, response] = yield* api.automations.pause({ params, responseMode: "decoded-and-response" })
      assert.strictEqual(response.status, 200)
      assert.strictEqual(pausedOne.automation.status, "paused")
      assert.deepStrictEqual(yield* paused(pausedOne.automation), [true, true])
      const pauseAgain = assertEnvelope(yield* read(yield* api.automations.pause({ params, responseMode: "response-only" })), 409, "conflict")
      assert.strictEqual(pauseAgain.message, `Automation ${automation.id} is paused.`)

      const resumed = (yield* api.automations.resume({ params })).automation
      assert.strictEqual(resumed.status, "active")
      assert.deepStrictEqual(yield* paused(resumed), [false, false])
      const stopped = (yield* api.automations.stop({ params })).automation
      assert.strictEqual(stopped.status, "stopped")
      assert.deepStrictEqual(stopped.runs.map((run) => [run.status, run.outcome]), [["cancelled", "cancelled by a caller"], ["cancelled", "cancelled by a caller"]])
      for (const change of [api.automations.pause, api.automations.resume, api.automations.stop]) {
        assert.strictEqual(assertEnvelope(yield* read(yield* change({ params, responseMode: "response-only" })), 409, "conflict").message, `Automation ${automation.id} is stopped.`)
        const unknown = assertEnvelope(yield* read(yield* change({ params: { id: crypto.randomUUID() }, responseMode: "response-only" })), 404, "notFound")
        assert.strictEqual(unknown.next, notFoundNext)
      }
      const typed = yield* Effect.flip(api.automations.stop({ params }))
      assert.strictEqual(typed._tag, "Conflict")

      const { entries } = yield* (yield* ActivityLog).list(callerWorkspaceId, { resourceType: "automation", limit: 100 })
      const mine = entries.filter((entry) => entry.resourceId === automation.id)
      assert.deepStrictEqual(mine.map((entry) => entry.action), ["automation.stopped", "automation.resumed", "automation.paused"])
      assert.isTrue(mine.every((entry) => entry.actor === `key:${callerKeyId}`), JSON.stringify(mine))
      assert.strictEqual(mine[0]?.summary, `stopped the automation "Changes" (2 people)`)

      // Another workspace's automation is not found, and not changed.
      const elsewhere = crypto.randomUUID()
      const automations = yield* Automations
      const theirs = yield* automations.start({ workspaceId: elsewhere, accountId: yield* account(elsewhere), name: "Theirs", people: [person("routes-theirs")], messages })
      for (const change of [api.automations.pause, api.automations.stop, api.automations.get]) {
        assertEnvelope(yield* read(yield* change({ params: { id: theirs.row.id }, responseMode: "response-only" })), 404, "notFound")
      }
      assert.strictEqual((yield* automations.get(elsewhere, theirs.row.id)).status, "active")
      const notUuid = yield* api.automations.get({ params, responseMode: "response-only" }).pipe(sending({ path: "/v1/automations/not-a-uuid" }))
      assert.include(assertEnvelope(yield* read(notUuid), 400, "badRequest").message, "id")
    })))
})
