/**
 * The activity log (issue #32): decisions, seat changes, team changes and keys
 * are recorded with who made them and when, whatever the surface, and read
 * back over `GET /v1/activity` (paged, filtered) and on the dashboard.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Team } from "../../src/team/Team.ts"
import { SignIn } from "../../src/team/SignIn.ts"
import { connectedAccount, strangers } from "../jobs/support.ts"
import { cookie, cookieWithCsrf, ownerSession, password, teammate } from "../support/Teammates.ts"
import { call, layer as serverLayer } from "../support/TestServer.ts"

layer(serverLayer())("the activity log", (it) => {
  it.effect("records who approved, edited, rejected, changed a seat, the team and keys; GET /v1/activity pages and filters it", () =>
    Effect.gen(function*() {
      const { key, actor, email } = yield* ownerSession
      const accountId = yield* connectedAccount(key, { mode: "approve", offHoursPolicy: "queue" })
      const [first, second] = strangers(accountId, 2, "activity")
      const ask = (person: string, note: string) =>
        call("POST", `/v1/accounts/${accountId}/connect`, { token: key, body: { person, note } })
      const one = yield* ask(first, "Hello")
      const two = yield* ask(second, "Hi")
      const approvals = (yield* call("GET", "/v1/approvals", { token: key })).body.approvals
      const approvalOf = (jobId: string) => approvals.find((a: { jobId: string }) => a.jobId === jobId).id
      // A member decides over REST with the dashboard's cookie; the owner key changes the seat and keys.
      const member = yield* teammate(actor, "member")
      const asMember = cookieWithCsrf(member.token)
      assert.strictEqual((yield* call("POST", `/v1/approvals/${approvalOf(one.body.job.id)}/approve`, { headers: asMember, body: { text: "Hello there, edited" } })).status, 200)
      assert.strictEqual((yield* call("POST", `/v1/approvals/${approvalOf(two.body.job.id)}/reject`, { headers: asMember, body: { reason: "not now" } })).status, 200)
      assert.strictEqual((yield* call("PATCH", `/v1/accounts/${accountId}`, { token: key, body: { mode: "autopilot", label: "Ada L." } })).status, 200)
      assert.strictEqual((yield* call("PUT", `/v1/accounts/${accountId}/limits`, { token: key, body: { limits: [{ category: "invites", period: "daily", maxValue: 10 }] } })).status, 200)
      assert.strictEqual((yield* call("POST", `/v1/accounts/${accountId}/pause`, { token: key })).status, 200)
      assert.strictEqual((yield* call("POST", `/v1/accounts/${accountId}/resume`, { token: key })).status, 200)
      const made = yield* call("POST", "/v1/keys", { token: key, body: { name: "assistant", role: "read_only" } })
      assert.strictEqual((yield* call("POST", `/v1/keys/${made.body.key.id}/revoke`, { token: key })).status, 200)
      yield* (yield* Team).changeRole(actor, member.id, "admin")

      // A member reads the log too (it is `read`), and so does a read-only key.
      const reader = yield* call("POST", "/v1/keys", { token: key, body: { name: "auditor", role: "read_only" } })
      const log = yield* call("GET", "/v1/activity?limit=100", { token: reader.body.value })
      assert.strictEqual(log.status, 200, JSON.stringify(log.body))
      const actions = log.body.activity.map((e: { action: string }) => e.action)
      for (const expected of ["approval.edited", "approval.rejected", "seat.mode_changed", "seat.settings_changed", "seat.limits_changed", "seat.paused", "seat.resumed", "key.created", "key.revoked", "team.invited", "team.role_changed", "seat.connected"]) {
        assert.include(actions, expected)
      }
      const entry = (action: string) => log.body.activity.find((e: { action: string }) => e.action === action)
      // Newest first, with who did it and the before and after.
      assert.strictEqual(log.body.activity[0].action, "key.created")
      assert.deepStrictEqual(entry("approval.edited").actor, { type: "person", id: `user:${member.id}`, name: "member" })
      assert.deepStrictEqual(entry("approval.edited").before, { text: "Hello" })
      assert.deepStrictEqual(entry("approval.edited").after, { text: "Hello there, edited" })
      assert.include(entry("approval.rejected").summary, "not now")
      assert.deepStrictEqual(entry("seat.mode_changed").before, { mode: "approve" })
      assert.deepStrictEqual(entry("seat.mode_changed").after, { mode: "autopilot" })
      assert.deepStrictEqual(entry("seat.settings_changed").after, { label: "Ada L." })
      assert.strictEqual(entry("seat.mode_changed").actor.type, "key")
      assert.strictEqual(entry("seat.mode_changed").actor.name, 'API key "Owner key"')
      assert.deepStrictEqual(entry("team.role_changed").before, { role: "member" })
      assert.strictEqual(entry("team.role_changed").actor.name, "Olivia")
      // Filters and pages.
      const rejected = yield* call("GET", "/v1/activity?action=approval.rejected", { token: key })
      assert.deepStrictEqual(rejected.body.activity.map((e: { action: string }) => e.action), ["approval.rejected"])
      const byMember = yield* call("GET", `/v1/activity?actor=user:${member.id}`, { token: key })
      assert.deepStrictEqual(byMember.body.activity.map((e: { action: string }) => e.action).sort(), ["approval.edited", "approval.rejected"])
      const firstPage = yield* call("GET", "/v1/activity?limit=2", { token: key })
      assert.strictEqual(firstPage.body.activity.length, 2)
      const secondPage = yield* call("GET", `/v1/activity?limit=2&cursor=${firstPage.body.nextCursor}`, { token: key })
      assert.notDeepEqual(secondPage.body.activity[0].id, firstPage.body.activity[0].id)
      assert.strictEqual(secondPage.body.activity[0].id, log.body.activity[2].id)
      const foreign = yield* call("GET", "/v1/activity?cursor=bm9wZQ", { token: key })
      assert.strictEqual(foreign.status, 422)
      const bad = yield* call("GET", "/v1/activity?action=nope", { token: key })
      assert.strictEqual(bad.status, 400)

      // The dashboard lists it, with filters.
      const outcome = yield* (yield* SignIn).password(email, password)
      const token = outcome._tag === "SignedIn" ? outcome.session.token : ""
      const page = yield* call("GET", "/dashboard/activity?action=seat.mode_changed", { headers: cookie(token) })
      assert.strictEqual(page.status, 200)
      assert.include(page.body, "from approve to autopilot mode")
      assert.notInclude(page.body, "rejected the invitation")
      const everything = yield* call("GET", "/dashboard/activity", { headers: cookie(token) })
      assert.include(everything.body, "edited and approved the invitation")
      assert.include(everything.body, "invited")
    }), { timeout: 60_000 })
})
