import { assert, it, layer } from "@effect/vitest"
import { Clock, Duration, Effect, Exit, Layer, Schema, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { InvitationSent } from "../../src/domain/CommandResults.ts"
import { Outbox } from "../../src/events/Outbox.ts"
import { InboxSettings, SYNC_INTERVAL_MS } from "../../src/inbox/Cadence.ts"
import { Inbox } from "../../src/inbox/Inbox.ts"
import { JobCompletions } from "../../src/jobs/Completions.ts"
import { PACING_MAX_MS } from "../../src/domain/Job.ts"
import { Approvals } from "../../src/approvals/Approvals.ts"
import { Jobs } from "../../src/jobs/Jobs.ts"
import { NetworkDriver } from "../../src/network/NetworkDriver.ts"
import { triageClasses } from "../../src/domain/TriageClass.ts"
import { call, layer as serverLayer, newWorkspace } from "../support/TestServer.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { eventually as waitFor } from "../support/Eventually.ts"
import { restartableServer } from "../webhooks/support.ts"
import { DAY, jobAfter, nonAccepting, strangers, workspaceWithAccount } from "../jobs/support.ts"

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
  readonly accepted: ReadonlyArray<{ invitationId: string; providerId: string; name?: string; via: string; accountId: string }>
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

  it.effect("GET /v1/accounts/{id}/invitations lists what the service recorded, pending by default, newest first; bad input answered with the envelope", () =>
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
      // Recorded when the connect jobs sent them; the acceptance only once a sync has seen it.
      const before = yield* call("GET", `/v1/accounts/${accountId}/invitations`, { token })
      assert.strictEqual(before.status, 200, JSON.stringify(before.body))
      assert.deepStrictEqual(before.body.invitations.map((i: { id: string }) => i.id), [sent[1], sent[0]])
      assert.deepInclude(before.body.invitations[1], { status: "pending", source: "svc", resolvedAt: null })
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
      assert.isString(unknown.body.error.next)
      const malformed = yield* call("GET", `/v1/accounts/not-a-uuid/invitations`, { token })
      assert.strictEqual(malformed.status, 400)
      assert.strictEqual(malformed.body.ok, false)
      assert.strictEqual(malformed.body.error.type, "badRequest")
      const other = yield* newWorkspace("Another workspace")
      const foreign = yield* call("GET", `/v1/accounts/${accountId}/invitations?status=all`, { token: other.keyValue })
      assert.strictEqual(foreign.status, 404)
      assert.strictEqual(foreign.body.error.type, "notFound")
      const anonymous = yield* call("GET", `/v1/accounts/${accountId}/invitations`)
      assert.strictEqual(anonymous.status, 401)
      assert.strictEqual(anonymous.body.error.type, "unauthorized")
    }))

  it.effect("an invitation sent elsewhere is found by syncing as `external`; its acceptance says so, without a name", () =>
    Effect.gen(function*() {
      const { token, workspaceId, accountId } = yield* workspaceWithAccount()
      const network = yield* NetworkDriver
      const inbox = yield* Inbox
      // The person invites on the network itself, not through the service.
      const [person] = strangers(accountId, 1, "inbox-external")
      const sent = yield* network.write(accountId, "connect", { person })
      yield* TestClock.adjust(60_000)
      assert.deepInclude(yield* inbox.syncAccount(accountId), { _tag: "Synced", invitations: 1, accepted: 0 })
      const listed = yield* call("GET", `/v1/accounts/${accountId}/invitations`, { token })
      assert.deepStrictEqual(
        listed.body.invitations.map((i: { id: string; source: string; status: string }) => [i.id, i.source, i.status]),
        [[sent.invitationId, "external", "pending"]]
      )

      const accepted = yield* call("POST", `/v1/sandbox/accounts/${accountId}/events`, {
        token,
        body: { type: "invitation_accepted", invitationId: sent.invitationId }
      })
      assert.strictEqual(accepted.status, 200, JSON.stringify(accepted.body))
      yield* TestClock.adjust(SYNC_INTERVAL_MS)
      assert.deepInclude(yield* inbox.syncAccount(accountId), { _tag: "Synced", accepted: 1 })
      const seen = yield* eventsOf(workspaceId)
      assert.deepStrictEqual(seen.accepted, [{
        accountId,
        invitationId: sent.invitationId,
        providerId: sent.person.providerId,
        via: "external"
      }])
    }))

  it.effect("a sync that reads the network before the connect job has ended still ends with the invitation `svc`", () =>
    Effect.gen(function*() {
      const { token, workspaceId, accountId } = yield* workspaceWithAccount()
      const network = yield* NetworkDriver
      const inbox = yield* Inbox
      const sql = yield* SqlClient.SqlClient
      // The connect has reached the network; its job has not recorded its ending yet when a sync runs.
      const [person] = strangers(accountId, 1, "inbox-race")
      const sent = yield* network.write(accountId, "connect", { person })
      yield* TestClock.adjust(60_000)
      assert.strictEqual((yield* inbox.syncAccount(accountId))._tag, "Synced")
      // The job's ending (what JobStore.finish records in its transaction).
      const result = yield* Schema.encodeUnknownEffect(InvitationSent)(sent)
      const completions = yield* JobCompletions
      yield* sql.withTransaction(completions.complete("connect", { workspaceId, accountId, at: new Date(0).toISOString() }, result))
      const listed = yield* call("GET", `/v1/accounts/${accountId}/invitations`, { token })
      assert.deepStrictEqual(listed.body.invitations.map((i: { source: string }) => i.source), ["svc"])

      yield* call("POST", `/v1/sandbox/accounts/${accountId}/events`, {
        token,
        body: { type: "invitation_accepted", invitationId: sent.invitationId }
      })
      yield* TestClock.adjust(SYNC_INTERVAL_MS)
      assert.deepInclude(yield* inbox.syncAccount(accountId), { _tag: "Synced", accepted: 1 })
      const seen = yield* eventsOf(workspaceId)
      assert.deepStrictEqual(seen.accepted.map((e) => [e.via, e.name]), [["svc", sent.person.name]])
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
      // The withdrawal runs, or waits for a pacing gap: moved past any, it completes.
      const shown = Effect.map(Effect.orDie(withdrawals(on.accountId)), (jobs) => jobs.map((j) => [j.origin, j.status].join(" ")))
      yield* waitFor("the withdrawal to run or wait", shown, (jobs) => jobs.includes("service scheduled") || jobs.includes("service completed"), 20_000)
      yield* TestClock.adjust(PACING_MAX_MS)
      yield* waitFor("the withdrawal to complete", shown, (jobs) => jobs.join() === "service completed", 20_000)
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

  it.effect("auto-withdraw proposes each invitation once: after a person rejects it, never again; no job events", () =>
    Effect.gen(function*() {
      const inbox = yield* Inbox
      const jobs = yield* Jobs
      const outbox = yield* Outbox
      const sql = yield* SqlClient.SqlClient
      // In assist mode even a withdrawal waits for a person.
      const { workspaceId, accountId } = yield* workspaceWithAccount({ autoWithdrawDays: 5, mode: "assist" })
      const person = nonAccepting(accountId, "inbox-withdraw-once")
      const connect = yield* jobs.create({ workspaceId, accountId, command: "connect", input: { person } })
      const approvals = yield* Approvals
      yield* approvals.approve(workspaceId, connect.approvalId ?? "", undefined, "key:test")
      assert.strictEqual((yield* jobAfter(workspaceId, connect.id)).status, "completed")

      yield* TestClock.adjust(5 * DAY + 60_000)
      assert.deepInclude(yield* inbox.syncAccount(accountId), { _tag: "Synced", withdrawing: 1 })
      const [proposed] = yield* sql<{ id: string; approvalId: string | null; status: string }>`
        SELECT id::text AS id, approval_id::text AS "approvalId", status FROM jobs
        WHERE account_id = ${accountId} AND kind = 'withdraw_invite'`
      assert.strictEqual(proposed.status, "awaiting_approval")
      const rejected = yield* approvals.reject(workspaceId, proposed.approvalId ?? "", "keep it open", "key:test")
      assert.strictEqual(rejected.job.status, "failed")

      yield* TestClock.adjust(SYNC_INTERVAL_MS)
      assert.deepInclude(yield* inbox.syncAccount(accountId), { _tag: "Synced", withdrawing: 0 })
      yield* TestClock.adjust(3 * DAY)
      assert.deepInclude(yield* inbox.syncAccount(accountId), { _tag: "Synced", withdrawing: 0 })
      const count = yield* sql<{ n: number }>`
        SELECT count(*)::int AS n FROM jobs WHERE account_id = ${accountId} AND kind = 'withdraw_invite'`
      assert.strictEqual(count[0].n, 1)
      // Neither the proposal nor its rejection told integrators about a job; the connect job did.
      assert.strictEqual((yield* outbox.list(workspaceId, { type: "job.failed" })).length, 0)
      assert.strictEqual((yield* outbox.list(workspaceId, { type: "job.completed" })).length, 1)
    }))

  it.effect("an account whose list_polls budget is used up is not synced until it refills", () =>
    Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount()
      const inbox = yield* Inbox
      const sql = yield* SqlClient.SqlClient
      const limited = yield* call("PUT", `/v1/accounts/${accountId}/limits`, {
        token,
        body: { limits: [{ category: "list_polls", period: "daily", maxValue: 1 }] }
      })
      assert.strictEqual(limited.status, 200, JSON.stringify(limited.body))
      assert.strictEqual((yield* inbox.syncAccount(accountId))._tag, "Synced")
      yield* TestClock.adjust(SYNC_INTERVAL_MS)
      assert.deepStrictEqual(yield* inbox.syncAccount(accountId), { _tag: "Skipped", reason: "budget" })
      // Due again when the account's (UTC) day turns, not at the interval.
      const now = yield* Clock.currentTimeMillis
      const [next] = yield* sql<{ at: string }>`SELECT next_sync_at_ms::text AS at FROM accounts WHERE id = ${accountId}`
      assert.strictEqual(Number(next.at), Math.floor(now / DAY) * DAY + DAY)
      const polls = yield* sql<{ n: number }>`
        SELECT count(*)::int AS n FROM budget_spend WHERE account_id = ${accountId} AND category = 'list_polls'`
      assert.strictEqual(polls[0].n, 1)
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

/** Polls (in real time: the test clock stands still) until `check` holds, up to 10 seconds. */
const eventually = <A, R>(look: Effect.Effect<A, never, R>, check: (a: A) => boolean) =>
  waitFor("the background loop", look, check, 10_000)

const quickLoop = Layer.succeed(InboxSettings, { pollEvery: Duration.millis(20), batch: 100 })

layer(serverLayer({ inboxSync: true }).pipe(Layer.provide(quickLoop)))("the background loop", (it) => {
  it.effect("syncs connected accounts on its own: an acceptance and a reply raise their events once each, no job events", () =>
    Effect.gen(function*() {
      const { workspaceId, accountId, invitationId, name } = yield* acceptedAndAnswered
      // The loop synced the account when it connected; it is due again an interval later.
      yield* TestClock.adjust(SYNC_INTERVAL_MS)
      const seen = yield* eventually(eventsOf(workspaceId), (events) => events.accepted.length > 0 && events.replies.length > 0)
      assert.deepInclude(seen.accepted[0], { accountId, invitationId, via: "svc", name })
      assert.strictEqual(seen.replies[0].triage?.class, "meeting")

      // The next interval: synced again (the cursor moves on), nothing reported twice.
      const sql = yield* SqlClient.SqlClient
      const cursor = sql<{ at: string }>`SELECT synced_until_ms::text AS at FROM accounts WHERE id = ${accountId}`.pipe(
        Effect.map((rows) => Number(rows[0].at)),
        Effect.orDie
      )
      const before = yield* cursor
      yield* TestClock.adjust(SYNC_INTERVAL_MS)
      yield* eventually(cursor, (at) => at >= before + SYNC_INTERVAL_MS)
      const again = yield* eventsOf(workspaceId)
      assert.strictEqual(again.accepted.length, 1)
      assert.strictEqual(again.replies.length, 1)
      // Only the connect job sent a job event: syncing is the service's own background work.
      const outbox = yield* Outbox
      assert.strictEqual((yield* outbox.list(workspaceId, { type: "job.completed" })).length, 1)
      assert.strictEqual((yield* outbox.list(workspaceId, { type: "job.failed" })).length, 0)
    }), { timeout: 30_000 })

  it.effect("an account its hours held is synced as soon as a change of hours opens them", () =>
    Effect.gen(function*() {
      const weekdays = { days: [1, 2, 3, 4, 5], from: "09:00", to: "17:00", timezone: "UTC" }
      const { token, accountId } = yield* workspaceWithAccount({ workingHours: weekdays })
      const sql = yield* SqlClient.SqlClient
      const account = sql<{ next: string | null; synced: string | null }>`
        SELECT next_sync_at_ms::text AS next, synced_until_ms::text AS synced FROM accounts WHERE id = ${accountId}`.pipe(
        Effect.map((rows) => ({ next: Number(rows[0].next), synced: Number(rows[0].synced) })),
        Effect.orDie
      )
      const now = new Date(yield* Clock.currentTimeMillis)
      const toSaturday = ((6 - now.getUTCDay() + 7) % 7 || 7) * DAY
      const saturdayNoon = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + toSaturday + 12 * 3_600_000
      yield* TestClock.setTime(saturdayNoon)
      // The loop finds the hours closed: next due on Monday at 09:00.
      yield* eventually(account, (row) => row.next === saturdayNoon + 45 * 3_600_000)
      const opened = yield* call("PATCH", `/v1/accounts/${accountId}`, {
        token,
        body: { workingHours: { days: [1, 2, 3, 4, 5, 6, 7], from: "08:00", to: "20:00", timezone: "UTC" } }
      })
      assert.strictEqual(opened.status, 200, JSON.stringify(opened.body))
      const synced = yield* eventually(account, (row) => row.synced === saturdayNoon)
      assert.strictEqual(synced.next, saturdayNoon + SYNC_INTERVAL_MS)
    }), { timeout: 30_000 })
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
