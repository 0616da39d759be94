/**
 * Workflows and automations in the dashboard (issue #32): a page each (list
 * and detail) with statuses and steps in words, paused, resumed and stopped
 * there by anyone the role table lets start them, each change in the activity
 * log with who made it (REST and the dashboard alike); stopping asks for a
 * confirmation; an ended one, or an unknown id, answers a page that says so.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { csrfTokenFor } from "../../src/http/SessionCookie.ts"
import { connectedAccount, strangers } from "../jobs/support.ts"
import { cookie, ownerSession, teammate } from "../support/Teammates.ts"
import { call, layer as serverLayer } from "../support/TestServer.ts"
import { quietConnections, WORKFLOW_TEST_TIMEOUT, workflowUntil } from "../workflows/support.ts"

const form = (token: string, fields = "") => ({
  headers: cookie(token),
  raw: { text: `_csrf=${encodeURIComponent(csrfTokenFor(token))}&${fields}`, contentType: "application/x-www-form-urlencoded" }
})

layer(serverLayer(), { timeout: WORKFLOW_TEST_TIMEOUT })("workflows and automations in the dashboard", (it) => {
  it.effect("a member pauses, resumes and stops a workflow from its page; each change is in the activity log", () =>
    Effect.gen(function*() {
      const { actor, key } = yield* ownerSession
      const accountId = yield* connectedAccount(key, { mode: "approve" })
      const [person] = strangers(accountId, 1, "dashboard-workflow")
      const started = yield* call("POST", "/v1/workflows", {
        token: key,
        body: {
          account: accountId,
          person,
          steps: [
            { type: "command", command: "connect", input: { note: "Hi Ana, glad to connect." } },
            { type: "waitFor", condition: { type: "accepted" }, timeoutSeconds: 7 * 86_400, then: [{ type: "command", command: "send_message", input: { text: "Thanks!" } }] }
          ]
        }
      })
      assert.strictEqual(started.status, 202, JSON.stringify(started.body))
      const id: string = started.body.workflow.id
      yield* workflowUntil(key, id, (w) => w.jobs[0]?.status === "awaiting_approval")
      // Connecting moved the clock past the owner's session: a member signs in now.
      const member = yield* teammate(actor, "member")
      const listed = yield* call("GET", "/dashboard/workflows", { headers: cookie(member.token) })
      assert.strictEqual(listed.status, 200)
      assert.include(listed.body, `/dashboard/workflows/${id}`)
      assert.include(listed.body, "Waiting for approval")
      assert.include(listed.body, `href="/dashboard/workflows"`)
      const page = yield* call("GET", `/dashboard/workflows/${id}`, { headers: cookie(member.token) })
      assert.include(page.body, "Invitation “Hi Ana, glad to connect.”")
      assert.include(page.body, "Wait up to 7 days until the invitation is accepted, then:")
      assert.include(page.body, "Waiting for approval")
      const paused = yield* call("POST", `/dashboard/workflows/${id}/pause`, form(member.token))
      assert.include(paused.body, "Paused: no further step starts")
      assert.isTrue((yield* call("GET", `/v1/workflows/${id}`, { token: key })).body.workflow.paused)
      const resumed = yield* call("POST", `/dashboard/workflows/${id}/resume`, form(member.token))
      assert.include(resumed.body, "Resumed where it stopped")
      // Stopping asks for a confirmation first.
      const unconfirmed = yield* call("POST", `/dashboard/workflows/${id}/stop`, form(member.token))
      assert.strictEqual(unconfirmed.status, 422)
      assert.strictEqual((yield* call("GET", `/v1/workflows/${id}`, { token: key })).body.workflow.status, "waiting")
      const stopped = yield* call("POST", `/dashboard/workflows/${id}/stop`, form(member.token, "confirm=yes"))
      assert.include(stopped.body, "Stopped: its unstarted jobs are cancelled")
      assert.include(stopped.body, "Stopped by hand")
      assert.notInclude(stopped.body, `/dashboard/workflows/${id}/pause`)
      assert.strictEqual((yield* call("GET", `/v1/workflows/${id}`, { token: key })).body.workflow.status, "cancelled")
      // Ended: another stop says so.
      const again = yield* call("POST", `/dashboard/workflows/${id}/stop`, form(member.token, "confirm=yes"))
      assert.strictEqual(again.status, 409)
      assert.include(again.body, "already ended")
      // Who did it, in the log.
      const log = yield* call("GET", `/v1/activity?resource=workflow`, { token: key })
      assert.deepStrictEqual(
        log.body.activity.map((e: { action: string; actor: { name: string } }) => [e.action, e.actor.name]),
        [["workflow.stopped", "member"], ["workflow.resumed", "member"], ["workflow.paused", "member"]]
      )
      // Unknown ids are the 404 page.
      assert.strictEqual((yield* call("GET", `/dashboard/workflows/${crypto.randomUUID()}`, { headers: cookie(member.token) })).status, 404)
      assert.strictEqual((yield* call("POST", `/dashboard/workflows/${crypto.randomUUID()}/pause`, form(member.token))).status, 404)
    }), WORKFLOW_TEST_TIMEOUT)

  it.effect("an automation's page shows its messages and each person's run; paused and stopped there; REST leaves the same trace", () =>
    Effect.gen(function*() {
      const { actor, key } = yield* ownerSession
      const accountId = yield* connectedAccount(key, { mode: "approve" })
      // Connecting moved the clock past the owner's session: an admin signs in now.
      const { token } = yield* teammate(actor, "admin")
      const people = quietConnections(accountId, 2, "dashboard-automation")
      const started = yield* call("POST", "/v1/automations", {
        token: key,
        body: {
          account: accountId,
          name: "Spring follow-ups",
          people,
          messages: [{ text: "Hi, thanks for connecting!" }, { text: "A short follow-up.", afterDays: 3 }]
        }
      })
      assert.strictEqual(started.status, 202, JSON.stringify(started.body))
      const id: string = started.body.automation.id
      const list = yield* call("GET", "/dashboard/automations", { headers: cookie(token) })
      assert.include(list.body, "Spring follow-ups")
      assert.include(list.body, "2 people, 2 going, 0 replied, 0 done")
      const page = yield* call("GET", `/dashboard/automations/${id}`, { headers: cookie(token) })
      assert.include(page.body, "3 days after the one before")
      assert.include(page.body, "A short follow-up.")
      for (const run of started.body.automation.runs) assert.include(page.body, `/dashboard/workflows/${run.workflowId}`)
      const paused = yield* call("POST", `/dashboard/automations/${id}/pause`, form(token))
      assert.include(paused.body, "Paused: every run holds its next message")
      assert.strictEqual((yield* call("GET", `/v1/automations/${id}`, { token: key })).body.automation.status, "paused")
      // Over REST too, with the key named in the log.
      assert.strictEqual((yield* call("POST", `/v1/automations/${id}/resume`, { token: key })).status, 200)
      const unconfirmed = yield* call("POST", `/dashboard/automations/${id}/stop`, form(token))
      assert.strictEqual(unconfirmed.status, 422)
      const stopped = yield* call("POST", `/dashboard/automations/${id}/stop`, form(token, "confirm=yes"))
      assert.include(stopped.body, "Stopped: every run still going is stopped")
      assert.strictEqual((yield* call("GET", `/v1/automations/${id}`, { token: key })).body.automation.status, "stopped")
      const again = yield* call("POST", `/dashboard/automations/${id}/pause`, form(token))
      assert.strictEqual(again.status, 409)
      const log = yield* call("GET", `/v1/activity?resource=automation`, { token: key })
      assert.deepStrictEqual(log.body.activity.map((e: { action: string; actor: { type: string } }) => [e.action, e.actor.type]), [
        ["automation.stopped", "person"],
        ["automation.resumed", "key"],
        ["automation.paused", "person"]
      ])
      const activity = yield* call("GET", "/dashboard/activity", { headers: cookie(token) })
      assert.include(activity.body, "stopped the automation &quot;Spring follow-ups&quot; (2 people)")
      assert.strictEqual((yield* call("GET", `/dashboard/automations/${crypto.randomUUID()}`, { headers: cookie(token) })).status, 404)
    }), WORKFLOW_TEST_TIMEOUT)
})
