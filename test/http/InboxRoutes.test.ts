/**
 * The inbox routes' contract, fast: the service's own handlers (`http/InboxHandlers.ts`) behind the
 * contract's middleware, called with the typed client in memory (`HttpApiTest`), on the in-memory
 * inbox (held to the stored one by `test/inbox/InboxContract.ts`); accounts and the invitations
 * they sent are seeded as connecting and syncing record them. Each test checks status codes, the
 * envelope and error types as the spec states them, bad input included. The Health report and the
 * Daily brief are read by the in-memory reports (held to the stored ones by
 * `test/inbox/ReportsContract.ts`) of accounts the in-memory accounts connect as the sandbox's, on
 * the in-memory messages, jobs and forecast (`test/inbox/InMemory.ts`).
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { HttpApiTest } from "effect/http-api"
import { Api } from "../../src/api/Api.ts"
import { INVITATION_LIST_MAX } from "../../src/domain/InboxRecords.ts"
import { InboxHandlers } from "../../src/http/InboxHandlers.ts"
import * as InboxMemory from "../../src/inbox/InboxMemory.ts"
import { Jobs } from "../../src/jobs/Jobs.ts"
import { Messages } from "../../src/people/Messages.ts"
import * as Time from "../../src/domain/Time.ts"
import { reportsInMemory } from "../inbox/InMemory.ts"
import { connectedAccount, premiumSeat } from "../inbox/ReportsContract.ts"
import type { SyncedInvitation } from "../../src/network/Sync.ts"
import { callerWorkspaceId } from "../support/AnyCaller.ts"
import { assertEnvelope, inMemory, read, sending } from "../support/RouteCalls.ts"
import { pendingInvitation } from "../inbox/InboxContract.ts"

const services = inMemory(InboxHandlers.pipe(Layer.provideMerge(reportsInMemory)))

/** A new account of the workspace (the caller's unless told), connected as a premium seat; its id. */
const connected = (workspaceId = callerWorkspaceId) => connectedAccount(workspaceId)

const client = HttpApiTest.groups(Api, ["inbox"])

/** A new account of the workspace (the caller's unless told) that sent these invitations. */
const accountWith = (invitations: ReadonlyArray<SyncedInvitation>, workspaceId = callerWorkspaceId) =>
  Effect.gen(function*() {
    const seeds = yield* InboxMemory.InboxSeeds
    const accountId = yield* seeds.account(workspaceId)
    yield* Effect.forEach(invitations, (invitation) => seeds.synced(accountId, invitation), { discard: true })
    return accountId
  })

const ids = (list: ReadonlyArray<{ readonly id: string }>) => list.map((invitation) => invitation.id)

layer(services)("the inbox routes in memory", (it) => {
  it.effect("GET invitations answers 200 with the pending ones by default, newest first; status filters, all lists every one", () =>
    Effect.gen(function*() {
      const api = yield* client
      const id = yield* accountWith([
        pendingInvitation("inv-old", 1, "Hello"),
        pendingInvitation("inv-new", 5),
        { ...pendingInvitation("inv-yes", 3), status: "accepted", acceptedAt: "2026-11-21T08:00:00.000Z", resolvedAt: "2026-11-21T08:00:00.000Z" }
      ])
      const [answer, response] = yield* api.inbox.invitations({ params: { id }, query: {}, responseMode: "decoded-and-response" })
      assert.strictEqual(response.status, 200)
      assert.isTrue(answer.ok)
      assert.deepStrictEqual(ids(answer.invitations), ["inv-new", "inv-old"])
      assert.deepStrictEqual(answer.invitations[1], {
        id: "inv-old",
        providerId: "ACo-inv-old",
        note: "Hello",
        status: "pending",
        source: "external",
        sentAt: "2026-11-20T09:01:00.000Z",
        resolvedAt: null
      })
      const accepted = yield* api.inbox.invitations({ params: { id }, query: { status: "accepted" } })
      assert.deepStrictEqual(accepted.invitations.map(({ id, resolvedAt }) => [id, resolvedAt]), [["inv-yes", "2026-11-21T08:00:00.000Z"]])
      assert.deepStrictEqual(ids((yield* api.inbox.invitations({ params: { id }, query: { status: "all" } })).invitations), [
        "inv-new",
        "inv-yes",
        "inv-old"
      ])
      assert.deepStrictEqual((yield* api.inbox.invitations({ params: { id }, query: { status: "declined" } })).invitations, [])
    }))

  it.effect(`GET invitations lists ${INVITATION_LIST_MAX} at most, the newest`, () =>
    Effect.gen(function*() {
      const api = yield* client
      const id = yield* accountWith(
        Array.from({ length: INVITATION_LIST_MAX + 5 }, (_, i) => pendingInvitation(`inv-${String(i).padStart(3, "0")}`, i))
      )
      const { invitations } = yield* api.inbox.invitations({ params: { id }, query: {} })
      assert.strictEqual(invitations.length, INVITATION_LIST_MAX)
      assert.strictEqual(invitations[0]?.id, `inv-${INVITATION_LIST_MAX + 4}`)
    }))

  it.effect("an unknown account, or another workspace's, is 404 notFound", () =>
    Effect.gen(function*() {
      const api = yield* client
      const elsewhere = yield* accountWith([pendingInvitation("inv-theirs", 1)], crypto.randomUUID())
      for (const id of [crypto.randomUUID(), elsewhere]) {
        const response = yield* api.inbox.invitations({ params: { id }, query: {}, responseMode: "response-only" })
        const error = assertEnvelope(yield* read(response), 404, "notFound")
        assert.strictEqual(error.message, `No account ${id} in this workspace.`)
        assert.strictEqual(error.next, "List the workspace's accounts with GET /v1/accounts.")
      }
      const typed = yield* Effect.flip(api.inbox.invitations({ params: { id: elsewhere }, query: {} }))
      assert.strictEqual(typed._tag, "NotFound")
    }))

  it.effect("GET health-report answers 200 with the report of the account; another workspace's, or none, is 404 notFound", () =>
    Effect.gen(function*() {
      const api = yield* client
      const id = yield* connected()
      const seeds = yield* InboxMemory.InboxSeeds
      yield* seeds.synced(id, pendingInvitation("inv-1", 1))
      const [answer, response] = yield* api.inbox.healthReport({ params: { id }, responseMode: "decoded-and-response" })
      assert.strictEqual(response.status, 200)
      assert.isTrue(answer.ok)
      assert.strictEqual(answer.report.account.id, id)
      assert.deepStrictEqual(answer.report.network.connections, premiumSeat.connections)
      assert.strictEqual(answer.report.invitations.pending, 1)
      assert.isNull(answer.report.ssi)
      assert.strictEqual(answer.report.warmup?.day, 1)

      const foreign = yield* connected(crypto.randomUUID())
      for (const missing of [crypto.randomUUID(), foreign]) {
        const notFound = yield* api.inbox.healthReport({ params: { id: missing }, responseMode: "response-only" })
        const error = assertEnvelope(yield* read(notFound), 404, "notFound")
        assert.strictEqual(error.message, `No account ${missing} in this workspace.`)
        assert.strictEqual(error.next, "List the workspace's accounts with GET /v1/accounts.")
      }
      assert.strictEqual((yield* Effect.flip(api.inbox.healthReport({ params: { id: foreign } })))._tag, "NotFound")
    }))

  it.effect("GET brief answers 200 with the account's brief: replies of the look-back (24 hours unless told), new connections, the queue", () =>
    Effect.gen(function*() {
      const api = yield* client
      const id = yield* connected()
      const now = yield* Time.now
      const seeds = yield* InboxMemory.InboxSeeds
      const acceptedAt = Time.toIso(now.ms - 3_600_000)
      yield* seeds.synced(id, { ...pendingInvitation("inv-new", 1), status: "accepted", acceptedAt, resolvedAt: acceptedAt })
      for (const [sender, hoursAgo] of [["ACo-recent", 2], ["ACo-earlier", 30]] as const) {
        yield* (yield* Messages).recordReceived(id, {
          chatId: `chat-${sender}`,
          messageId: `msg-${sender}`,
          senderProviderId: sender,
          text: "Happy to talk: does Tuesday at 10am work for a call?",
          sentAt: Time.toIso(now.ms - hoursAgo * 3_600_000),
          inReplyTo: null
        }, { class: "meeting", suggestedReply: "Tuesday at 10am works.", confidence: 0.95 })
      }
      const waiting = yield* (yield* Jobs).create({ workspaceId: callerWorkspaceId, accountId: id, command: "connect", input: { person: "ada-lovelace" } })
      assert.strictEqual(waiting.status, "awaiting_approval")

      const [answer, response] = yield* api.inbox.brief({ params: { id }, query: {}, responseMode: "decoded-and-response" })
      assert.strictEqual(response.status, 200)
      assert.isTrue(answer.ok)
      const { brief } = answer
      assert.deepInclude(brief.account, { id, mode: "approve", health: "green", warmupDay: 1 })
      assert.deepStrictEqual(brief.replies.map((reply) => [reply.chatId, reply.class, reply.from]), [["chat-ACo-recent", "meeting", null]])
      assert.deepStrictEqual(brief.readyForFirstMessage.map((ready) => [ready.providerId, ready.acceptedAt]), [["ACo-inv-new", acceptedAt]])
      assert.deepStrictEqual(brief.queue, { queued: 0, scheduled: 0, awaitingApproval: 1, byKind: { connect: 1 } })
      assert.strictEqual(brief.approvals, 1)
      assert.strictEqual(
        brief.headline,
        "1 person is ready to talk (1 asks for a meeting): answer them first; 1 new connection is ready for a first message; 1 write waits for your approval."
      )
      assert.match(brief.tomorrow, /^Nothing is expected to go out on \d{4}-\d{2}-\d{2}\.$/)

      const longer = yield* api.inbox.brief({ params: { id }, query: { hours: 48 } })
      assert.deepStrictEqual(longer.brief.replies.map((reply) => reply.chatId), ["chat-ACo-recent", "chat-ACo-earlier"])
      const raw = yield* read(yield* api.inbox.brief({ params: { id }, query: {}, responseMode: "response-only" }).pipe(
        sending({ path: `/v1/accounts/${id.toUpperCase()}/brief?hours=168` })
      ))
      assert.strictEqual(raw.status, 200, JSON.stringify(raw.body))
      assert.strictEqual(raw.body.ok, true)
      assert.strictEqual(raw.body.brief.account.id, id)
    }))

  it.effect("GET brief of another workspace's account, or of none, is 404 notFound", () =>
    Effect.gen(function*() {
      const api = yield* client
      const foreign = yield* connected(crypto.randomUUID())
      for (const missing of [crypto.randomUUID(), foreign]) {
        const notFound = yield* api.inbox.brief({ params: { id: missing }, query: {}, responseMode: "response-only" })
        const error = assertEnvelope(yield* read(notFound), 404, "notFound")
        assert.strictEqual(error.message, `No account ${missing} in this workspace.`)
        assert.strictEqual(error.next, "List the workspace's accounts with GET /v1/accounts.")
      }
      assert.strictEqual((yield* Effect.flip(api.inbox.brief({ params: { id: foreign }, query: { hours: 24 } })))._tag, "NotFound")
    }))

  it.effect("a malformed id, status or look-back is 400 badRequest naming what is wrong, on every inbox route", () =>
    Effect.gen(function*() {
      const api = yield* client
      const id = yield* accountWith([])
      const invitations = api.inbox.invitations({ params: { id }, query: {}, responseMode: "response-only" })
      for (const [path, field] of [
        [`/v1/accounts/${id}/invitations?status=open`, "status"],
        [`/v1/accounts/${id}/invitations?status=`, "status"],
        ["/v1/accounts/not-an-id/invitations", "id"]
      ]) {
        const answer = yield* read(yield* invitations.pipe(sending({ path })))
        assert.include(assertEnvelope(answer, 400, "badRequest").message, field, path)
      }
      const brief = api.inbox.brief({ params: { id }, query: {}, responseMode: "response-only" })
      for (const [path, field] of [
        [`/v1/accounts/${id}/brief?hours=0`, "hours"],
        [`/v1/accounts/${id}/brief?hours=169`, "hours"],
        [`/v1/accounts/${id}/brief?hours=1.5`, "hours"],
        [`/v1/accounts/${id}/brief?hours=day`, "hours"],
        ["/v1/accounts/not-an-id/brief", "id"]
      ]) {
        const answer = yield* read(yield* brief.pipe(sending({ path })))
        assert.include(assertEnvelope(answer, 400, "badRequest").message, field, path)
      }
      const healthReport = api.inbox.healthReport({ params: { id }, responseMode: "response-only" })
      const report = yield* read(yield* healthReport.pipe(sending({ path: "/v1/accounts/not-an-id/health-report" })))
      assert.include(assertEnvelope(report, 400, "badRequest").message, "id")
    }))
})
