/**
 * The sandbox's account routes' contract, fast: the service's own handlers
 * (`sandbox/http/SandboxHandlers.ts`) behind the contract's middleware, called with the typed client
 * in memory (`HttpApiTest`), on the in-memory `Accounts` (held to the stored one by
 * `test/accounts/AccountsContract.ts`) and the server's per-workspace network routing over a sandbox
 * and a live workspace, the sandbox being the sandbox driver itself on its in-memory state (held to
 * the stored one by `test/sandbox/SandboxDriverContract.ts`; see `test/support/SandboxNetworks.ts`).
 * Tested here: `complete-connection`, the lifecycle events (`signed_out`, `restricted`, `health`),
 * `invitation_accepted` and `message_received` on the network, the 404 for a live workspace or an
 * unknown account or invitation, the 409 while connecting, and bad input. Not here: `sync` on a
 * connected account, and the sync an event triggers, which need the stored `Inbox` (the service's
 * tables): the whole service tests them (`test/sandbox/http/SandboxEvents.test.ts`); here the inbox
 * is a stand-in that dies if reached, so each test also shows the route did not reach it.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { HttpApiTest } from "effect/http-api"
import { Accounts } from "../../src/accounts/Accounts.ts"
import * as AccountsMemory from "../../src/accounts/AccountsMemory.ts"
import { Api } from "../../src/api/Api.ts"
import type { Authentication } from "../../src/api/Security.ts"
import { Inbox } from "../../src/inbox/Inbox.ts"
import { NetworkDriver } from "../../src/network/NetworkDriver.ts"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import { SandboxHandlers } from "../../src/sandbox/http/SandboxHandlers.ts"
import { sandboxSignIn } from "../../src/sandbox/SandboxDriver.ts"
import { defaultSeats } from "../../src/workspaces/Workspaces.ts"
import { AnyCaller, callerWorkspaceId } from "../support/AnyCaller.ts"
import { assertEnvelope, inMemory, read, sending } from "../support/RouteCalls.ts"
import { notConnected, someone } from "../sandbox/SandboxDriverContract.ts"
import { LiveCaller, liveWorkspaceId, simulatedNetworks } from "../support/SandboxNetworks.ts"

/** The inbox, which none of these tests may reach: syncing needs the service's stored tables. */
const unreachableInbox = Layer.succeed(
  Inbox,
  Inbox.of({
    syncAccount: (accountId) => Effect.die(new Error(`The inbox was asked to sync ${accountId}; this test must not reach it.`)),
    syncDue: Effect.die(new Error("The inbox was asked for due syncs; this test must not reach it.")),
    invitations: () => Effect.die(new Error("The inbox was asked for invitations; this test must not reach it."))
  })
)

const sandboxRoutes = (caller: Layer.Layer<Authentication> = AnyCaller) =>
  inMemory(
    SandboxHandlers.pipe(
      Layer.provideMerge(AccountsMemory.layer({ network: sandboxSignIn, seats: defaultSeats })),
      // Background syncing off (`OUTREACH_INBOX_SYNC=false`): an event is not synced at once, so the
      // inbox (which needs the service's stored tables) is not reached.
      Layer.provideMerge(Layer.mergeAll(simulatedNetworks, unreachableInbox, AppConfig.layerWith({ inboxSync: false })))
    ),
    caller
  )

const client = HttpApiTest.groups(Api, ["sandbox"])

const unknownId = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"

/** The caller's workspace's seats all free again (the tests share them): every account an earlier test left removed. */
const emptied = Effect.gen(function*() {
  const accounts = yield* Accounts
  for (const account of (yield* accounts.list(callerWorkspaceId)).accounts) yield* accounts.remove(callerWorkspaceId, account.id)
  return yield* client
})

/** A new account of `workspaceId`'s, connecting; its id. */
const connecting = (workspaceId = callerWorkspaceId) =>
  Effect.gen(function*() {
    const accounts = yield* Accounts
    return (yield* accounts.connect({ workspaceId, baseUrl: "http://sandbox.test" })).account.id
  })

/** A new account of the caller's, its connection completed through the route; its id. */
const connected = Effect.gen(function*() {
  const api = yield* client
  const id = yield* connecting()
  yield* api.sandbox.completeConnection({ params: { id }, payload: {} })
  return id
})

layer(sandboxRoutes())("the sandbox's account routes in memory", (it) => {
  it.effect("POST complete-connection answers 200 with the account warming, with the tier, products and network size given", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* emptied
      const id = yield* connecting()
      const [done, response] = yield* api.sandbox.completeConnection({
        params: { id },
        payload: { tier: "sales_nav", products: ["sales_navigator"], connections: 1200 },
        responseMode: "decoded-and-response"
      })
      assert.strictEqual(response.status, 200)
      assert.deepStrictEqual(Object.keys(done).sort(), ["account", "ok"])
      assert.isTrue(done.ok)
      assert.strictEqual(done.account.id, id)
      assert.strictEqual(done.account.status, "warming")
      assert.strictEqual(done.account.tier, "sales_nav")
      assert.deepStrictEqual(done.account, yield* (yield* Accounts).get(callerWorkspaceId, id))
      // Without a profile, the sandbox's own (the same one for the same account) is kept.
      const plain = (yield* api.sandbox.completeConnection({ params: { id: yield* connecting() }, payload: {} })).account
      assert.strictEqual(plain.status, "warming")
    })))

  it.effect("POST complete-connection on an account already at work is 409 conflict, and changes nothing", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* emptied
      const id = yield* connected
      const before = yield* (yield* Accounts).get(callerWorkspaceId, id)
      const again = yield* api.sandbox.completeConnection({ params: { id }, payload: { tier: "premium" }, responseMode: "response-only" })
      assertEnvelope(yield* read(again), 409, "conflict")
      assert.strictEqual((yield* Effect.flip(api.sandbox.completeConnection({ params: { id }, payload: {} })))._tag, "Conflict")
      assert.deepStrictEqual(yield* (yield* Accounts).get(callerWorkspaceId, id), before)
    })))

  it.effect("POST events `signed_out` needs reconnecting; complete-connection puts it back to work", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* emptied
      const id = yield* connected
      const [out, response] = yield* api.sandbox.networkEvent({
        params: { id },
        payload: { type: "signed_out", reason: "password changed" },
        responseMode: "decoded-and-response"
      })
      assert.strictEqual(response.status, 200)
      assert.isTrue(out.ok)
      assert.strictEqual(out.account.status, "reconnect_required")
      // Twice is the same.
      assert.strictEqual((yield* api.sandbox.networkEvent({ params: { id }, payload: { type: "signed_out" } })).account.status, "reconnect_required")
      const back = yield* api.sandbox.completeConnection({ params: { id }, payload: {} })
      assert.strictEqual(back.account.status, "warming")
    })))

  it.effect("POST events `restricted` restricts the account; `health` red stops it, green keeps a working one working", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* emptied
      const restricted = yield* connected
      const limited = yield* api.sandbox.networkEvent({ params: { id: restricted }, payload: { type: "restricted", reason: "too many invites" } })
      assert.strictEqual(limited.account.status, "restricted")
      const healthy = yield* connected
      const green = yield* api.sandbox.networkEvent({ params: { id: healthy }, payload: { type: "health", level: "green" } })
      assert.strictEqual(green.account.status, "warming")
      const red = yield* api.sandbox.networkEvent({ params: { id: healthy }, payload: { type: "health", level: "red", reason: "unusual activity" } })
      assert.strictEqual(red.account.status, "stopped")
      assert.deepStrictEqual(red.account, yield* (yield* Accounts).get(callerWorkspaceId, healthy))
    })))

  it.effect("while the account is still connecting, every event and sync is 409 conflict, saying to complete the connection", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* emptied
      const id = yield* connecting()
      const params = { id }
      const answers = [
        yield* api.sandbox.networkEvent({ params, payload: { type: "invitation_accepted", person: "maria-garcia-3a9f02c1b" }, responseMode: "response-only" }),
        yield* api.sandbox.networkEvent({ params, payload: { type: "message_received", person: "maria-garcia-3a9f02c1b", text: "Hi" }, responseMode: "response-only" }),
        yield* api.sandbox.networkEvent({ params, payload: { type: "signed_out" }, responseMode: "response-only" }),
        yield* api.sandbox.networkEvent({ params, payload: { type: "restricted" }, responseMode: "response-only" }),
        yield* api.sandbox.networkEvent({ params, payload: { type: "health", level: "red" }, responseMode: "response-only" }),
        yield* api.sandbox.sync({ params, responseMode: "response-only" })
      ]
      for (const answer of answers) {
        const error = assertEnvelope(yield* read(answer), 409, "conflict")
        assert.strictEqual(error.message, "The account is still connecting.")
      }
      assert.strictEqual((yield* Effect.flip(api.sandbox.sync({ params })))._tag, "Conflict")
      assert.strictEqual((yield* (yield* Accounts).get(callerWorkspaceId, id)).status, "connecting")
    })))

  it.effect("an unknown account, or another workspace's (even a sandbox one), is 404 notFound on every route", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* emptied
      const foreign = yield* connecting("3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f")
      for (const id of [unknownId, foreign]) {
        const params = { id }
        const answers = [
          yield* api.sandbox.completeConnection({ params, payload: {}, responseMode: "response-only" }),
          yield* api.sandbox.networkEvent({ params, payload: { type: "signed_out" }, responseMode: "response-only" }),
          yield* api.sandbox.networkEvent({ params, payload: { type: "invitation_accepted", invitationId: "x" }, responseMode: "response-only" }),
          yield* api.sandbox.sync({ params, responseMode: "response-only" })
        ]
        for (const answer of answers) {
          const error = assertEnvelope(yield* read(answer), 404, "notFound")
          assert.strictEqual(error.message, `No account ${id} in this workspace.`)
        }
      }
      assert.strictEqual((yield* Effect.flip(api.sandbox.sync({ params: { id: unknownId } })))._tag, "NotFound")
      assert.strictEqual((yield* (yield* Accounts).get("3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f", foreign)).status, "connecting")
    })))

  it.effect("bad input is 400 badRequest in the envelope: a bad id, a bad event, a payload out of range", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* emptied
      const id = yield* connecting()
      const bodies: ReadonlyArray<unknown> = [
        { type: "invitation_accepted", invitationId: "x", person: "maria-garcia-3a9f02c1b" },
        { type: "invitation_accepted" },
        { type: "message_received", person: "maria-garcia-3a9f02c1b", text: "   " },
        { type: "health", level: "purple" },
        { type: "exploded" },
        {},
        "signed_out"
      ]
      for (const body of bodies) {
        const bad = yield* api.sandbox.networkEvent({ params: { id }, payload: { type: "signed_out" }, responseMode: "response-only" }).pipe(
          sending({ body })
        )
        assertEnvelope(yield* read(bad), 400, "badRequest")
      }
      for (const body of [{ connections: 30_001 }, { connections: -1 }, { connections: 1.5 }, { tier: "gold" }]) {
        const bad = yield* api.sandbox.completeConnection({ params: { id }, payload: {}, responseMode: "response-only" }).pipe(
          sending({ body })
        )
        assertEnvelope(yield* read(bad), 400, "badRequest")
      }
      const notAnId = yield* api.sandbox.sync({ params: { id }, responseMode: "response-only" }).pipe(
        sending({ path: "/v1/sandbox/accounts/not-a-uuid/sync" })
      )
      assertEnvelope(yield* read(notAnId), 400, "badRequest")
      // None of it touched the account.
      assert.strictEqual((yield* (yield* Accounts).get(callerWorkspaceId, id)).status, "connecting")
    })))
})

layer(sandboxRoutes(LiveCaller))("the sandbox's account routes in memory, for a live workspace", (it) => {
  it.effect("every route is 404 notFound, saying the workspace is live, even for its own account; nothing changes", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const id = yield* connecting(liveWorkspaceId)
      const params = { id }
      const answers = [
        yield* api.sandbox.completeConnection({ params, payload: {}, responseMode: "response-only" }),
        yield* api.sandbox.networkEvent({ params, payload: { type: "signed_out" }, responseMode: "response-only" }),
        yield* api.sandbox.sync({ params, responseMode: "response-only" })
      ]
      for (const answer of answers) {
        const error = assertEnvelope(yield* read(answer), 404, "notFound")
        assert.include(error.message, "this workspace's network is live (the unipile driver)")
        assert.include(error.next, "sandbox workspace")
      }
      assert.strictEqual((yield* Effect.flip(api.sandbox.sync({ params })))._tag, "NotFound")
      assert.strictEqual((yield* (yield* Accounts).get(liveWorkspaceId, id)).status, "connecting")
    })))
})

/** A person the account is not connected to (the sandbox's own people), as a profile URL and provider id. */
const stranger = (accountId: string, salt: string) => someone(`${accountId}-${salt}`, notConnected(accountId))

layer(sandboxRoutes())("the sandbox's account routes in memory, acting on the network", (it) => {
  it.effect("invitation_accepted by invitationId or by person answers 200 and the network shows the invitation accepted now; again is 404", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* emptied
      const network = yield* NetworkDriver
      const id = yield* connected
      const first = stranger(id, "by-id")
      const sent = yield* network.write(id, "connect", { person: first.profileUrl })
      const [accepted, response] = yield* api.sandbox.networkEvent({
        params: { id },
        payload: { type: "invitation_accepted", invitationId: sent.invitationId },
        responseMode: "decoded-and-response"
      })
      assert.strictEqual(response.status, 200)
      assert.deepStrictEqual(accepted, { ok: true, account: yield* (yield* Accounts).get(callerWorkspaceId, id) })
      const synced = yield* network.sync(id, -1)
      assert.deepStrictEqual(synced.invitations.map((invitation) => [invitation.invitationId, invitation.status]), [[sent.invitationId, "accepted"]])
      assert.strictEqual((yield* network.read(id, "get_profile", { person: first.profileUrl })).connectionDegree, 1)

      const again = yield* api.sandbox.networkEvent({
        params: { id },
        payload: { type: "invitation_accepted", invitationId: sent.invitationId },
        responseMode: "response-only"
      })
      const gone = assertEnvelope(yield* read(again), 404, "notFound")
      assert.include(gone.message, "no longer pending")

      const second = stranger(id, "by-person")
      const other = yield* network.write(id, "connect", { person: second.profileUrl, note: "Hi!" })
      const byPerson = yield* api.sandbox.networkEvent({ params: { id }, payload: { type: "invitation_accepted", person: second.providerId } })
      assert.strictEqual(byPerson.account.id, id)
      const invitations = (yield* network.sync(id, -1)).invitations
      assert.deepStrictEqual(invitations.find((invitation) => invitation.invitationId === other.invitationId)?.status, "accepted")
    })))

  it.effect("invitation_accepted for no pending invitation is 404 notFound, saying to send one first", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* emptied
      const id = yield* connected
      const never = stranger(id, "never-invited")
      for (
        const payload of [
          { type: "invitation_accepted" as const, invitationId: "5d1f8a2e-7c43-4b0e-9a61-2f3c4d5e6f70" },
          { type: "invitation_accepted" as const, invitationId: "not-an-invitation" },
          { type: "invitation_accepted" as const, person: never.profileUrl }
        ]
      ) {
        const error = assertEnvelope(yield* read(yield* api.sandbox.networkEvent({ params: { id }, payload, responseMode: "response-only" })), 404, "notFound")
        assert.include(error.next, "connect")
      }
      assert.strictEqual(
        (yield* Effect.flip(api.sandbox.networkEvent({ params: { id }, payload: { type: "invitation_accepted", person: never.providerId } })))._tag,
        "NotFound"
      )
    })))

  it.effect("message_received answers 200 and the conversation shows it; a chatId not the person's, or an address naming no one, is 422", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* emptied
      const network = yield* NetworkDriver
      const id = yield* connected
      const writer = stranger(id, "writer")
      const text = "Hi Ada, saw your talk: could we chat next week?"
      const [received, response] = yield* api.sandbox.networkEvent({
        params: { id },
        payload: { type: "message_received", person: writer.profileUrl, text },
        responseMode: "decoded-and-response"
      })
      assert.strictEqual(response.status, 200)
      assert.strictEqual(received.account.id, id)
      const messages = (yield* network.sync(id, -1)).messages.filter((message) => message.senderProviderId === writer.providerId)
      assert.deepStrictEqual(messages.map((message) => message.text), [text])
      const chatId = messages[0]?.chatId ?? ""
      const conversation = yield* network.read(id, "get_conversation", { chatId })
      assert.deepStrictEqual(conversation.messages.map((message) => [message.direction, message.text]), [["received", text]])

      const inChat = yield* api.sandbox.networkEvent({ params: { id }, payload: { type: "message_received", person: writer.providerId, text: "One more.", chatId } })
      assert.strictEqual(inChat.account.id, id)
      const wrongChat = yield* api.sandbox.networkEvent({
        params: { id },
        payload: { type: "message_received", person: stranger(id, "someone-else").profileUrl, text: "Hello", chatId },
        responseMode: "response-only"
      })
      assert.include(assertEnvelope(yield* read(wrongChat), 422, "unprocessable").message, "chatId")
      const nobody = yield* api.sandbox.networkEvent({
        params: { id },
        payload: { type: "message_received", person: "not a profile address!", text: "Hello" },
        responseMode: "response-only"
      })
      assertEnvelope(yield* read(nobody), 422, "unprocessable")
      assert.strictEqual((yield* Effect.flip(api.sandbox.networkEvent({ params: { id }, payload: { type: "message_received", person: "not a profile address!", text: "Hi" } })))._tag, "Unprocessable")
      // Only the two messages that went through reached the network.
      assert.strictEqual((yield* network.read(id, "get_conversation", { chatId })).messages.length, 2)
    })))
})
