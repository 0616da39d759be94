import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { Inbox } from "../../src/inbox/Inbox.ts"
import { DAY, nonAccepting, strangers, workspaceWithAccount } from "../jobs/support.ts"
import { call, layer as serverLayer } from "../support/TestServer.ts"
import { quietConnection, startWorkflow, WORKFLOW_TEST_TIMEOUT, workflowUntil } from "./support.ts"

const connectThenMessage = (timeoutDays: number) => [
  { type: "command", command: "connect", input: { note: "Hi, glad to connect." } },
  {
    type: "waitFor",
    condition: { type: "accepted" },
    timeoutSeconds: timeoutDays * 86_400,
    then: [{ type: "command", command: "send_message", input: { text: "Thanks for connecting!" } }],
    else: [{ type: "command", command: "withdraw_invite" }]
  }
]

const kinds = (workflow: any) => workflow.jobs.map((job: any) => `${job.kind}:${job.status}`)

layer(serverLayer(), { timeout: WORKFLOW_TEST_TIMEOUT })("workflows", (it) => {
  it.effect("connect, then message once the invitation is accepted", () =>
    Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount()
      const person = nonAccepting(accountId, "workflow-accept")
      const started = yield* startWorkflow(token, { account: accountId, person, steps: connectThenMessage(14) })
      assert.strictEqual(started.person, person)

      // The connect job runs, then the workflow waits for the acceptance, up to 14 days.
      const waiting = yield* workflowUntil(token, started.id, (w) => w.status === "waiting" && w.step?.startsWith("1:"))
      assert.deepStrictEqual(kinds(waiting), ["connect:completed"])
      assert.strictEqual(waiting.waitingFor.what, "the invitation to be accepted")
      assert.strictEqual(waiting.waitingFor.reason, "condition")
      assert.deepStrictEqual(waiting.stepAt, { path: "1", index: 1, depth: 1, type: "waitFor", command: null })
      assert.isNotNull(waiting.waitingFor.until)

      // The person accepts; syncing records it and the workflow sends the message.
      const job = yield* call("GET", `/v1/jobs/${waiting.jobs[0].jobId}`, { token })
      const accepted = yield* call("POST", `/v1/sandbox/accounts/${accountId}/events`, {
        token,
        body: { type: "invitation_accepted", invitationId: job.body.job.result.invitationId }
      })
      assert.strictEqual(accepted.status, 200, JSON.stringify(accepted.body))
      yield* (yield* Inbox).syncAccount(accountId)

      const done = yield* workflowUntil(token, started.id, (w) => w.status === "completed", { movePacing: true })
      assert.deepStrictEqual(kinds(done), ["connect:completed", "send_message:completed"])
      assert.strictEqual(done.outcome, "every step ran")
      assert.isNotNull(done.finishedAt)
      assert.includeMembers(done.log.map((entry: any) => entry.entry), ["took then", "completed: every step ran"])
    }), WORKFLOW_TEST_TIMEOUT)

  it.effect("no acceptance: the invitation is withdrawn after the set days, and not before", () =>
    Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount()
      const person = nonAccepting(accountId, "workflow-withdraw")
      const started = yield* startWorkflow(token, { account: accountId, person, steps: connectThenMessage(5) })
      yield* workflowUntil(token, started.id, (w) => w.status === "waiting" && w.step?.startsWith("1:"))

      // Four days on it still waits; nothing was withdrawn.
      yield* TestClock.adjust(4 * DAY)
      const still = yield* workflowUntil(token, started.id, (w) => w.status === "waiting")
      assert.deepStrictEqual(kinds(still), ["connect:completed"])

      // Past the fifth day it takes the else branch and withdraws.
      yield* TestClock.adjust(DAY + 60_000)
      const done = yield* workflowUntil(token, started.id, (w) => w.status === "completed", { movePacing: true })
      assert.deepStrictEqual(kinds(done), ["connect:completed", "withdraw_invite:completed"])
      assert.include(done.log.map((entry: any) => entry.entry), "took else")
    }), WORKFLOW_TEST_TIMEOUT)

  it.effect("bad requests are answered in the envelope: step inputs, people, accounts and ids", () =>
    Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount()
      const [person] = strangers(accountId, 1, "workflow-bad")
      const badInput = yield* call("POST", "/v1/workflows", {
        token,
        body: {
          account: accountId,
          person,
          steps: [{
            type: "waitFor",
            condition: { type: "accepted" },
            timeoutSeconds: 60,
            then: [{ type: "command", command: "send_message", input: { text: "" } }]
          }]
        }
      })
      // The document describes a step's input only as its command's: a mismatch is 422, not 400.
      assert.strictEqual(badInput.status, 422)
      assert.strictEqual(badInput.body.error.type, "unprocessable")
      assert.include(badInput.body.error.message, "body.steps[0].then[0].input.text")

      const badStep = yield* call("POST", "/v1/workflows", {
        token,
        body: { account: accountId, person, steps: [{ type: "wait", seconds: 0 }, { type: "jump" }] }
      })
      assert.strictEqual(badStep.status, 400)
      assert.include(badStep.body.error.message, "body.steps.0")
      assert.include(badStep.body.error.message, "body.steps.1")

      const empty = yield* call("POST", "/v1/workflows", { token, body: { account: accountId, person, steps: [] } })
      assert.strictEqual(empty.status, 400)

      const nobody = yield* call("POST", "/v1/workflows", {
        token,
        body: { account: accountId, person: "not a profile", steps: [{ type: "command", command: "get_profile" }] }
      })
      assert.strictEqual(nobody.status, 422, JSON.stringify(nobody.body))
      assert.include(nobody.body.error.message, "body.person")

      const noAccount = yield* call("POST", "/v1/workflows", {
        token,
        body: { account: crypto.randomUUID(), person, steps: [{ type: "command", command: "get_profile" }] }
      })
      assert.strictEqual(noAccount.status, 404)
      assert.strictEqual(noAccount.body.error.type, "notFound")

      const unknown = yield* call("GET", `/v1/workflows/${crypto.randomUUID()}`, { token })
      assert.strictEqual(unknown.status, 404)
      assert.strictEqual(unknown.body.error.type, "notFound")
      const badCursor = yield* call("GET", "/v1/workflows?cursor=nope", { token })
      assert.strictEqual(badCursor.status, 422)
    }), WORKFLOW_TEST_TIMEOUT)
})

layer(serverLayer(), { timeout: WORKFLOW_TEST_TIMEOUT })("workflows under the account's rules", (it) => {
  it.effect("in approve mode each write waits for a person: approved it runs, rejected the workflow fails", () =>
    Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount({ mode: "approve" })
      const [first, second] = strangers(accountId, 2, "workflow-approve")
      const steps = [{ type: "command", command: "get_profile" }, { type: "command", command: "connect" }]

      const approved = yield* startWorkflow(token, { account: accountId, person: first, steps })
      const pending = yield* workflowUntil(
        token,
        approved.id,
        (w) => kinds(w).includes("connect:awaiting_approval") && w.status === "waiting"
      )
      assert.deepStrictEqual(kinds(pending), ["get_profile:completed", "connect:awaiting_approval"])
      assert.strictEqual(pending.status, "waiting")
      const job = yield* call("GET", `/v1/jobs/${pending.jobs[1].jobId}`, { token })
      const decision = yield* call("POST", `/v1/approvals/${job.body.job.approvalId}/approve`, { token })
      assert.strictEqual(decision.status, 200, JSON.stringify(decision.body))
      const done = yield* workflowUntil(token, approved.id, (w) => w.status === "completed", { movePacing: true })
      assert.deepStrictEqual(kinds(done), ["get_profile:completed", "connect:completed"])

      const rejected = yield* startWorkflow(token, { account: accountId, person: second, steps })
      const waiting = yield* workflowUntil(token, rejected.id, (w) => kinds(w).includes("connect:awaiting_approval"))
      const other = yield* call("GET", `/v1/jobs/${waiting.jobs[1].jobId}`, { token })
      yield* call("POST", `/v1/approvals/${other.body.job.approvalId}/reject`, { token, body: { reason: "not this one" } })
      const failed = yield* workflowUntil(token, rejected.id, (w) => w.status === "failed")
      assert.strictEqual(failed.error.type, "approvalRejected")
      assert.deepStrictEqual(kinds(failed), ["get_profile:completed", "connect:failed"])
    }), WORKFLOW_TEST_TIMEOUT)

  it.effect("pause holds the next command step until resumed; cancel ends it and runs nothing more", () =>
    Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount()
      const [person, other] = strangers(accountId, 2, "workflow-pause")
      const steps = [
        { type: "command", command: "get_profile" },
        { type: "wait", seconds: 3600 },
        { type: "command", command: "get_profile" }
      ]
      const started = yield* startWorkflow(token, { account: accountId, person, steps })
      const sleeping = yield* workflowUntil(token, started.id, (w) => w.step?.startsWith("1:") && w.status === "waiting")
      assert.strictEqual(sleeping.waitingFor.what, "3600 s to pass")
      const paused = yield* call("POST", `/v1/workflows/${started.id}/pause`, { token })
      assert.strictEqual(paused.status, 200)
      assert.isTrue(paused.body.workflow.paused)

      yield* TestClock.adjust(2 * 3_600_000)
      const held = yield* workflowUntil(token, started.id, (w) => w.waitingFor?.what === "resume (paused)")
      assert.deepStrictEqual(kinds(held), ["get_profile:completed"])

      yield* call("POST", `/v1/workflows/${started.id}/resume`, { token })
      const done = yield* workflowUntil(token, started.id, (w) => w.status === "completed")
      assert.deepStrictEqual(kinds(done), ["get_profile:completed", "get_profile:completed"])
      const again = yield* call("POST", `/v1/workflows/${started.id}/pause`, { token })
      assert.strictEqual(again.status, 409)
      assert.strictEqual(again.body.error.type, "conflict")

      const cancelled = yield* startWorkflow(token, { account: accountId, person: other, steps: connectThenMessage(3) })
      yield* workflowUntil(token, cancelled.id, (w) => w.status === "waiting" && w.step?.startsWith("1:"))
      const cancel = yield* call("POST", `/v1/workflows/${cancelled.id}/cancel`, { token })
      assert.strictEqual(cancel.status, 200, JSON.stringify(cancel.body))
      assert.strictEqual(cancel.body.workflow.status, "cancelled")
      yield* TestClock.adjust(4 * DAY)
      const after = yield* workflowUntil(token, cancelled.id, (w) => w.status === "cancelled", { movePacing: true })
      assert.deepStrictEqual(kinds(after), ["connect:completed"])

      const listed = yield* call("GET", "/v1/workflows?limit=1", { token })
      assert.strictEqual(listed.body.workflows.length, 1)
      assert.strictEqual(listed.body.workflows[0].id, cancelled.id)
      const next = yield* call("GET", `/v1/workflows?limit=1&cursor=${listed.body.nextCursor}`, { token })
      assert.strictEqual(next.body.workflows[0].id, started.id)
    }), WORKFLOW_TEST_TIMEOUT)

  it.effect("an account removed while its workflow waits: the next step cannot run and the workflow fails, saying why", () =>
    Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount()
      const person = nonAccepting(accountId, "workflow-removed")
      const started = yield* startWorkflow(token, { account: accountId, person, steps: connectThenMessage(2) })
      yield* workflowUntil(token, started.id, (w) => w.status === "waiting" && w.step?.startsWith("1:"))
      const removed = yield* call("DELETE", `/v1/accounts/${accountId}`, { token })
      assert.strictEqual(removed.status, 200, JSON.stringify(removed.body))
      yield* TestClock.adjust(3 * DAY)
      const failed = yield* workflowUntil(token, started.id, (w) => w.status === "failed")
      assert.strictEqual(failed.error.type, "notFound")
      assert.strictEqual(failed.outcome, "no withdraw_invite job could be created")
      assert.deepStrictEqual(kinds(failed), ["connect:completed"])
    }), WORKFLOW_TEST_TIMEOUT)

  it.effect("if branches on a reply of given classes now; waitFor elapsed ends when the time since the start has passed", () =>
    Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount()
      const person = quietConnection(accountId, "workflow-if")
      const started = yield* startWorkflow(token, {
        account: accountId,
        person,
        steps: [
          { type: "wait", seconds: 600 },
          {
            type: "if",
            condition: { type: "replied", classes: ["meeting", "interested"] },
            then: [{ type: "command", command: "send_message", input: { text: "Great, Tuesday at 10 it is." } }],
            else: [{ type: "command", command: "get_profile" }]
          },
          {
            type: "waitFor",
            condition: { type: "elapsed", seconds: 7200 },
            timeoutSeconds: 86_400,
            then: [{ type: "command", command: "get_profile" }]
          }
        ]
      })
      yield* workflowUntil(token, started.id, (w) => w.status === "waiting" && w.step?.startsWith("0:"))
      const received = yield* call("POST", `/v1/sandbox/accounts/${accountId}/events`, {
        token,
        body: { type: "message_received", person, text: "Sounds good. Does Tuesday at 10am work for a call?" }
      })
      assert.strictEqual(received.status, 200, JSON.stringify(received.body))
      yield* (yield* Inbox).syncAccount(accountId)
      yield* TestClock.adjust(600_000)

      // The reply is a meeting: the then branch messages; then the wait lasts until two hours after the start.
      const waiting = yield* workflowUntil(token, started.id, (w) => w.status === "waiting" && w.step?.startsWith("2:"))
      assert.deepStrictEqual(kinds(waiting), ["send_message:completed"])
      yield* TestClock.adjust(3_600_000)
      const still = yield* workflowUntil(token, started.id, (w) => w.status === "waiting")
      assert.strictEqual(still.jobs.length, 1)
      yield* TestClock.adjust(3_600_000)
      const done = yield* workflowUntil(token, started.id, (w) => w.status === "completed", { movePacing: true })
      assert.deepStrictEqual(kinds(done), ["send_message:completed", "get_profile:completed"])
      assert.deepStrictEqual(done.log.filter((e: any) => e.entry.startsWith("took")).map((e: any) => e.entry), [
        "took then",
        "took then"
      ])
    }), WORKFLOW_TEST_TIMEOUT)

  it.effect("Idempotency-Key: a repeated start answers the first workflow and starts nothing; another body is 422", () =>
    Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount()
      const [person, other] = strangers(accountId, 2, "workflow-idempotent")
      const body = { account: accountId, person, steps: [{ type: "command", command: "get_profile" }] }
      const headers = { "idempotency-key": "start-once-1" }
      const first = yield* call("POST", "/v1/workflows", { token, body, headers })
      assert.strictEqual(first.status, 202, JSON.stringify(first.body))
      assert.isUndefined(first.headers["idempotent-replayed"])
      const again = yield* call("POST", "/v1/workflows", { token, body, headers })
      assert.strictEqual(again.status, 202)
      assert.strictEqual(again.headers["idempotent-replayed"], "true")
      assert.strictEqual(again.body.workflow.id, first.body.workflow.id)
      const changed = yield* call("POST", "/v1/workflows", { token, body: { ...body, person: other }, headers })
      assert.strictEqual(changed.status, 422)
      assert.strictEqual(changed.body.error.type, "unprocessable")
      const listed = yield* call("GET", "/v1/workflows", { token })
      assert.deepStrictEqual(listed.body.workflows.map((w: any) => w.id), [first.body.workflow.id])

      const automation = { account: accountId, name: "Once", people: [other], messages: [{ text: "Hello!", inmail: true }] }
      const a1 = yield* call("POST", "/v1/automations", { token, body: automation, headers })
      const a2 = yield* call("POST", "/v1/automations", { token, body: automation, headers })
      assert.strictEqual(a1.status, 202, JSON.stringify(a1.body))
      assert.strictEqual(a2.headers["idempotent-replayed"], "true")
      assert.strictEqual(a2.body.automation.id, a1.body.automation.id)
      assert.strictEqual((yield* call("GET", "/v1/automations", { token })).body.automations.length, 1)
    }), WORKFLOW_TEST_TIMEOUT)
})
