/**
 * The people routes' contract, fast: the service's own handlers (`http/PeopleHandlers.ts`) behind
 * the contract's middleware, called with the typed client in memory (`HttpApiTest`), on the
 * in-memory people (held to the stored ones by `test/people/PeopleContract.ts`), the sandbox's
 * addresses reading a `profile` filter. People enter as they do in the service, touched; the
 * workspace's accounts and the messages people sent them are seeded as syncing records them.
 * Each test checks status codes, the envelope and error types, bad input included.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { HttpApiTest } from "effect/http-api"
import { Api } from "../../src/api/Api.ts"
import { LIST_LIMIT_DEFAULT } from "../../src/api/JobsApi.ts"
import { PeopleHandlers } from "../../src/http/PeopleHandlers.ts"
import { type PersonFacts, PersonTouches } from "../../src/people/People.ts"
import * as PeopleMemory from "../../src/people/PeopleMemory.ts"
import { rng } from "../../src/sandbox/Random.ts"
import { memberFrom } from "../../src/sandbox/SandboxPeople.ts"
import { callerWorkspaceId } from "../support/AnyCaller.ts"
import { assertEnvelope, inMemory, read, sending } from "../support/RouteCalls.ts"
import { SandboxAddresses } from "../support/SandboxAddresses.ts"

const client = HttpApiTest.groups(Api, ["people"])

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 9, minutes)).toISOString()

const member = (salt: string, i: number, known: Omit<PersonFacts, "providerId" | "profileUrl">): PersonFacts => {
  const ref = memberFrom(rng(salt, i))
  return { providerId: ref.providerId, profileUrl: ref.profileUrl, ...known }
}

/** A person of the caller's workspace, touched at `minutes`; their id. */
const touched = (person: PersonFacts, minutes: number, workspaceId = callerWorkspaceId) =>
  Effect.flatMap(PersonTouches, (touches) => touches.touch(workspaceId, person, at(minutes))).pipe(
    Effect.map((id) => id ?? ""),
    Effect.orDie
  )

const notFoundNext = "Search the workspace's people with GET /v1/people."

layer(inMemory(PeopleHandlers.pipe(Layer.provideMerge(PeopleMemory.layer), Layer.provide(SandboxAddresses))))(
  "the people routes in memory",
  (it) => {
    it.effect("GET /v1/people answers 200 latest activity first, paged by cursor and limit, filtered by q, company and profile", () =>
      Effect.scoped(Effect.gen(function*() {
        const api = yield* client
        const maria = member("people-routes", 0, { name: "María García", headline: "VP of Sales", company: "Harborview" })
        const jon = member("people-routes", 1, { name: "Jon Harbor", company: "Northwind" })
        const mariaId = yield* touched(maria, 1)
        const jonId = yield* touched(jon, 2)
        const thirdId = yield* touched(member("people-routes", 2, { name: "Ines Quill" }), 3)
        // Another workspace's people are never listed.
        yield* touched(maria, 4, crypto.randomUUID())

        const [all, response] = yield* api.people.list({ query: {}, responseMode: "decoded-and-response" })
        assert.strictEqual(response.status, 200)
        assert.isTrue(all.ok)
        assert.deepStrictEqual(all.people.map((p) => p.id), [thirdId, jonId, mariaId])
        assert.isNull(all.nextCursor)
        assert.deepInclude(all.people[2], { name: "María García", company: "Harborview", firstSeenAt: at(1), accounts: [] })

        const first = yield* api.people.list({ query: { limit: 2 } })
        assert.deepStrictEqual(first.people.map((p) => p.id), [thirdId, jonId])
        assert.isString(first.nextCursor)
        const rest = yield* api.people.list({ query: { limit: 2, cursor: first.nextCursor ?? "" } })
        assert.deepStrictEqual(rest.people.map((p) => p.id), [mariaId])
        assert.isNull(rest.nextCursor)

        const named = (query: { readonly q?: string; readonly company?: string; readonly profile?: string }) =>
          Effect.map(api.people.list({ query }), (page) => page.people.map((p) => p.id))
        assert.deepStrictEqual(yield* named({ q: "harbor" }), [jonId, mariaId])
        assert.deepStrictEqual(yield* named({ q: "HARBOR sales" }), [mariaId])
        assert.deepStrictEqual(yield* named({ company: "north" }), [jonId])
        assert.deepStrictEqual(yield* named({ profile: (maria.profileUrl ?? "").replace("https://", "") }), [mariaId])
        assert.deepStrictEqual(yield* named({ q: "nobody-at-all" }), [])
      })))

    it.effect(`GET /v1/people pages ${LIST_LIMIT_DEFAULT} people by default`, () =>
      Effect.scoped(Effect.gen(function*() {
        const api = yield* client
        // The tests of this file share the caller's workspace: count who is there already.
        const before = (yield* api.people.list({ query: { limit: 200 } })).people.length
        for (let i = 0; i < LIST_LIMIT_DEFAULT + 1; i++) yield* touched(member("people-default", i, {}), 100 + i)
        const page = yield* api.people.list({ query: {} })
        assert.strictEqual(page.people.length, LIST_LIMIT_DEFAULT)
        assert.isString(page.nextCursor)
        assert.strictEqual((yield* api.people.list({ query: { limit: 200 } })).people.length, before + LIST_LIMIT_DEFAULT + 1)
      })))

    it.effect("GET /v1/people/{id} answers 200 with the person, their accounts and their timeline", () =>
      Effect.scoped(Effect.gen(function*() {
        const api = yield* client
        const seeds = yield* PeopleMemory.PeopleSeeds
        const ada = yield* seeds.account(callerWorkspaceId, "Ada")
        const person = member("people-routes-get", 0, { name: "María García" })
        const id = yield* touched(person, 1)
        yield* seeds.received(ada, {
          chatId: "chat-1",
          messageId: "m1",
          senderProviderId: person.providerId,
          text: "Does Tuesday work?",
          sentAt: at(2),
          inReplyTo: null
        }, { class: "meeting", suggestedReply: "Tuesday works.", confidence: 0.9 })
        const [found, response] = yield* api.people.get({ params: { id }, responseMode: "decoded-and-response" })
        assert.strictEqual(response.status, 200)
        assert.isTrue(found.ok)
        assert.strictEqual(found.person.id, id)
        assert.deepStrictEqual(found.person.accounts, [{
          accountId: ada,
          label: "Ada",
          relationship: "messaged",
          invitation: null,
          messagesSent: 0,
          messagesReceived: 1,
          lastActivityAt: at(2)
        }])
        assert.deepStrictEqual(found.timeline, [{
          kind: "message_received",
          at: at(2),
          accountId: ada,
          accountLabel: "Ada",
          chatId: "chat-1",
          messageId: "m1",
          text: "Does Tuesday work?",
          triage: { class: "meeting", suggestedReply: "Tuesday works.", confidence: 0.9, unsure: false }
        }])
      })))

    it.effect("an unknown person, or another workspace's, is 404 notFound", () =>
      Effect.scoped(Effect.gen(function*() {
        const api = yield* client
        const unknown = crypto.randomUUID()
        const error = assertEnvelope(yield* read(yield* api.people.get({ params: { id: unknown }, responseMode: "response-only" })), 404, "notFound")
        assert.strictEqual(error.message, `No person ${unknown} in this workspace.`)
        assert.strictEqual(error.next, notFoundNext)
        const foreign = yield* touched(member("people-routes-foreign", 0, { name: "Elsewhere" }), 1, crypto.randomUUID())
        const elsewhere = assertEnvelope(yield* read(yield* api.people.get({ params: { id: foreign }, responseMode: "response-only" })), 404, "notFound")
        assert.strictEqual(elsewhere.next, notFoundNext)
        assert.strictEqual((yield* Effect.flip(api.people.get({ params: { id: foreign } })))._tag, "NotFound")
      })))

    it.effect("a cursor this API did not give out, or a profile that names no one, is 422 unprocessable naming the parameter", () =>
      Effect.scoped(Effect.gen(function*() {
        const api = yield* client
        const foreign = yield* read(yield* api.people.list({ query: { cursor: "bm90LWEtY3Vyc29y" }, responseMode: "response-only" }))
        const cursor = assertEnvelope(foreign, 422, "unprocessable")
        assert.include(cursor.message, "query.cursor")
        assert.include(cursor.next, "the latest activity")
        const nobody = yield* read(yield* api.people.list({ query: { profile: "not an address" }, responseMode: "response-only" }))
        assert.include(assertEnvelope(nobody, 422, "unprocessable").message, "query.profile")
        assert.strictEqual((yield* Effect.flip(api.people.list({ query: { cursor: "bm90LWEtY3Vyc29y" } })))._tag, "Unprocessable")
      })))

    it.effect("a limit out of 1 to 200, an empty or long q, company or profile, an empty cursor, or an id that is not a uuid is 400", () =>
      Effect.scoped(Effect.gen(function*() {
        const api = yield* client
        const list = api.people.list({ query: {}, responseMode: "response-only" })
        const bad = [
          "limit=0",
          "limit=201",
          "limit=ten",
          "q=",
          `q=${"x".repeat(201)}`,
          "company=",
          `company=${"x".repeat(201)}`,
          "profile=",
          `profile=${"x".repeat(5000)}`,
          "cursor="
        ]
        for (const query of bad) {
          const error = assertEnvelope(yield* read(yield* list.pipe(sending({ path: `/v1/people?${query}` }))), 400, "badRequest")
          assert.include(error.message, `query.${query.split("=")[0]}`, query.slice(0, 40))
        }
        assert.strictEqual((yield* read(yield* list.pipe(sending({ path: "/v1/people?limit=200" })))).status, 200)
        const get = api.people.get({ params: { id: crypto.randomUUID() }, responseMode: "response-only" })
        const error = assertEnvelope(yield* read(yield* get.pipe(sending({ path: "/v1/people/not-a-person" }))), 400, "badRequest")
        assert.include(error.message, "id")
      })))
  }
)
