/**
 * The Unipile driver over HTTP against the provider double: sign-in with each checkpoint kind,
 * every command (the supported ones mapped from the provider's answers, the others failing
 * `notSupported` and absent from `capabilities`), the provider's errors named, outages retried,
 * a lost answer looked up instead of sent twice, `outcomeOf` answered from the network, and sync.
 * Real clock: the driver backs off in real time and the double stamps with the machine's clock.
 */
import { afterEach, assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { UnipileClient } from "unipile-node-sdk"
import { commandNames } from "../../../src/domain/Commands.ts"
import { NetworkDriver } from "../../../src/network/NetworkDriver.ts"
import type { NetworkError } from "../../../src/network/NetworkErrors.ts"
import * as Store from "../../../src/network/unipile/Store.ts"
import * as UnipileDriver from "../../../src/network/unipile/UnipileDriver.ts"
import * as TestDatabase from "../../support/TestDatabase.ts"
import { aiko, lena, maria, posts, tomas } from "../../support/unipile/Directory.ts"
import * as ProviderDouble from "../../support/unipile/ProviderDouble.ts"

const apiKey = "driver-test-key"
const opened: Array<ProviderDouble.ProviderDouble> = []
afterEach(async () => {
  for (const double of opened.splice(0)) await double.close()
})

const withDouble = <A, E>(
  body: (double: ProviderDouble.ProviderDouble) => Effect.Effect<A, E, NetworkDriver | SqlClient.SqlClient>,
  options: Partial<ProviderDouble.Options> = {}
) =>
  Effect.gen(function*() {
    const double = yield* Effect.promise(() => ProviderDouble.start({ apiKey, ...options }))
    opened.push(double)
    const driver = UnipileDriver.layer({ dsn: double.dsn, apiKey: Redacted.make(apiKey), validation: "error" })
    return yield* body(double).pipe(Effect.provide(driver.pipe(Layer.provideMerge(TestDatabase.layer))))
  })

/** A service account signed in through the driver as `username`. */
const signedIn = (username: string) =>
  Effect.gen(function*() {
    const network = yield* NetworkDriver
    const accountId = crypto.randomUUID()
    const step = yield* network.signIn({ accountId, username, password: Redacted.make("secret"), country: undefined })
    assert.strictEqual(step._tag, "Connected")
    return accountId
  })

const flipNetwork = <A>(effect: Effect.Effect<A, NetworkError>) => Effect.flip(effect)

describe("the Unipile driver on the provider double", () => {
  it.live("signs in through each checkpoint kind; the tier, products and connections come from the network", () =>
    withDouble((double) =>
      Effect.gen(function*() {
        const network = yield* NetworkDriver
        for (const [username, checkpoint] of [["sales-2fa@x.io", "2fa"], ["otp@x.io", "otp"], ["captcha@x.io", "captcha"]] as const) {
          const accountId = crypto.randomUUID()
          const step = yield* network.signIn({ accountId, username, password: Redacted.make("pw"), country: undefined })
          assert.deepStrictEqual(step, { _tag: "Checkpoint", checkpoint, message: step._tag === "Checkpoint" ? step.message : "" })
          const wrong = yield* network.passCheckpoint({ accountId, checkpoint, code: "111111" })
          assert.deepStrictEqual(wrong, { _tag: "Rejected", message: "The code is not right." })
          const passed = yield* network.passCheckpoint({ accountId, checkpoint, code: "000000" })
          assert.strictEqual(passed._tag, "Connected")
          if (username.startsWith("sales") && passed._tag === "Connected") {
            assert.deepStrictEqual(passed.profile, { tier: "sales_nav", products: ["sales_navigator"], connections: 1 })
          }
        }
        const accountId = crypto.randomUUID()
        const app = yield* network.signIn({ accountId, username: "app@x.io", password: Redacted.make("pw"), country: undefined })
        assert.strictEqual(app._tag === "Checkpoint" ? app.checkpoint : undefined, "in_app_approval")
        const waiting = yield* network.passCheckpoint({ accountId, checkpoint: "in_app_approval", code: undefined })
        assert.strictEqual(waiting._tag, "Checkpoint")
        const providerAccount = yield* Effect.flatMap(Store.make, (store) => store.providerAccountOf(accountId))
        double.approveInApp(providerAccount ?? "")
        const approved = yield* network.passCheckpoint({ accountId, checkpoint: "in_app_approval", code: undefined })
        assert.deepStrictEqual(approved, { _tag: "Connected", profile: { tier: "free", products: [], connections: 1 } })
        const refused = yield* network.signIn({ accountId: crypto.randomUUID(), username: "x@x.io", password: Redacted.make("wrong"), country: undefined })
        assert.deepStrictEqual(refused, { _tag: "Rejected", message: "The network refused the username or password." })
        assert.deepStrictEqual(double.violations, [])
      })
    ))

  it.live("runs every supported command with results mapped from the provider; the rest fail notSupported", () =>
    withDouble((double) =>
      Effect.gen(function*() {
        const network = yield* NetworkDriver
        const accountId = yield* signedIn("premium-rep@x.io")
        const profile = yield* network.read(accountId, "get_profile", { person: `https://www.linkedin.com/in/${maria.slug}` })
        assert.deepInclude(profile, { providerId: maria.providerId, name: "María García", title: "VP of Sales", connectionDegree: 2 })
        assert.deepStrictEqual(profile.company, { id: "74474624", name: "Harborview Analytics", profileUrl: "https://www.linkedin.com/company/74474624" })
        const company = yield* network.read(accountId, "get_company", { company: "https://www.linkedin.com/company/harborview-analytics" })
        assert.deepInclude(company, { id: "74474624", slug: "harborview-analytics", headquarters: "Bogotá, Colombia", companySize: "201-500", founded: 2014 })
        const people = yield* network.read(accountId, "search_people", { keywords: "harborview", limit: 1 })
        assert.strictEqual(people.total, 2)
        assert.isString(people.cursor)
        const next = yield* network.read(accountId, "search_people", { keywords: "harborview", limit: 1, cursor: people.cursor ?? "" })
        assert.notStrictEqual(next.items[0].providerId, people.items[0].providerId)
        const found = yield* network.read(accountId, "search_companies", { keywords: "logistics" })
        assert.deepStrictEqual(found.items.map((one) => one.slug), ["northwind-logistics"])
        const theirPosts = yield* network.read(accountId, "get_posts", { person: maria.slug })
        assert.deepStrictEqual(theirPosts.items.map((one) => one.id), [posts[0].id, posts[1].id])
        const post = yield* network.read(accountId, "get_post", { post: `urn:li:activity:${posts[0].id}` })
        assert.deepInclude(post, { urn: `urn:li:activity:${posts[0].id}`, hashtags: ["sales", "revops"] })
        const invites = yield* network.read(accountId, "list_invites", {})
        assert.deepStrictEqual(invites.items.map((one) => one.from.providerId), [lena.providerId, aiko.providerId])

        const connected = yield* network.write(accountId, "connect", { person: maria.slug, note: "Hi María" }, { key: crypto.randomUUID(), fence: 1 })
        assert.deepInclude(connected, { note: "Hi María", status: "pending" })
        assert.strictEqual(connected.person.providerId, maria.providerId)
        const withdrawn = yield* network.write(accountId, "withdraw_invite", { invitationId: connected.invitationId }, { key: crypto.randomUUID(), fence: 1 })
        assert.strictEqual(withdrawn.providerId, maria.providerId)
        const message = yield* network.write(accountId, "send_message", { person: tomas.slug, text: "Hello Tomás" }, { key: crypto.randomUUID(), fence: 1 })
        assert.deepInclude(message, { recipientProviderId: tomas.providerId, inmail: false, text: "Hello Tomás" })
        const inmail = yield* network.write(accountId, "send_message", { person: maria.slug, text: "Hi", inmail: true, subject: "Idea" }, { key: crypto.randomUUID(), fence: 1 })
        assert.isTrue(inmail.inmail)
        const reply = yield* network.write(accountId, "send_message", { chatId: message.chatId, text: "And one more" }, { key: crypto.randomUUID(), fence: 1 })
        assert.strictEqual(reply.chatId, message.chatId)
        const chats = yield* network.read(accountId, "list_chats", {})
        assert.deepStrictEqual(chats.items.map((chat) => chat.attendee.providerId).sort(), [maria.providerId, tomas.providerId].sort())
        const conversation = yield* network.read(accountId, "get_conversation", { chatId: message.chatId })
        assert.deepStrictEqual(conversation.messages.map((one) => [one.direction, one.text]), [["sent", "Hello Tomás"], ["sent", "And one more"]])
        const accepted = yield* network.write(accountId, "accept_invite", { invitationId: invites.items[0].id }, { key: crypto.randomUUID(), fence: 1 })
        assert.deepInclude(accepted, { answer: "accepted" })
        const reacted = yield* network.write(accountId, "react", { post: posts[0].id, reaction: "insightful" }, { key: crypto.randomUUID(), fence: 1 })
        assert.deepInclude(reacted, { post: `urn:li:activity:${posts[0].id}`, reaction: "insightful" })
        const commented = yield* network.write(accountId, "comment", { post: posts[0].id, text: "Well put." }, { key: crypto.randomUUID(), fence: 1 })
        assert.notStrictEqual(commented.commentId, "")
        const created = yield* network.write(accountId, "create_post", { text: "Deal reviews, three questions. #sales" }, { key: crypto.randomUUID(), fence: 1 })
        assert.deepInclude(created.post, { text: "Deal reviews, three questions. #sales", hashtags: ["sales"] })

        const refusals = [
          yield* flipNetwork(network.read(accountId, "profile_viewers", {})),
          yield* flipNetwork(network.read(accountId, "ssi", {})),
          yield* flipNetwork(network.write(accountId, "endorse", { person: tomas.slug, skill: "Logistics" }, { key: crypto.randomUUID(), fence: 1 })),
          yield* flipNetwork(network.write(accountId, "save_lead", { person: maria.slug }, { key: crypto.randomUUID(), fence: 1 }))
        ]
        assert.deepStrictEqual(refusals.map((error) => [error.type, error.message]), ["profile_viewers", "ssi", "endorse", "save_lead"].map((command) => [
          "notSupported",
          `The unipile network does not support ${command}.`
        ]))
        assert.deepStrictEqual(
          commandNames.filter((command) => !(network.capabilities ?? commandNames).includes(command)),
          ["profile_viewers", "ssi", "endorse", "save_lead"]
        )
        assert.deepStrictEqual(double.violations, [])
      })
    ))

  it.live("names the provider's refusals: guardrail, cannotResendYet, noteQuotaExhausted, signedOut, invalidInput", () =>
    withDouble((double) =>
      Effect.gen(function*() {
        const network = yield* NetworkDriver
        const accountId = yield* signedIn("free@x.io")
        const key = () => ({ key: crypto.randomUUID(), fence: 1 })
        const sent = yield* network.write(accountId, "connect", { person: maria.slug }, key())
        const again = yield* flipNetwork(network.write(accountId, "connect", { person: maria.slug }, key()))
        assert.strictEqual(again.type, "guardrail")
        yield* network.write(accountId, "withdraw_invite", { invitationId: sent.invitationId }, key())
        const soon = yield* flipNetwork(network.write(accountId, "connect", { person: maria.slug }, key()))
        assert.strictEqual(soon.type, "cannotResendYet")
        assert.isString(soon.until)
        const notConnected = yield* flipNetwork(network.write(accountId, "send_message", { person: maria.slug, text: "hi" }, key()))
        assert.strictEqual(notConnected.type, "guardrail")
        const bad = yield* flipNetwork(network.read(accountId, "get_profile", { person: "https://example.com/in/x" }))
        assert.strictEqual(bad.type, "invalidInput")
        const unknown = yield* flipNetwork(network.read(accountId, "get_profile", { person: "nobody-here" }))
        assert.strictEqual(unknown.type, "notFound")
        const notes = yield* signedIn("notes@x.io")
        yield* network.write(notes, "connect", { person: maria.slug, note: "hello" }, key())
        const providerAccount = yield* Effect.flatMap(Store.make, (store) => store.providerAccountOf(notes))
        const seat = double.accounts.get(providerAccount ?? "")
        if (seat !== undefined) seat.notesThisMonth = 5
        const quota = yield* flipNetwork(network.write(notes, "connect", { person: aiko.slug, note: "hello" }, key()))
        assert.strictEqual(quota.type, "noteQuotaExhausted")
        double.setStatus(providerAccount ?? "", "CREDENTIALS")
        const out = yield* flipNetwork(network.read(notes, "list_chats", {}))
        assert.strictEqual(out.type, "signedOut")
      })
    ))

  it.live("retries an outage with backoff, and a lost answer is looked up: sent once", () =>
    withDouble((double) =>
      Effect.gen(function*() {
        const network = yield* NetworkDriver
        const accountId = yield* signedIn("retry@x.io")
        double.inject("users.invite", { kind: "error", status: 503, type: "service_unavailable" }, 2)
        const sent = yield* network.write(accountId, "connect", { person: maria.slug }, { key: crypto.randomUUID(), fence: 1 })
        assert.strictEqual(sent.person.providerId, maria.providerId)
        double.inject("chats.start", { kind: "lostReply" })
        const message = yield* network.write(accountId, "send_message", { person: tomas.slug, text: "Only once" }, { key: crypto.randomUUID(), fence: 1 })
        assert.strictEqual(message.text, "Only once")
        const seat = [...double.accounts.values()].find((one) => one.chats.length > 0)
        assert.deepStrictEqual(seat?.chats[0].messages.map((one) => one.text), ["Only once"])
        assert.strictEqual(double.calls.filter((call) => call.route === "chats.start").length, 1)
        double.inject("posts.get", { kind: "malformed" })
        const odd = yield* flipNetwork(network.read(accountId, "get_post", { post: posts[0].id }))
        assert.strictEqual(odd.type, "network")
        assert.include(odd.message, "invalid_response")
        assert.deepStrictEqual(double.violations.map((violation) => violation.route), ["posts.get"])
        double.violations.splice(0)
        double.inject("users.profile", { kind: "error", status: 504, type: "request_timeout" }, 10)
        const down = yield* flipNetwork(network.read(accountId, "get_profile", { person: maria.slug }))
        assert.strictEqual(down.type, "network")
      })
    ), 30_000)

  it.live("respects the provider's rate limit: reads past it wait and go through", () =>
    withDouble(() =>
      Effect.gen(function*() {
        const network = yield* NetworkDriver
        const accountId = yield* signedIn("busy@x.io")
        for (let i = 0; i < 4; i++) yield* network.read(accountId, "get_post", { post: posts[0].id })
      }), { rateLimit: { limit: 4, windowMs: 400 } }
    ), 30_000)

  it.live("outcomeOf answers from the network: happened with its result, not happened, never sent twice", () =>
    withDouble((double) =>
      Effect.gen(function*() {
        const network = yield* NetworkDriver
        const store = yield* Store.make
        const accountId = yield* signedIn("crash@x.io")
        const outcomeOf = network.outcomeOf
        if (outcomeOf === undefined) return assert.fail("the driver answers outcomeOf")
        assert.deepStrictEqual(yield* outcomeOf(accountId, "connect", "never-begun", 1), { _tag: "NotHappened" })
        const providerAccount = (yield* store.providerAccountOf(accountId)) ?? ""
        const client = new UnipileClient(double.dsn, apiKey)
        // A crash after the write reached the provider and before its answer was kept:
        const begun = Date.now()
        yield* store.begin({ key: "job-1", accountId, command: "connect", target: maria.providerId, body: "Hi", startedAtMs: begun })
        yield* Effect.promise(() => client.users.sendInvitation({ account_id: providerAccount, provider_id: maria.providerId, message: "Hi" }))
        const happened = yield* outcomeOf(accountId, "connect", "job-1", 1)
        assert.strictEqual(happened._tag, "Happened")
        assert.deepInclude(happened._tag === "Happened" ? happened.result : {}, { note: "Hi", status: "pending" })
        yield* store.begin({ key: "job-2", accountId, command: "send_message", target: tomas.providerId, body: "Lost?", startedAtMs: Date.now() })
        yield* Effect.promise(() => client.messaging.startNewChat({ account_id: providerAccount, attendees_ids: [tomas.providerId], text: "Lost?" }))
        assert.strictEqual((yield* outcomeOf(accountId, "send_message", "job-2", 1))._tag, "Happened")
        // A crash before the write reached the provider:
        yield* store.begin({ key: "job-3", accountId, command: "comment", target: posts[0].id, body: "Never sent", startedAtMs: Date.now() })
        assert.deepStrictEqual(yield* outcomeOf(accountId, "comment", "job-3", 1), { _tag: "NotHappened" })
        yield* store.begin({ key: "job-4", accountId, command: "create_post", target: "self", body: "Never posted", startedAtMs: Date.now() })
        assert.deepStrictEqual(yield* outcomeOf(accountId, "create_post", "job-4", 1), { _tag: "NotHappened" })
        // A finished write answers its kept result without asking the network.
        const done = yield* network.write(accountId, "react", { post: posts[0].id, reaction: "like" }, { key: "job-5", fence: 1 })
        const before = double.calls.length
        assert.deepStrictEqual(yield* outcomeOf(accountId, "react", "job-5", 1), { _tag: "Happened", result: done })
        assert.strictEqual(double.calls.length, before)
      })
    ))

  it.live("sync reports invitations accepted and messages received, each answering the service's message", () =>
    withDouble((double) =>
      Effect.gen(function*() {
        const network = yield* NetworkDriver
        const accountId = yield* signedIn("sync@x.io")
        const since = Date.now() - 1
        const invitation = yield* network.write(accountId, "connect", { person: maria.slug }, { key: crypto.randomUUID(), fence: 1 })
        const sent = yield* network.write(accountId, "send_message", { person: tomas.slug, text: "Coffee?" }, { key: crypto.randomUUID(), fence: 1 })
        const providerAccount = (yield* Effect.flatMap(Store.make, (store) => store.providerAccountOf(accountId))) ?? ""
        double.acceptInvitation(providerAccount, maria.providerId)
        yield* Effect.sleep("5 millis")
        const received = double.receiveMessage(providerAccount, tomas.providerId, "Sure, Tuesday")
        const result = yield* network.sync(accountId, since)
        assert.deepStrictEqual(result.invitations.map((one) => [one.invitationId, one.status]), [[invitation.invitationId, "accepted"]])
        assert.deepStrictEqual(result.messages.map((one) => [one.messageId, one.text, one.inReplyTo]), [[received.messageId, "Sure, Tuesday", sent.messageId]])
        const later = yield* network.sync(accountId, result.syncedUntil)
        assert.deepStrictEqual([later.invitations.length, later.messages.length], [0, 0])
      })
    ))
})
