/**
 * A reply triage is unsure of (#35): the brief, the dashboard's inbox and
 * `message.received` mark it, an automation stops on it, and a workflow step that chooses by the
 * reply's class stops rather than carrying on as if nobody had replied.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { confidentFrom } from "../../src/domain/TriageClass.ts"
import { Outbox } from "../../src/events/Outbox.ts"
import { SignIn } from "../../src/team/SignIn.ts"
import { Team } from "../../src/team/Team.ts"
import { Triage } from "../../src/triage/Triage.ts"
import { workspaceWithAccount } from "../jobs/support.ts"
import { call, layer as serverLayer } from "../support/TestServer.ts"
import { automationUntil, quietConnection, reply, startWorkflow, WORKFLOW_TEST_TIMEOUT, workflowUntil } from "./support.ts"

/** A reply that could be timing or a polite no; the embedded classifier is unsure of it (checked first). */
const unsureText = "maybe"
const unsureOutcome = "the person replied and triage is unsure of the reply's class: a person should read it"

const sent = (run: any) => run.jobs.filter((job: any) => job.kind === "send_message" && job.status === "completed").length

layer(serverLayer(), { timeout: WORKFLOW_TEST_TIMEOUT })("a reply triage is unsure of", (it) => {
  it.effect("the embedded classifier is unsure of the test's reply and sure of a plain one", () =>
    Effect.gen(function*() {
      const triage = yield* Triage
      assert.isBelow((yield* triage.classify(unsureText)).confidence, confidentFrom)
      assert.isAtLeast((yield* triage.classify("Sounds good. Does Tuesday at 10am work for a call?")).confidence, confidentFrom)
    }))

  it.effect("is marked in message.received and the brief, and stops an automation's run", () =>
    Effect.gen(function*() {
      const { token, workspaceId, accountId } = yield* workspaceWithAccount()
      const person = quietConnection(accountId, "unsure-automation")
      const started = yield* call("POST", "/v1/automations", {
        token,
        body: {
          account: accountId,
          name: "Unsure",
          people: [person],
          messages: [{ text: "Hi! Worth a chat?" }, { text: "Following up.", afterDays: 3 }]
        }
      })
      assert.strictEqual(started.status, 202, JSON.stringify(started.body))
      const runId = started.body.automation.runs[0].workflowId
      yield* workflowUntil(token, runId, (w) => sent(w) === 1 && w.status === "waiting", { movePacing: true })
      yield* TestClock.adjust(3_600_000)
      yield* reply(token, accountId, person, unsureText)

      const stopped = yield* workflowUntil(token, runId, (w) => w.status === "stopped")
      assert.strictEqual(sent(stopped), 1)
      const finished = yield* automationUntil(token, started.body.automation.id, (a) => a.status === "finished")
      assert.strictEqual(finished.runs[0].status, "stopped")

      const events = yield* (yield* Outbox).list(workspaceId, { type: "message.received" })
      const event: any = events.map((e) => e.data).find((data: any) => data.text === unsureText)
      assert.isDefined(event)
      assert.isBelow(event.triage.confidence, confidentFrom)
      assert.isTrue(event.triage.unsure)

      const brief = (yield* call("GET", `/v1/accounts/${accountId}/brief`, { token })).body.brief
      const listed = brief.replies.find((r: any) => r.text === unsureText)
      assert.isTrue(listed.unsure)
      assert.isBelow(listed.confidence, confidentFrom)
      assert.include(brief.headline, "triage is unsure of")
      for (const r of brief.replies) assert.strictEqual(r.unsure, r.confidence !== null && r.confidence < confidentFrom)

      // The dashboard's inbox marks it too.
      const email = `owner-${crypto.randomUUID().slice(0, 8)}@acme.test`
      const password = "a long enough passphrase"
      yield* (yield* Team).createOwner({ workspaceId, email, name: "Olivia", password })
      const signedIn = yield* (yield* SignIn).password(email, password)
      const session = signedIn._tag === "SignedIn" ? signedIn.session.token : assert.fail(signedIn._tag)
      const page = yield* call("GET", "/dashboard/inbox", { headers: { cookie: `outreach_session=${session}` } })
      assert.strictEqual(page.status, 200)
      assert.include(String(page.body), "unsure: read it")
    }), WORKFLOW_TEST_TIMEOUT)

  it.effect("stops a waitFor on replies of given classes instead of letting it run out into its else branch", () =>
    Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount()
      const person = quietConnection(accountId, "unsure-waitfor")
      const started = yield* startWorkflow(token, {
        account: accountId,
        person,
        steps: [{
          type: "waitFor",
          condition: { type: "replied", classes: ["meeting", "interested"] },
          timeoutSeconds: 86_400,
          then: [{ type: "command", command: "send_message", input: { text: "Great, talk soon." } }],
          else: [{ type: "command", command: "send_message", input: { text: "Just bumping this up." } }]
        }]
      })
      yield* workflowUntil(token, started.id, (w) => w.status === "waiting" && w.step?.startsWith("0"))
      yield* reply(token, accountId, person, unsureText)
      yield* TestClock.adjust(2 * 86_400_000)
      const stopped = yield* workflowUntil(token, started.id, (w) => w.status !== "waiting" && w.status !== "running")
      assert.strictEqual(stopped.status, "stopped")
      assert.strictEqual(stopped.outcome, unsureOutcome)
      assert.deepStrictEqual(stopped.jobs, [])
    }), WORKFLOW_TEST_TIMEOUT)

  it.effect("stops an if on replies of given classes; a reply triaged with confidence still takes its branch", () =>
    Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount()
      const steps = [
        { type: "wait", seconds: 600 },
        {
          type: "if",
          condition: { type: "replied", classes: ["meeting", "interested"] },
          then: [{ type: "command", command: "get_profile" }],
          else: [{ type: "command", command: "get_profile" }]
        }
      ]
      const unsurePerson = quietConnection(accountId, "unsure-if")
      const surePerson = quietConnection(accountId, "sure-if")
      const unsure = yield* startWorkflow(token, { account: accountId, person: unsurePerson, steps })
      const sure = yield* startWorkflow(token, { account: accountId, person: surePerson, steps })
      for (const id of [unsure.id, sure.id]) yield* workflowUntil(token, id, (w) => w.status === "waiting" && w.step?.startsWith("0"))
      yield* reply(token, accountId, unsurePerson, unsureText)
      yield* reply(token, accountId, surePerson, "Sounds good. Does Tuesday at 10am work for a call?")
      yield* TestClock.adjust(600_000)

      const stopped = yield* workflowUntil(token, unsure.id, (w) => w.status === "stopped")
      assert.strictEqual(stopped.outcome, unsureOutcome)
      assert.deepStrictEqual(stopped.jobs, [])
      const done = yield* workflowUntil(token, sure.id, (w) => w.status === "completed", { movePacing: true })
      assert.deepStrictEqual(done.log.filter((e: any) => e.entry.startsWith("took")).map((e: any) => e.entry), ["took then"])
    }), WORKFLOW_TEST_TIMEOUT)
})
