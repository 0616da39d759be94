/**
 * The sandbox driver's shared spec: the same network rules on either store of its state, run by
 * `SandboxDriver.test.ts` on the stored state (a fresh database each test, db tier) and by
 * `SandboxDriverMemory.test.ts` on the in-memory one (`src/sandbox/StateMemory.ts`, fast tier).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, type Layer, Schema } from "effect"
import { TestClock } from "effect/testing"
import { commands, readCommands } from "../../src/domain/Commands.ts"
import type { Tier } from "../../src/domain/Limits.ts"
import { type AccountRecord, NetworkDriver } from "../../src/network/NetworkDriver.ts"
import { NetworkError } from "../../src/network/NetworkErrors.ts"
import { invitationOutcome, replyOutcome } from "../../src/sandbox/Behaviour.ts"
import { profileOfProviderId } from "../../src/sandbox/Addresses.ts"
import { memberFrom, personTraits, relationTo } from "../../src/sandbox/SandboxPeople.ts"
import { rng } from "../../src/sandbox/Random.ts"

const DAY = 86_400_000
const start = Date.UTC(2026, 10, 21, 9, 30)

/** A connected account of the tier in the workspace (a new one unless given), recorded as the service records it. */
const newAccount = (tier: Tier, workspaceId: string = crypto.randomUUID()) =>
  Effect.gen(function*() {
    const network = yield* NetworkDriver
    const id = crypto.randomUUID()
    yield* record(network, { accountId: id, workspaceId, tier, products: tier === "sales_nav" ? ["sales_navigator"] : [], removed: false })
    return { id, workspaceId }
  })

/** Tells the sandbox what the service recorded of an account, as `Accounts` does. */
const record = (network: NetworkDriver["Service"], account: AccountRecord) =>
  network.accountRecorded === undefined ? Effect.die("the sandbox keeps the accounts it is told of") : network.accountRecorded(account)

/** The first made-up person (by index) that satisfies `wanted`, as a profile URL and provider id. */
export const someone = (salt: string, wanted: (providerId: string) => boolean) => {
  for (let i = 0; i < 5000; i++) {
    const ref = memberFrom(rng("driver-test", salt, i))
    if (wanted(ref.providerId)) return ref
  }
  throw new Error("nobody found")
}

export const notConnected = (account: string) => (providerId: string) => relationTo(account, providerId).connectionDegree !== 1

const failure = <A, R>(effect: Effect.Effect<A, NetworkError, R>) =>
  Effect.flip(effect).pipe(Effect.map((error) => {
    assert.instanceOf(error, NetworkError)
    return error
  }))

const at = (ms: number) => TestClock.setTime(ms)

/**
 * The spec, on the driver `driverLayer` builds (a fresh state each test). Each test runs at `start`:
 * the layer is built after the clock is set (a PostgreSQL pool opened at the test clock's epoch
 * stalls when the clock then jumps decades).
 */
export const sandboxDriverContract = (store: string, driverLayer: Layer.Layer<NetworkDriver>) => {
  const inSandbox = <A, E>(body: Effect.Effect<A, E, NetworkDriver>) =>
    Effect.andThen(TestClock.setTime(start), Effect.provide(body, driverLayer))

  describe(`the sandbox driver, on ${store}`, () => {
    describe("reads", () => {
      it.effect("are deterministic: the same address is the same person, however it is written", () =>
        inSandbox(Effect.gen(function*() {
          const network = yield* NetworkDriver
          const { id } = yield* newAccount("free")
          const a = yield* network.read(id, "get_profile", { person: "https://www.linkedin.com/in/anna-weber-4b2" })
          const b = yield* network.read(id, "get_profile", { person: "linkedin.com/in/Anna-Weber-4b2/" })
          const c = yield* network.read(id, "get_profile", { person: a.providerId })
          assert.deepStrictEqual(b, a)
          assert.deepStrictEqual(c, a)
          assert.strictEqual(a.name, "Anna Weber")
          const search = yield* network.read(id, "search_people", { title: "engineer", limit: 5 })
          assert.deepStrictEqual(yield* network.read(id, "search_people", { title: "engineer", limit: 5 }), search)
          const found = yield* network.read(id, "get_profile", { person: search.items[0].profileUrl })
          assert.strictEqual(found.name, search.items[0].name)
        })))

      it.effect("answer every read command's examples with results that decode", () =>
        inSandbox(Effect.gen(function*() {
          const network = yield* NetworkDriver
          const { id } = yield* newAccount("premium")
          for (const name of readCommands) {
            const spec = commands[name]
            const examples = Schema.resolveAnnotations(spec.input)?.examples
            assert.isTrue(Array.isArray(examples))
            if (!Array.isArray(examples)) continue
            for (const example of examples) {
              const input = Schema.decodeUnknownSync(spec.input)(example)
              const result = yield* network.read(id, name, input).pipe(Effect.orDie)
              const json = JSON.parse(JSON.stringify(result))
              assert.deepStrictEqual(Schema.decodeUnknownSync(Schema.toCodecJson(spec.result))(json), json, name)
            }
          }
        })))

      it.effect("fail with invalidInput naming the reason", () =>
        inSandbox(Effect.gen(function*() {
          const network = yield* NetworkDriver
          const { id } = yield* newAccount("free")
          const foreign = yield* failure(network.read(id, "get_profile", { person: "https://example.com/in/anna" }))
          assert.strictEqual(foreign.type, "invalidInput")
          assert.include(foreign.message, "notNetworkAddress")
          const company = yield* failure(network.read(id, "get_profile", { person: "https://www.linkedin.com/company/acme" }))
          assert.include(company.message, "wrongKind")
          const cursor = yield* failure(network.read(id, "list_chats", { cursor: "nonsense" }))
          assert.strictEqual(cursor.type, "invalidInput")
          assert.include(cursor.message, "badCursor")
          const chat = yield* failure(network.read(id, "get_conversation", { chatId: "not-a-chat" }))
          assert.strictEqual(chat.type, "invalidInput")
          const post = yield* failure(network.read(id, "get_post", { post: "urn:li:activity:12" }))
          assert.include(post.message, "malformedIdentifier")
          const future = yield* failure(network.read(id, "get_post", { post: "urn:li:activity:9528731723694092345" }))
          assert.strictEqual(future.type, "notFound")
          const withdraw = yield* failure(network.write(id, "withdraw_invite", { invitationId: "abc" }))
          assert.strictEqual(withdraw.type, "invalidInput")
          const accept = yield* failure(network.write(id, "accept_invite", { invitationId: "inv-!!" }))
          assert.strictEqual(accept.type, "invalidInput")
        })))
    })

    describe("connect and its guardrails", () => {
      it.effect("refuses a connection, a second pending invitation and another seat's pending one", () =>
        inSandbox(Effect.gen(function*() {
          const network = yield* NetworkDriver
          const { id, workspaceId } = yield* newAccount("premium")
          const friend = someone("friend", (p) => relationTo(id, p).connectionDegree === 1)
          const already = yield* failure(network.write(id, "connect", { person: friend.profileUrl }))
          assert.strictEqual(already.type, "guardrail")
          assert.include(already.message, "already a connection")

          const colleague = yield* newAccount("premium", workspaceId)
          const stranger = someone("stranger", (p) => notConnected(id)(p) && notConnected(colleague.id)(p))
          const sent = yield* network.write(id, "connect", { person: stranger.profileUrl })
          assert.strictEqual(sent.status, "pending")
          assert.strictEqual(sent.sentAt, new Date(start).toISOString())
          assert.isNull(sent.note)
          const twice = yield* failure(network.write(id, "connect", { person: stranger.providerId }))
          assert.strictEqual(twice.type, "guardrail")
          assert.include(twice.next, sent.invitationId)

          const otherSeat = yield* failure(network.write(colleague.id, "connect", { person: stranger.profileUrl }))
          assert.strictEqual(otherSeat.type, "guardrail")
          assert.include(otherSeat.message, "another seat")
          // Once withdrawn, the colleague may invite.
          yield* network.write(id, "withdraw_invite", { invitationId: sent.invitationId })
          assert.strictEqual((yield* network.write(colleague.id, "connect", { person: stranger.profileUrl })).status, "pending")
          // A seat of another workspace is not held back.
          const outsider = yield* newAccount("premium")
          const target = someone("shared", (p) => notConnected(id)(p) && notConnected(outsider.id)(p))
          yield* network.write(id, "connect", { person: target.profileUrl })
          const elsewhere = yield* network.write(outsider.id, "connect", { person: target.profileUrl })
          assert.strictEqual(elsewhere.status, "pending")
          // Nor by a seat the workspace has removed.
          const removed = yield* newAccount("premium", workspaceId)
          const held = someone("removed", (p) => notConnected(removed.id)(p) && notConnected(colleague.id)(p))
          yield* network.write(removed.id, "connect", { person: held.profileUrl })
          yield* record(network, { accountId: removed.id, workspaceId, tier: "premium", products: [], removed: true })
          assert.strictEqual((yield* network.write(colleague.id, "connect", { person: held.profileUrl })).status, "pending")
        })))

      it.effect("refuses a new invitation within 3 weeks of a withdrawal, with the date", () =>
        inSandbox(Effect.gen(function*() {
          const network = yield* NetworkDriver
          const { id } = yield* newAccount("premium")
          // Someone who never accepts, so the invitation stays pending until withdrawn.
          const person = someone("withdrawn", (p) => notConnected(id)(p) && !invitationOutcome(id, p).accepts)
          const sent = yield* network.write(id, "connect", { person: person.profileUrl })
          yield* TestClock.adjust("2 days")
          const withdrawn = yield* network.write(id, "withdraw_invite", { invitationId: sent.invitationId })
          const withdrawnAt = start + 2 * DAY
          assert.strictEqual(withdrawn.withdrawnAt, new Date(withdrawnAt).toISOString())
          const resendAt = new Date(withdrawnAt + 21 * DAY).toISOString()
          assert.strictEqual(withdrawn.canResendAfter, resendAt)
          const again = yield* failure(network.write(id, "withdraw_invite", { person: person.profileUrl }))
          assert.strictEqual(again.type, "notFound")

          yield* TestClock.adjust("20 days")
          const early = yield* failure(network.write(id, "connect", { person: person.profileUrl }))
          assert.strictEqual(early.type, "cannotResendYet")
          assert.strictEqual(early.until, resendAt)
          assert.include(early.message, resendAt)
          yield* TestClock.adjust("1 day")
          const later = yield* network.write(id, "connect", { person: person.profileUrl })
          assert.strictEqual(later.status, "pending")
        })))

      it.effect("lets a free account add 5 notes a month; the sixth fails with noteQuotaExhausted", () =>
        inSandbox(Effect.gen(function*() {
          const network = yield* NetworkDriver
          const free = yield* newAccount("free")
          const premium = yield* newAccount("premium")
          const people = Array.from({ length: 8 }, (_, i) =>
            someone(`note-${i}`, (p) => notConnected(free.id)(p) && notConnected(premium.id)(p)))
          for (const person of people.slice(0, 5)) {
            const sent = yield* network.write(free.id, "connect", { person: person.profileUrl, note: "Hello!" })
            assert.strictEqual(sent.note, "Hello!")
          }
          const sixth = yield* failure(network.write(free.id, "connect", { person: people[5].profileUrl, note: "Hello!" }))
          assert.strictEqual(sixth.type, "noteQuotaExhausted")
          assert.strictEqual(sixth.until, "2026-12-01T00:00:00.000Z")
          // Nothing was sent: the same person can still be invited, without a note.
          const plain = yield* network.write(free.id, "connect", { person: people[5].profileUrl, note: "  " })
          assert.isNull(plain.note)
          // Paid tiers have no note quota.
          for (const person of people) yield* network.write(premium.id, "connect", { person: person.profileUrl, note: "Hi" })
          // A new month gives five notes again.
          yield* at(Date.UTC(2026, 11, 1, 8))
          const december = yield* network.write(free.id, "connect", { person: people[6].profileUrl, note: "Hello again" })
          assert.strictEqual(december.note, "Hello again")
        })))
    })

    describe("sync", () => {
      it.effect("reports an acceptance only once the clock passes it, and the person becomes a connection", () =>
        inSandbox(Effect.gen(function*() {
          const network = yield* NetworkDriver
          const { id } = yield* newAccount("premium")
          const person = someone("accepts", (p) => notConnected(id)(p) && invitationOutcome(id, p).accepts)
          const outcome = invitationOutcome(id, person.providerId)
          assert.isTrue(outcome.accepts)
          const acceptedAt = start + (outcome.afterSeconds ?? 0) * 1000
          const sent = yield* network.write(id, "connect", { person: person.profileUrl })

          const first = yield* network.sync(id, start - 1)
          assert.deepStrictEqual(first.invitations.map((i) => [i.invitationId, i.status]), [[sent.invitationId, "pending"]])
          assert.strictEqual(first.syncedUntil, start)
          const notYet = yield* failure(network.write(id, "send_message", { person: person.profileUrl, text: "Hi" }))
          assert.strictEqual(notYet.type, "guardrail")

          yield* at(acceptedAt - 1)
          const before = yield* network.sync(id, first.syncedUntil)
          assert.deepStrictEqual(before.invitations, [])
          yield* at(acceptedAt)
          const after = yield* network.sync(id, before.syncedUntil)
          assert.strictEqual(after.invitations.length, 1)
          assert.strictEqual(after.invitations[0].status, "accepted")
          assert.strictEqual(after.invitations[0].acceptedAt, new Date(acceptedAt).toISOString())
          assert.strictEqual(after.invitations[0].providerId, person.providerId)
          // Reported once: the next window is empty.
          yield* TestClock.adjust("1 hour")
          assert.deepStrictEqual((yield* network.sync(id, after.syncedUntil)).invitations, [])

          assert.strictEqual((yield* network.read(id, "get_profile", { person: person.profileUrl })).connectionDegree, 1)
          const message = yield* network.write(id, "send_message", { person: person.profileUrl, text: "Thanks!" })
          assert.isFalse(message.inmail)
          const withdraw = yield* failure(network.write(id, "withdraw_invite", { invitationId: sent.invitationId }))
          assert.strictEqual(withdraw.type, "guardrail")
        })))

      it.effect("reports a reply only once the clock passes it, and shows it in the conversation", () =>
        inSandbox(Effect.gen(function*() {
          const network = yield* NetworkDriver
          const { id } = yield* newAccount("free")
          const person = someone("replies", (p) => {
            const reply = replyOutcome(id, p, 0)
            return relationTo(id, p).connectionDegree === 1 && reply !== null && reply.class !== "out_of_office"
          })
          const reply = replyOutcome(id, person.providerId, 0, { sentAt: start })
          assert.isNotNull(reply)
          const replyAt = start + (reply?.afterSeconds ?? 0) * 1000
          const sent = yield* network.write(id, "send_message", { person: person.profileUrl, text: "Hi, quick question" })
          const replies = (since: number) =>
            Effect.map(network.sync(id, since), (result) => result.messages.filter((m) => m.chatId === sent.chatId))

          yield* at(replyAt - 1)
          assert.deepStrictEqual(yield* replies(start), [])
          yield* at(replyAt)
          const arrived = yield* replies(start)
          assert.strictEqual(arrived.length, 1)
          assert.strictEqual(arrived[0].inReplyTo, sent.messageId)
          assert.strictEqual(arrived[0].senderProviderId, person.providerId)
          assert.strictEqual(arrived[0].text, reply?.text)
          assert.strictEqual(arrived[0].sentAt, new Date(replyAt).toISOString())
          assert.deepStrictEqual(yield* replies(replyAt), [])

          const conversation = yield* network.read(id, "get_conversation", { chatId: sent.chatId })
          const tail = conversation.messages.slice(-2)
          assert.deepStrictEqual(tail.map((m) => [m.direction, m.text]), [["sent", "Hi, quick question"], ["received", reply?.text]])
          const chats = yield* network.read(id, "list_chats", { limit: 100 })
          assert.strictEqual(chats.items[0].id, sent.chatId)
          assert.strictEqual(chats.items[0].lastMessage.text, reply?.text)
        })))
    })

    describe("other writes", () => {
      it.effect("messages go to connections, or as InMail from a paid account", () =>
        inSandbox(Effect.gen(function*() {
          const network = yield* NetworkDriver
          const free = yield* newAccount("free")
          const premium = yield* newAccount("premium")
          const stranger = someone("inmail", (p) => notConnected(free.id)(p) && notConnected(premium.id)(p))
          const plain = yield* failure(network.write(free.id, "send_message", { person: stranger.profileUrl, text: "Hi" }))
          assert.strictEqual(plain.type, "guardrail")
          const noCredits = yield* failure(
            network.write(free.id, "send_message", { person: stranger.profileUrl, text: "Hi", inmail: true })
          )
          assert.strictEqual(noCredits.type, "guardrail")
          assert.include(noCredits.message, "InMail")
          const inmail = yield* network.write(premium.id, "send_message", {
            person: stranger.profileUrl,
            text: "Hi",
            inmail: true,
            subject: "Hello"
          })
          assert.isTrue(inmail.inmail)
          const bad = yield* failure(network.write(premium.id, "send_message", { chatId: "2-nope", text: "Hi" }))
          assert.strictEqual(bad.type, "invalidInput")
        })))

      it.effect("accepting a received invitation removes it from list_invites and connects the person", () =>
        inSandbox(Effect.gen(function*() {
          const network = yield* NetworkDriver
          let account = yield* newAccount("free")
          let invites = yield* network.read(account.id, "list_invites", {})
          for (let i = 0; invites.items.length < 2 && i < 20; i++) {
            account = yield* newAccount("free")
            invites = yield* network.read(account.id, "list_invites", {})
          }
          const id = account.id
          const [first, second] = invites.items
          const accepted = yield* network.write(id, "accept_invite", { invitationId: first.id })
          assert.strictEqual(accepted.answer, "accepted")
          assert.strictEqual(accepted.from.connectionDegree, 1)
          const declined = yield* network.write(id, "decline_invite", { invitationId: second.id })
          assert.strictEqual(declined.answer, "declined")
          const after = yield* network.read(id, "list_invites", {})
          assert.strictEqual(after.total, invites.total - 2)
          assert.isFalse(after.items.some((item) => item.id === first.id || item.id === second.id))
          const again = yield* failure(network.write(id, "accept_invite", { invitationId: first.id }))
          assert.strictEqual(again.type, "notFound")
          const profile = yield* network.read(id, "get_profile", { person: first.from.profileUrl })
          assert.strictEqual(profile.connectionDegree, 1)
          if (profile.skills.length > 0) {
            const endorsed = yield* network.write(id, "endorse", { person: first.from.profileUrl, skill: profile.skills[0] })
            assert.strictEqual(endorsed.person.connectionDegree, 1)
          }
        })))

      it.effect("endorse needs a connection and a listed skill; save_lead needs Sales Navigator", () =>
        inSandbox(Effect.gen(function*() {
          const network = yield* NetworkDriver
          const { id } = yield* newAccount("sales_nav")
          const free = yield* newAccount("free")
          const friend = someone("skilled", (p) =>
            relationTo(id, p).connectionDegree === 1 && personTraits(profileOfProviderId(p)).skills.length > 0)
          const profile = yield* network.read(id, "get_profile", { person: friend.profileUrl })
          const skill = profile.skills[0]
          const first = yield* network.write(id, "endorse", { person: friend.profileUrl, skill: skill.toUpperCase() })
          assert.strictEqual(first.skill, skill)
          assert.strictEqual(first.endorsedAt, new Date(start).toISOString())
          yield* TestClock.adjust("1 hour")
          const repeat = yield* network.write(id, "endorse", { person: friend.profileUrl, skill })
          assert.strictEqual(repeat.endorsedAt, first.endorsedAt)
          const unknownSkill = yield* failure(network.write(id, "endorse", { person: friend.profileUrl, skill: "Underwater Basketry" }))
          assert.strictEqual(unknownSkill.type, "invalidInput")
          const stranger = someone("unendorsable", notConnected(id))
          const notFriend = yield* failure(network.write(id, "endorse", { person: stranger.profileUrl, skill: "Sales" }))
          assert.strictEqual(notFriend.type, "guardrail")

          const lead = yield* network.write(id, "save_lead", { person: stranger.profileUrl, list: "Q1" })
          assert.strictEqual(lead.list, "Q1")
          assert.strictEqual(lead.person.providerId, stranger.providerId)
          const noNav = yield* failure(network.write(free.id, "save_lead", { person: stranger.profileUrl }))
          assert.strictEqual(noNav.type, "guardrail")
        })))

      it.effect("react, comment and create_post answer results that decode", () =>
        inSandbox(Effect.gen(function*() {
          const network = yield* NetworkDriver
          const { id } = yield* newAccount("premium")
          const posts = yield* network.read(id, "get_posts", { company: "74474624", limit: 1 })
          const post = posts.items[0].urn
          const reacted = yield* network.write(id, "react", { post, reaction: "insightful" })
          assert.deepStrictEqual(reacted, { post, reaction: "insightful", reactedAt: new Date(start).toISOString() })
          const changed = yield* network.write(id, "react", { post, reaction: "celebrate" })
          assert.strictEqual(changed.reaction, "celebrate")
          const commented = yield* network.write(id, "comment", { post, text: "Well said." })
          assert.strictEqual(commented.post, post)
          const created = yield* network.write(id, "create_post", { text: "Shipping today. #Launch #b2b" })
          assert.deepStrictEqual(created.post.hashtags, ["launch", "b2b"])
          assert.strictEqual(created.visibility, "anyone")
          assert.strictEqual(created.post.publishedAt, new Date(start).toISOString())
          for (const [schema, value] of [
            [commands.react.result, reacted],
            [commands.comment.result, commented],
            [commands.create_post.result, created]
          ] as const) {
            const json = JSON.parse(JSON.stringify(value))
            assert.deepStrictEqual(Schema.decodeUnknownSync(Schema.toCodecJson(schema))(json), json)
          }
          const notYet = yield* failure(network.write(id, "react", { post: "urn:li:activity:9528731723694092345", reaction: "like" }))
          assert.strictEqual(notYet.type, "notFound")
        })))
    })

    describe("fenced write attempts", () => {
      it.effect("outcomeOf tells a write the network's rules refused from one that never reached it, with the network's error", () =>
        inSandbox(Effect.gen(function*() {
          const network = yield* NetworkDriver
          if (network.outcomeOf === undefined) return assert.fail("the sandbox answers outcomeOf")
          const { id } = yield* newAccount("premium")
          const key = crypto.randomUUID()
          const refused = yield* failure(network.write(id, "react", { post: "urn:li:activity:9528731723694092345", reaction: "like" }, { key, fence: 1 }))
          const known = yield* network.outcomeOf(id, "react", key, 2)
          assert.strictEqual(known._tag, "Refused")
          if (known._tag !== "Refused") return
          assert.instanceOf(known.error, NetworkError)
          assert.deepStrictEqual([known.error.type, known.error.message], [refused.type, refused.message])
          assert.deepStrictEqual(yield* network.outcomeOf(id, "react", crypto.randomUUID(), 2), { _tag: "NotHappened" })
        })))

      it.effect("refuses an attempt with an older token than the account showed, and outcomeOf raises the token first", () =>
        inSandbox(Effect.gen(function*() {
          const network = yield* NetworkDriver
          const { id } = yield* newAccount("premium")
          const stale = crypto.randomUUID()
          yield* network.write(id, "create_post", { text: "By the owner of epoch 2." }, { key: crypto.randomUUID(), fence: 2 })
          const refused = yield* failure(network.write(id, "create_post", { text: "By a frozen owner." }, { key: stale, fence: 1 }))
          assert.strictEqual(refused.type, "network")
          assert.match(refused.message, /newer owner/)
          // A successor asks about a write first: after its answer, no older attempt lands.
          const asked = crypto.randomUUID()
          if (network.outcomeOf === undefined) return assert.fail("the sandbox answers outcomeOf")
          assert.deepStrictEqual(yield* network.outcomeOf(id, "create_post", asked, 3), { _tag: "NotHappened" })
          yield* failure(network.write(id, "create_post", { text: "Too late." }, { key: asked, fence: 2 }))
          assert.deepStrictEqual(yield* network.outcomeOf(id, "create_post", asked, 3), { _tag: "NotHappened" })
          // The stale attempt counts for nothing: its write never happened.
          assert.deepStrictEqual(yield* network.outcomeOf(id, "create_post", stale, 3), { _tag: "NotHappened" })
          yield* network.write(id, "create_post", { text: "By the successor." }, { key: asked, fence: 3 })
          assert.strictEqual((yield* network.outcomeOf(id, "create_post", asked, 3))._tag, "Happened")
        })))
    })
  })
}
