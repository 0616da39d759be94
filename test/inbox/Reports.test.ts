import { assert, layer } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { TestClock } from "effect/testing"
import { PACING_MAX_MS } from "../../src/domain/Job.ts"
import { localDate } from "../../src/domain/WorkingHours.ts"
import { Inbox } from "../../src/inbox/Inbox.ts"
import { Jobs } from "../../src/jobs/Jobs.ts"
import { call, layer as serverLayer, newWorkspace } from "../support/TestServer.ts"
import { DAY, jobAfter, nonAccepting, strangers, workspaceWithAccount } from "../jobs/support.ts"

const invite = (workspaceId: string, accountId: string, person: string) =>
  Effect.gen(function*() {
    const job = yield* jobAfter(
      workspaceId,
      (yield* (yield* Jobs).create({ workspaceId, accountId, command: "connect", input: { person } })).id
    )
    assert.strictEqual(job.status, "completed", JSON.stringify(job.error))
    yield* TestClock.adjust(PACING_MAX_MS)
    return job.result as { invitationId: string; person: { name: string } }
  })

const sandboxEvent = (token: string, accountId: string, body: unknown) =>
  Effect.gen(function*() {
    const reply = yield* call("POST", `/v1/sandbox/accounts/${accountId}/events`, { token, body })
    assert.strictEqual(reply.status, 200, JSON.stringify(reply.body))
  })

layer(serverLayer())("the Daily brief and the Health report", (it) => {
  it.effect("the brief: replies in priority order, new connections with an opener, approvals, and a headline", () =>
    Effect.gen(function*() {
      const { token, workspaceId, accountId } = yield* workspaceWithAccount()
      const [a, b, c] = strangers(accountId, 3, "brief-test")
      const toA = yield* invite(workspaceId, accountId, a)
      const toB = yield* invite(workspaceId, accountId, b)
      yield* sandboxEvent(token, accountId, { type: "invitation_accepted", invitationId: toA.invitationId })
      yield* sandboxEvent(token, accountId, { type: "invitation_accepted", invitationId: toB.invitationId })
      yield* sandboxEvent(token, accountId, { type: "message_received", person: c, text: "I am out of the office until Monday with limited access to email." })
      yield* sandboxEvent(token, accountId, { type: "message_received", person: a, text: "Sounds good, let's talk. Does Tuesday at 10am work for a call?" })
      assert.strictEqual((yield* (yield* Inbox).syncAccount(accountId))._tag, "Synced")
      // One write waiting for a person.
      const patched = yield* call("PATCH", `/v1/accounts/${accountId}`, { token, body: { mode: "approve" } })
      assert.strictEqual(patched.status, 200)
      const [d] = strangers(accountId, 1, "brief-test-approval")
      yield* (yield* Jobs).create({ workspaceId, accountId, command: "connect", input: { person: d } })

      const reply = yield* call("GET", `/v1/accounts/${accountId}/brief`, { token })
      assert.strictEqual(reply.status, 200, JSON.stringify(reply.body))
      const brief = reply.body.brief
      const ours = brief.replies.filter((r: { text: string }) => r.text.startsWith("Sounds good") || r.text.startsWith("I am out"))
      assert.deepStrictEqual(ours.map((r: { class: string }) => r.class), ["meeting", "out_of_office"])
      assert.strictEqual(ours[0].from, toA.person.name)
      assert.strictEqual(brief.replies[0].class, "meeting")
      assert.strictEqual(brief.replies[brief.replies.length - 1].class, "out_of_office")
      assert.deepStrictEqual(brief.readyForFirstMessage.map((r: { name: string }) => r.name), [toB.person.name])
      assert.match(brief.readyForFirstMessage[0].suggestedOpener, new RegExp(`^Hi ${toB.person.name.split(" ")[0]},`))
      assert.strictEqual(brief.approvals, 1)
      assert.deepInclude(brief.queue, { awaitingApproval: 1, byKind: { connect: 1 } })
      assert.strictEqual(brief.account.mode, "approve")
      assert.strictEqual(brief.date, localDate("UTC", yield* Clock.currentTimeMillis))
      // The account's background inbox (seeded by its random id) may hold replies of its own in the window.
      const classes = brief.replies.map((r: { class: string }) => r.class)
      const hot = classes.filter((c: string) => c === "meeting" || c === "interested").length
      const meetings = classes.filter((c: string) => c === "meeting").length
      assert.isTrue(brief.headline.startsWith(
        `${hot} ${hot === 1 ? "person is" : "people are"} ready to talk (${meetings} ${meetings === 1 ? "asks" : "ask"} for a meeting): answer them first`
      ), brief.headline)
      assert.include(brief.headline, "1 new connection is ready for a first message; 1 write waits for your approval.")

      // The look-back window: two hours on, a one-hour brief has no replies.
      yield* TestClock.adjust(2 * 3_600_000)
      const later = yield* call("GET", `/v1/accounts/${accountId}/brief?hours=1`, { token })
      assert.deepStrictEqual(later.body.brief.replies, [])

      for (const bad of ["0", "169", "1.5", "x"]) {
        const refused = yield* call("GET", `/v1/accounts/${accountId}/brief?hours=${bad}`, { token })
        assert.strictEqual(refused.status, 400, bad)
        assert.include(refused.body.error.message, "query.hours")
      }
      const unknown = yield* call("GET", `/v1/accounts/${crypto.randomUUID()}/brief`, { token })
      assert.strictEqual(unknown.body.error.type, "notFound")
    }))

  it.effect("the health report: network size, stale invitations with a cleanup, and recommendations from them", () =>
    Effect.gen(function*() {
      const { token, workspaceId, accountId } = yield* workspaceWithAccount({ autoWithdrawDays: null })
      const person = nonAccepting(accountId, "reports-test")
      yield* invite(workspaceId, accountId, person)
      yield* TestClock.adjust(22 * DAY)
      assert.strictEqual((yield* (yield* Inbox).syncAccount(accountId))._tag, "Synced")
      const reply = yield* call("GET", `/v1/accounts/${accountId}/health-report`, { token })
      assert.strictEqual(reply.status, 200, JSON.stringify(reply.body))
      const report = reply.body.report
      assert.strictEqual(report.account.id, accountId)
      assert.deepInclude(report.network, { connections: 900, size: "medium" })
      assert.deepInclude(report.invitations, { pending: 1, stale: 1 })
      assert.match(report.invitations.proposedCleanup, /^Withdraw the invitation pending more than 21 days/)
      assert.isNull(report.ssi)
      assert.isNull(report.warmup)
      assert.deepStrictEqual(report.recommendations, [
        "1 of 1 pending invitations are older than 21 days: withdraw them, or set settings.autoWithdrawDays so the service does it."
      ])
    }))

  it.effect("the health report of a warming Sales Navigator account shows the SSI and when the warm-up ends", () =>
    Effect.gen(function*() {
      const { keyValue: token } = yield* newWorkspace()
      const created = yield* call("POST", "/v1/accounts/connect", { token, body: { label: "Grace" } })
      const accountId: string = created.body.account.id
      const done = yield* call("POST", `/v1/sandbox/accounts/${accountId}/complete-connection`, {
        token,
        body: { tier: "sales_nav", connections: 150 }
      })
      assert.strictEqual(done.status, 200, JSON.stringify(done.body))
      const report = (yield* call("GET", `/v1/accounts/${accountId}/health-report`, { token })).body.report
      assert.strictEqual(report.network.size, "small")
      assert.isNumber(report.ssi.score)
      assert.strictEqual(report.warmup.day, 1)
      assert.strictEqual(report.warmup.of, 14)
      assert.match(report.warmup.finishesOn, /^\d{4}-\d{2}-\d{2}$/)
      assert.include(report.warmup.note, "20%")
      assert.isTrue(report.recommendations.some((r: string) => r.startsWith("Warm-up day 1 of 14")))
      assert.isTrue(report.recommendations.some((r: string) => r.startsWith("The network is small")))
    }))
})
