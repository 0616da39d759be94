import { assert, layer } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { TestClock } from "effect/testing"
import { NetworkDriver } from "../../../src/network/NetworkDriver.ts"
import { invitationOutcome } from "../../../src/sandbox/Behaviour.ts"
import { memberFrom, relationTo } from "../../../src/sandbox/SandboxPeople.ts"
import { rng } from "../../../src/sandbox/Random.ts"
import { call, layer as serverLayer, newWorkspace, type Reply } from "../../support/TestServer.ts"

const connected = (token: string) =>
  Effect.gen(function*() {
    const created = yield* call("POST", "/v1/accounts/connect", { token, body: { label: "Ada" } })
    assert.strictEqual(created.status, 201, JSON.stringify(created.body))
    const id: string = created.body.account.id
    const done = yield* call("POST", `/v1/sandbox/accounts/${id}/complete-connection`, {
      token,
      body: { tier: "premium", connections: 900 }
    })
    assert.strictEqual(done.status, 200, JSON.stringify(done.body))
    return id
  })

/** A made-up person who is not a connection of the account and whom the behaviour model has decline invitations. */
const decliner = (accountId: string, salt: string) => {
  for (let i = 0; i < 5000; i++) {
    const ref = memberFrom(rng("sandbox-events-test", salt, i))
    if (relationTo(accountId, ref.providerId).connectionDegree !== 1 && !invitationOutcome(accountId, ref.providerId).accepts) {
      return ref
    }
  }
  throw new Error("nobody found")
}

const event = (token: string, id: string, body: unknown) =>
  call("POST", `/v1/sandbox/accounts/${id}/events`, { token, body })

const assertError = (reply: Reply, status: number, type: string) => {
  assert.strictEqual(reply.status, status, JSON.stringify(reply.body))
  assert.strictEqual(reply.body.ok, false)
  assert.strictEqual(reply.body.error.type, type)
  assert.isString(reply.body.error.message)
  assert.isString(reply.body.error.next)
}

const iso = (ms: number) => new Date(ms).toISOString()

layer(serverLayer())("sandbox events from people", (it) => {
  it.effect("invitation_accepted: accepted at the clock's instant, synced once, and the person is a connection", () =>
    Effect.gen(function*() {
      const network = yield* NetworkDriver
      const { keyValue } = yield* newWorkspace()
      const id = yield* connected(keyValue)
      const person = decliner(id, "by-id")
      const sentAt = yield* Clock.currentTimeMillis
      const sent = yield* network.write(id, "connect", { person: person.profileUrl })

      yield* TestClock.adjust("1 hour")
      const before = yield* network.sync(id, sentAt - 1)
      assert.deepStrictEqual(before.invitations.map((i) => [i.invitationId, i.status]), [[sent.invitationId, "pending"]])

      yield* TestClock.adjust("1 hour")
      const acceptedAt = yield* Clock.currentTimeMillis
      const accepted = yield* event(keyValue, id, { type: "invitation_accepted", invitationId: sent.invitationId })
      assert.strictEqual(accepted.status, 200, JSON.stringify(accepted.body))
      assert.strictEqual(accepted.body.ok, true)
      assert.strictEqual(accepted.body.account.id, id)

      const after = yield* network.sync(id, before.syncedUntil)
      assert.deepStrictEqual(after.invitations, [{
        invitationId: sent.invitationId,
        providerId: person.providerId,
        note: null,
        status: "accepted",
        sentAt: iso(sentAt),
        acceptedAt: iso(acceptedAt),
        resolvedAt: iso(acceptedAt)
      }])
      yield* TestClock.adjust("30 days")
      assert.deepStrictEqual((yield* network.sync(id, after.syncedUntil)).invitations, [])

      const profile = yield* network.read(id, "get_profile", { person: person.profileUrl })
      assert.strictEqual(profile.connectionDegree, 1)
      const message = yield* network.write(id, "send_message", { person: person.profileUrl, text: "Thanks for connecting!" })
      assert.isFalse(message.inmail)

      const again = yield* event(keyValue, id, { type: "invitation_accepted", invitationId: sent.invitationId })
      assertError(again, 404, "notFound")
      assert.include(again.body.error.message, "no longer pending")
    }))

  it.effect("invitation_accepted by person accepts the latest pending invitation to them", () =>
    Effect.gen(function*() {
      const network = yield* NetworkDriver
      const { keyValue } = yield* newWorkspace()
      const id = yield* connected(keyValue)
      const person = decliner(id, "by-person")
      const since = yield* Clock.currentTimeMillis
      const sent = yield* network.write(id, "connect", { person: person.profileUrl, note: "Hi!" })
      yield* TestClock.adjust("3 hours")
      const now = yield* Clock.currentTimeMillis
      const accepted = yield* event(keyValue, id, { type: "invitation_accepted", person: person.publicIdentifier })
      assert.strictEqual(accepted.status, 200, JSON.stringify(accepted.body))
      const synced = yield* network.sync(id, since - 1)
      assert.deepStrictEqual(synced.invitations.map((i) => [i.invitationId, i.status, i.acceptedAt]), [
        [sent.invitationId, "accepted", iso(now)]
      ])
    }))

  it.effect("message_received: synced once at the clock's instant and shown in the chat", () =>
    Effect.gen(function*() {
      const network = yield* NetworkDriver
      const { keyValue } = yield* newWorkspace()
      const id = yield* connected(keyValue)
      const person = decliner(id, "writer")
      yield* TestClock.adjust("1 hour")
      const since = yield* Clock.currentTimeMillis
      yield* TestClock.adjust("1 hour")
      const receivedAt = yield* Clock.currentTimeMillis
      const text = "Hi Ada — saw your talk, could we chat next week?"
      const received = yield* event(keyValue, id, { type: "message_received", person: person.profileUrl, text })
      assert.strictEqual(received.status, 200, JSON.stringify(received.body))
      assert.strictEqual(received.body.account.id, id)

      const fromPerson = (since: number) =>
        Effect.map(network.sync(id, since), (result) => ({
          until: result.syncedUntil,
          messages: result.messages.filter((m) => m.senderProviderId === person.providerId)
        }))
      const first = yield* fromPerson(since)
      assert.strictEqual(first.messages.length, 1)
      const [message] = first.messages
      assert.strictEqual(message.text, text)
      assert.strictEqual(message.sentAt, iso(receivedAt))
      assert.isNull(message.inReplyTo)
      yield* TestClock.adjust("1 day")
      assert.deepStrictEqual((yield* fromPerson(first.until)).messages, [])

      const conversation = yield* network.read(id, "get_conversation", { chatId: message.chatId })
      const last = conversation.messages[conversation.messages.length - 1]
      assert.deepStrictEqual(
        [last.id, last.direction, last.senderProviderId, last.text, last.sentAt],
        [message.messageId, "received", person.providerId, text, iso(receivedAt)]
      )
      const chats = yield* network.read(id, "list_chats", { limit: 100 })
      assert.strictEqual(chats.items.find((chat) => chat.id === message.chatId)?.lastMessage.text, text)

      // The chat given explicitly must be the chat with the person.
      const inChat = yield* event(keyValue, id, {
        type: "message_received",
        person: person.providerId,
        text: "And one more thing.",
        chatId: message.chatId
      })
      assert.strictEqual(inChat.status, 200, JSON.stringify(inChat.body))
      const other = decliner(id, "someone-else")
      const wrongChat = yield* event(keyValue, id, {
        type: "message_received",
        person: other.profileUrl,
        text: "Hello",
        chatId: message.chatId
      })
      assertError(wrongChat, 422, "unprocessable")
      assert.include(wrongChat.body.error.message, "chatId")
    }))

  it.effect("bad bodies are 400 in the envelope, an address that names no one 422", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const id = yield* connected(keyValue)
      const invitationId = crypto.randomUUID()
      const bodies: ReadonlyArray<unknown> = [
        { type: "invitation_accepted" },
        { type: "invitation_accepted", invitationId, person: "maria-garcia-3a9f02c1b" },
        { type: "invitation_accepted", invitationId: "" },
        { type: "message_received", person: "maria-garcia-3a9f02c1b" },
        { type: "message_received", person: "maria-garcia-3a9f02c1b", text: "" },
        { type: "message_received", person: "maria-garcia-3a9f02c1b", text: "x".repeat(8001) },
        { type: "message_received", text: "Hello" },
        { type: "followed" }
      ]
      for (const body of bodies) assertError(yield* event(keyValue, id, body), 400, "badRequest")
      // Well-formed text that names no one on the network: 422.
      const nobody = yield* event(keyValue, id, { type: "message_received", person: "not a profile address!", text: "Hello" })
      assertError(nobody, 422, "unprocessable")
      const longest = yield* event(keyValue, id, { type: "message_received", person: "maria-garcia-3a9f02c1b", text: "x".repeat(8000) })
      assert.strictEqual(longest.status, 200, JSON.stringify(longest.body))
    }))

  it.effect("an unknown invitation is 404", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const id = yield* connected(keyValue)
      const person = decliner(id, "never-invited")
      for (
        const body of [
          { type: "invitation_accepted", invitationId: crypto.randomUUID() },
          { type: "invitation_accepted", invitationId: "not-an-invitation" },
          { type: "invitation_accepted", person: person.profileUrl }
        ]
      ) {
        assertError(yield* event(keyValue, id, body), 404, "notFound")
      }
      assertError(
        yield* event(keyValue, crypto.randomUUID(), { type: "message_received", person: person.profileUrl, text: "Hi" }),
        404,
        "notFound"
      )
    }))

  it.effect("a connecting account is 409", () =>
    Effect.gen(function*() {
      const network = yield* NetworkDriver
      const { keyValue } = yield* newWorkspace()
      const created = yield* call("POST", "/v1/accounts/connect", { token: keyValue, body: {} })
      const id: string = created.body.account.id
      const person = decliner(id, "too-early")
      const now = yield* Clock.currentTimeMillis
      const message = yield* event(keyValue, id, { type: "message_received", person: person.profileUrl, text: "Hi" })
      assertError(message, 409, "conflict")
      assertError(yield* event(keyValue, id, { type: "invitation_accepted", person: person.profileUrl }), 409, "conflict")
      yield* TestClock.adjust("1 minute")
      assert.deepStrictEqual((yield* network.sync(id, now - 1)).messages.filter((m) => m.senderProviderId === person.providerId), [])
    }))
})
