import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { DAY, nonAccepting, workspaceWithAccount } from "../jobs/support.ts"
import { call, layer as serverLayer } from "../support/TestServer.ts"
import { automationUntil, quietConnections, reply, WORKFLOW_TEST_TIMEOUT, workflowUntil } from "./support.ts"

const messages = [
  { text: "Hi, thanks for connecting! Worth a chat about onboarding?" },
  { text: "Following up: happy to share a short demo video.", afterDays: 3 },
  { text: "Last note from me; if the timing is wrong, no worries.", afterDays: 7 }
]

const sent = (run: any) => run.jobs.filter((job: any) => job.kind === "send_message" && job.status === "completed").length

layer(serverLayer(), { timeout: WORKFLOW_TEST_TIMEOUT })("automations", (it) => {
  it.effect("a run stops on a reply between two follow-ups; the others go on, pause and resume", () =>
    Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount()
      const [replier, silent] = quietConnections(accountId, 2, "automation-stop")
      const started = yield* call("POST", "/v1/automations", {
        token,
        body: { account: accountId, name: "Follow-ups", people: [replier, silent], messages }
      })
      assert.strictEqual(started.status, 202, JSON.stringify(started.body))
      const automation = started.body.automation
      assert.strictEqual(automation.status, "active")
      const [replierRun, silentRun] = automation.runs.map((run: any) => run.workflowId)

      // The first message goes to both; then each waits three days.
      for (const id of [replierRun, silentRun]) {
        const run = yield* workflowUntil(
          token,
          id,
          (w) => sent(w) === 1 && w.step?.startsWith("1:") && w.status === "waiting",
          { movePacing: true }
        )
        assert.strictEqual(run.waitingFor.what, "259200 s to pass, or a reply")
        assert.strictEqual(run.waitingFor.reason, "delay")
      }

      // One replies on day two: that run stops at once, between the first and second message.
      yield* TestClock.adjust(2 * DAY)
      yield* reply(token, accountId, replier, "Thanks, but we are all set for now.")
      const stopped = yield* workflowUntil(token, replierRun, (w) => w.status === "stopped")
      assert.strictEqual(stopped.outcome, "the person replied")

      // The other gets the follow-up on day three; the one who replied gets nothing more.
      yield* TestClock.adjust(DAY + 60_000)
      yield* workflowUntil(token, silentRun, (w) => sent(w) === 2 && w.step?.startsWith("3:"), { movePacing: true })
      assert.strictEqual(sent(yield* workflowUntil(token, replierRun, () => true)), 1)

      // Paused, the last message waits past its day; resumed, it goes and the automation finishes.
      const paused = yield* call("POST", `/v1/automations/${automation.id}/pause`, { token })
      assert.strictEqual(paused.body.automation.status, "paused")
      yield* TestClock.adjust(8 * DAY)
      const held = yield* workflowUntil(token, silentRun, (w) => w.waitingFor?.reason === "resume")
      assert.strictEqual(sent(held), 2)
      assert.strictEqual((yield* call("POST", `/v1/automations/${automation.id}/pause`, { token })).status, 409)
      yield* call("POST", `/v1/automations/${automation.id}/resume`, { token })
      const finished = yield* automationUntil(token, automation.id, (a) => a.status === "finished")
      assert.deepStrictEqual(finished.runs.map((run: any) => [run.status, run.outcome]), [
        ["stopped", "the person replied"],
        ["completed", "every step ran"]
      ])
      assert.strictEqual(sent(yield* workflowUntil(token, silentRun, () => true)), 3)
    }), WORKFLOW_TEST_TIMEOUT)

  it.effect("in approve mode a reply cancels the message still waiting for approval; stop cancels every run", () =>
    Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount({ mode: "approve" })
      const [replier, other] = quietConnections(accountId, 2, "automation-approve")
      const started = yield* call("POST", "/v1/automations", {
        token,
        body: { account: accountId, name: "Approve first", people: [replier, other], messages }
      })
      assert.strictEqual(started.status, 202, JSON.stringify(started.body))
      const automation = started.body.automation
      const [replierRun, otherRun] = automation.runs.map((run: any) => run.workflowId)
      const waiting = yield* workflowUntil(token, replierRun, (w) => w.jobs[0]?.status === "awaiting_approval")

      yield* reply(token, accountId, replier, "Hi! Saw your profile, let's talk next week.")
      const stopped = yield* workflowUntil(token, replierRun, (w) => w.status === "stopped")
      assert.deepStrictEqual(stopped.jobs.map((job: any) => job.status), ["cancelled"])
      const job = yield* call("GET", `/v1/jobs/${waiting.jobs[0].jobId}`, { token })
      assert.strictEqual(job.body.job.status, "cancelled")

      yield* workflowUntil(token, otherRun, (w) => w.jobs[0]?.status === "awaiting_approval")
      const stop = yield* call("POST", `/v1/automations/${automation.id}/stop`, { token })
      assert.strictEqual(stop.status, 200, JSON.stringify(stop.body))
      assert.strictEqual(stop.body.automation.status, "stopped")
      const cancelled = yield* workflowUntil(token, otherRun, (w) => w.status === "cancelled")
      assert.deepStrictEqual(cancelled.jobs.map((j: any) => j.status), ["cancelled"])
      assert.strictEqual((yield* call("POST", `/v1/automations/${automation.id}/resume`, { token })).status, 409)
    }), WORKFLOW_TEST_TIMEOUT)

  it.effect("a person who is not a connection is refused up front; with inmail the message goes", () =>
    Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount()
      const [friend] = quietConnections(accountId, 1, "automation-friend")
      const stranger = nonAccepting(accountId, "automation-stranger")
      const refused = yield* call("POST", "/v1/automations", {
        token,
        body: { account: accountId, name: "plain", people: [friend, stranger], messages: [{ text: "Hello there" }] }
      })
      assert.strictEqual(refused.status, 422, JSON.stringify(refused.body))
      assert.include(refused.body.error.message, "body.people[1]")
      assert.include(refused.body.error.message, "is not a connection of the account")
      assert.include(refused.body.error.next, "inmail: true")
      assert.deepStrictEqual((yield* call("GET", "/v1/automations", { token })).body.automations, [])

      const inmail = yield* call("POST", "/v1/automations", {
        token,
        body: { account: accountId, name: "inmail", people: [stranger], messages: [{ text: "Hello there", inmail: true }] }
      })
      assert.strictEqual(inmail.status, 202, JSON.stringify(inmail.body))
      const done = yield* workflowUntil(token, inmail.body.automation.runs[0].workflowId, (w) => w.status === "completed", {
        movePacing: true
      })
      assert.strictEqual(sent(done), 1)
    }), WORKFLOW_TEST_TIMEOUT)

  it.effect("a run whose message fails says why: the job's error type, message and next", () =>
    Effect.gen(function*() {
      // Closed now (the test clock is at midnight), and writes outside hours are refused at once.
      const { token, accountId } = yield* workspaceWithAccount({
        workingHours: { days: [1, 2, 3, 4, 5, 6, 7], from: "12:00", to: "12:01", timezone: "UTC" },
        offHoursPolicy: "reject"
      })
      const [friend] = quietConnections(accountId, 1, "automation-offhours")
      const started = yield* call("POST", "/v1/automations", {
        token,
        body: { account: accountId, name: "late", people: [friend], messages: [{ text: "Hello there" }] }
      })
      assert.strictEqual(started.status, 202, JSON.stringify(started.body))
      const failed = yield* workflowUntil(token, started.body.automation.runs[0].workflowId, (w) => w.status === "failed")
      assert.match(failed.outcome, /failed with offHours: .+ Next: .+/)
    }), WORKFLOW_TEST_TIMEOUT)

  it.effect("bad requests name the field; nothing is started", () =>
    Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount()
      const [person] = quietConnections(accountId, 1, "automation-bad")
      const noDays = yield* call("POST", "/v1/automations", {
        token,
        body: { account: accountId, name: "x", people: [person], messages: [{ text: "a" }, { text: "b" }] }
      })
      assert.strictEqual(noDays.status, 400)
      assert.include(noDays.body.error.message, "afterDays")
      const nobody = yield* call("POST", "/v1/automations", {
        token,
        body: { account: accountId, name: "x", people: [person, "not a profile"], messages: [{ text: "a" }] }
      })
      assert.strictEqual(nobody.status, 422, JSON.stringify(nobody.body))
      assert.include(nobody.body.error.message, "body.people[1]")
      const listed = yield* call("GET", "/v1/automations", { token })
      assert.deepStrictEqual(listed.body.automations, [])
      const missing = yield* call("GET", `/v1/automations/${crypto.randomUUID()}`, { token })
      assert.strictEqual(missing.status, 404)
    }), WORKFLOW_TEST_TIMEOUT)
})
