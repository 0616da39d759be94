import { assert, it, layer } from "@effect/vitest"
import { Clock, Effect, Exit, Layer, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { Outbox } from "../../src/events/Outbox.ts"
import { Inbox, SYNC_INTERVAL_MS } from "../../src/inbox/Inbox.ts"
import { PACING_MAX_MS } from "../../src/domain/Job.ts"
import { Jobs } from "../../src/jobs/Jobs.ts"
import { triageClasses } from "../../src/triage/TriageClass.ts"
import { call, layer as serverLayer } from "../support/TestServer.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { restartableServer } from "../webhooks/support.ts"
import { DAY, jobAfter, nonAccepting, settle, strangers, workspaceWithAccount } from "../jobs/support.ts"



const reply = "Sounds good, let's talk. Does Tuesday at 10am work for a call?"

/** An account that invited one person, who accepted and answered; the person and invitation. */
const acceptedAndAnswered = Effect.gen(function*() {
  const { token, workspaceId, accountId } = yield* workspaceWithAccount()
  const [person] = strangers(accountId, 1, "inbox-test")
  const sent = yield* jobAfter(
    workspaceId,
    (yield* (yield* Jobs).create({ workspaceId, accountId, command: "connect", input: { person } })).id
  )
  assert.strictEqual(sent.status, "completed", JSON.stringify(sent.error))
  const { invitationId, person: invitee } = sent.result as { invitationId: string; person: { name: string } }
  const accepted = yield* call("POST", `/v1/sandbox/accounts/${accountId}/events`, {
    token,
    body: { type: "invitation_accepted", invitationId }
  })
  assert.strictEqual(accepted.status, 200, JSON.stringify(accepted.body))
  const answered = yield* call("POST", `/v1/sandbox/accounts/${accountId}/events`, {
    token,
    body: { type: "message_received", person, text: reply }
  })
  assert.strictEqual(answered.status, 200, JSON.stringify(answered.body))
  return { workspaceId, accountId, invitationId, name: invitee.name }
})

interface Seen {
  readonly accepted: ReadonlyArray<{ invitationId: string; name?: string; via: string; accountId: string }>
  readonly replies: ReadonlyArray<{ text: string; triage: { class: string; suggestedReply: string | null } | null }>
}

const eventsOf = (workspaceId: string) =>
  Effect.gen(function*() {
    const outbox = yield* Outbox
    const accepted = yield* outbox.list(workspaceId, { type: "invitation.accepted" })
    const received = yield* outbox.list(workspaceId, { type: "message.received" })
    const seen: Seen = {
      accepted: accepted.map((event) => event.data as Seen["accepted"][number]),
      replies: received.map((event) => event.data as Seen["replies"][number]).filter((data) => data.text === reply)
    }
    return seen
  })

layer(serverLayer())("syncing the inbox", (it) => {
  it.effect("an acceptance and a reply flow in by syncing and raise their events once each", () =>
    Effect.gen(function*() {
      const { workspaceId, accountId, invitationId, name } = yield* acceptedAndAnswered
      const inbox = yield* Inbox
      const first = yield* inbox.syncAccount(accountId)
      assert.strictEqual(first._tag, "Synced", JSON.stringify(first))

      const seen = yield* eventsOf(workspaceId)
      assert.strictEqual(seen.accepted.length, 1)
      assert.deepInclude(seen.accepted[0], { accountId, invitationId, via: "svc", name })
      assert.strictEqual(seen.replies.length, 1)
      assert.include([...triageClasses], seen.replies[0].triage?.class)
      assert.strictEqual(seen.replies[0].triage?.class, "meeting")

      // Later syncs report nothing twice.
      yield* TestClock.adjust(SYNC_INTERVAL_MS)
      assert.strictEqual((yield* inbox.syncAccount(accountId))._tag, "Synced")
      const again = yield* eventsOf(workspaceId)
      assert.strictEqual(again.accepted.length, 1)
      assert.strictEqual(again.replies.length, 1)

      // The invitation is recorded as sent through the service, accepted; each sync spent one list_polls.
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ status: string; source: string }>`
        SELECT status, source FROM invitations WHERE account_id = ${accountId} AND id = ${invitationId}`
      assert.deepStrictEqual(rows.map((r) => [r.status, r.source]), [["accepted", "svc"]])
      const polls = yield* sql<{ n: number }>`
        SELECT count(*)::int AS n FROM budget_spend WHERE account_id = ${accountId} AND category = 'list_polls'`
      assert.strictEqual(polls[0].n, 2)
    }))

  it.effect("GET /v1/accounts/{id}/invitations lists what syncing recorded, pending by default, newest first", () =>
    Effect.gen(function*() {
      const { token, workspaceId, accountId } = yield* workspaceWithAccount()
      const jobs = yield* Jobs
      const people = strangers(accountId, 2, "inbox-list")
      const sent: Array<string> = []
      for (const person of people) {
        const job = yield* jobAfter(workspaceId, (yield* jobs.create({ workspaceId, accountId, command: "connect", input: { person } })).id)
        assert.strictEqual(job.status, "completed", JSON.stringify(job.error))
        sent.push((job.result as { invitationId: string }).invitationId)
        yield* TestClock.adjust(PACING_MAX_MS)
      }
      const accepted = yield* call("POST", `/v1/sandbox/accounts/${accountId}/events`, {
        token,
        body: { type: "invitation_accepted", invitationId: sent[0] }
      })
      assert.strictEqual(accepted.status, 200, JSON.stringify(accepted.body))
      const before = yield* call("GET", `/v1/accounts/${accountId}/invitations`, { token })
      assert.deepStrictEqual(before.body, { ok: true, invitations: [] })
      assert.strictEqual((yield* (yield* Inbox).syncAccount(accountId))._tag, "Synced")

      const pending = yield* call("GET", `/v1/accounts/${accountId}/invitations`, { token })
      assert.strictEqual(pending.status, 200, JSON.stringify(pending.body))
      assert.deepStrictEqual(pending.body.invitations.map((i: { id: string }) => i.id), [sent[1]])
      const all = yield* call("GET", `/v1/accounts/${accountId}/invitations?status=all`, { token })
      assert.deepStrictEqual(all.body.invitations.map((i: { id: string }) => i.id), [sent[1], sent[0]])
      assert.deepStrictEqual(
        all.body.invitations.map((i: { status: string; source: string }) => [i.status, i.source]),
        [["pending", "svc"], ["accepted", "svc"]]
      )
      assert.isNotNull(all.body.invitations[1].resolvedAt)
      const account = yield* call("GET", `/v1/accounts/${accountId}`, { token })
      assert.strictEqual(account.body.account.pendingInvitations, 1)
      const acceptedOnly = yield* call("GET", `/v1/accounts/${accountId}/invitations?status=accepted`, { token })
      assert.deepStrictEqual(acceptedOnly.body.invitations.map((i: { id: string }) => i.id), [sent[0]])

      const bad = yield* call("GET", `/v1/accounts/${accountId}/invitations?status=lost`, { token })
      assert.strictEqual(bad.status, 400)
      assert.strictEqual(bad.body.error.type, "badRequest")
      assert.include(bad.body.error.message, "query.status")
      const unknown = yield* call("GET", `/v1/accounts/${crypto.randomUUID()}/invitations`, { token })
      assert.strictEqual(unknown.status, 404)
      assert.strictEqual(unknown.body.error.type, "notFound")
    }))

  it.effect("auto-withdraw: after autoWithdrawDays and not before, through the Governor, without job events; never when off", () =>
    Effect.gen(function*() {
      const inbox = yield* Inbox
      const jobs = yield* Jobs
      const outbox = yield* Outbox
      const sql = yield* SqlClient.SqlClient
      // Setting an account up moves the clock 14 days (its warm-up): both first, then the invitations.
      const accounts = [yield* workspaceWithAccount({ autoWithdrawDays: 10 }), yield* workspaceWithAccount({ autoWithdrawDays: null })]
      const invite = ({ workspaceId, accountId }: { readonly workspaceId: string; readonly accountId: string }) =>
        Effect.gen(function*() {
          const person = nonAccepting(accountId, "inbox-withdraw")
          const sent = yield* jobAfter(
            workspaceId,
            (yield* jobs.create({ workspaceId, accountId, command: "connect", input: { person } })).id
          )
          assert.strictEqual(sent.status, "completed", JSON.stringify(sent.error))
          return { workspaceId, accountId, invitationId: (sent.result as { invitationId: string }).invitationId }
        })
      const withdrawals = (accountId: string) =>
        sql<{ origin: string; status: string }>`
          SELECT origin, status FROM jobs WHERE account_id = ${accountId} AND kind = 'withdraw_invite'`
      const on = yield* invite(accounts[0])
      const off = yield* invite(accounts[1])

      yield* TestClock.adjust(10 * DAY - 3_600_000)
      assert.strictEqual((yield* inbox.syncAccount(on.accountId))._tag, "Synced")
      assert.deepStrictEqual(yield* withdrawals(on.accountId), [])

      yield* TestClock.adjust(2 * 3_600_000)
      const synced = yield* inbox.syncAccount(on.accountId)
      assert.deepInclude(synced, { _tag: "Synced", withdrawing: 1 })
      yield* settle
      yield* TestClock.adjust(PACING_MAX_MS)
      yield* settle
      assert.deepStrictEqual((yield* withdrawals(on.accountId)).map((j) => [j.origin, j.status]), [["service", "completed"]])
      // A sync after it sees the invitation withdrawn, and hands nothing more to the Governor.
      yield* TestClock.adjust(SYNC_INTERVAL_MS)
      assert.deepInclude(yield* inbox.syncAccount(on.accountId), { _tag: "Synced", withdrawing: 0 })
      const status = yield* sql<{ status: string }>`
        SELECT status FROM invitations WHERE account_id = ${on.accountId} AND id = ${on.invitationId}`
      assert.deepStrictEqual(status.map((r) => r.status), ["withdrawn"])
      // The service's own job sends no job events: only the connect job reported.
      const jobEvents = yield* outbox.list(on.workspaceId, { type: "job.completed" })
      assert.strictEqual(jobEvents.length, 1)

      yield* TestClock.adjust(30 * DAY)
      assert.strictEqual((yield* inbox.syncAccount(off.accountId))._tag, "Synced")
      assert.deepStrictEqual(yield* withdrawals(off.accountId), [])
    }))

  it.effect("an account is not synced outside its working hours, and syncDue picks it up once they open", () =>
    Effect.gen(function*() {
      const weekdays = { days: [1, 2, 3, 4, 5], from: "09:00", to: "17:00", timezone: "UTC" }
      const { accountId } = yield* workspaceWithAccount({ workingHours: weekdays })
      const inbox = yield* Inbox
      // Move to the next Saturday noon (UTC): closed.
      const now = new Date(yield* Clock.currentTimeMillis)
      const toSaturday = ((6 - now.getUTCDay() + 7) % 7 || 7) * 86_400_000
      const saturdayNoon = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + toSaturday + 12 * 3_600_000
      yield* TestClock.setTime(saturdayNoon)
      assert.deepStrictEqual(yield* inbox.syncAccount(accountId), { _tag: "Skipped", reason: "hours" })
      // Due again on Monday at 09:00: nothing before, the sync after.
      const sql = yield* SqlClient.SqlClient
      const next = yield* sql<{ at: string }>`SELECT next_sync_at_ms::text AS at FROM accounts WHERE id = ${accountId}`
      assert.strictEqual(Number(next[0].at), saturdayNoon + 45 * 3_600_000)
      yield* TestClock.adjust(45 * 3_600_000)
      assert.isAtLeast(yield* inbox.syncDue, 1)
      const synced = yield* sql<{ at: string | null }>`SELECT synced_until_ms::text AS at FROM accounts WHERE id = ${accountId}`
      assert.strictEqual(Number(synced[0].at), saturdayNoon + 45 * 3_600_000)
    }))
})

it.effect("a restart between syncs reports nothing twice and loses nothing", () =>
  Effect.gen(function*() {
    const open = yield* TestDatabase.reopenable
    const first = yield* Scope.make()
    const firstContext = yield* Layer.build(restartableServer(open())).pipe(Scope.provide(first))
    const ids = yield* Effect.gen(function*() {
      const found = yield* acceptedAndAnswered
      assert.strictEqual((yield* (yield* Inbox).syncAccount(found.accountId))._tag, "Synced")
      return found
    }).pipe(Effect.provideContext(firstContext))
    yield* Scope.close(first, Exit.void)

    yield* TestClock.adjust(SYNC_INTERVAL_MS)
    const second = yield* Scope.make()
    const secondContext = yield* Layer.build(restartableServer(open())).pipe(Scope.provide(second))
    yield* Effect.gen(function*() {
      assert.strictEqual((yield* (yield* Inbox).syncAccount(ids.accountId))._tag, "Synced")
      const seen = yield* eventsOf(ids.workspaceId)
      assert.strictEqual(seen.accepted.length, 1)
      assert.strictEqual(seen.replies.length, 1)
    }).pipe(Effect.provideContext(secondContext))
    yield* Scope.close(second, Exit.void)
  }), { timeout: 60_000 })
