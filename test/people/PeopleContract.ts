/**
 * What `People` (and `PersonTouches`, where a person enters) promise their callers, run against the
 * stored people (`PeopleStored.test.ts`, the core on a database) and against the in-memory ones the
 * fast route tests use (`PeopleMemory.test.ts`): the same expectations, so the fake cannot drift from
 * the service it stands in for. People enter as the service's own writes make them enter: touched
 * (as the Executor, a job's ending and syncing touch them), with the workspace's accounts made and
 * the messages people sent them recorded as syncing records them. Instants are the touches' own.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Invalid, Missing } from "../../src/domain/Failures.ts"
import type { TriageResult } from "../../src/domain/TriageClass.ts"
import { nextOf } from "../../src/http/ServiceErrors.ts"
import type { InboundMessage, SyncedInvitation } from "../../src/network/Sync.ts"
import { People, type PersonFacts, PersonTouches } from "../../src/people/People.ts"
import { rng } from "../../src/sandbox/Random.ts"
import { memberFrom } from "../../src/sandbox/SandboxPeople.ts"
import type { Backend, TwoWorkspaces } from "../support/Backends.ts"

/** The two workspaces, and how the records people's history is read from are made on the backend. */
export interface PeopleFixture extends TwoWorkspaces {
  /** A new account of the workspace with this label; its id. */
  readonly account: (workspaceId: string, label: string) => Effect.Effect<string>
  /** A message a person sent the account, recorded as syncing records it; false when it was recorded before. */
  readonly received: (accountId: string, message: InboundMessage, triaged: TriageResult) => Effect.Effect<boolean>
  /** An invitation the account sent, recorded as syncing records it. */
  readonly synced: (accountId: string, invitation: SyncedInvitation) => Effect.Effect<void>
}

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 9, minutes)).toISOString()

/** A made-up member of the sandbox network (whose addresses the `profile` filter reads), as a touch knows them. */
const member = (salt: string, i: number, known: Omit<PersonFacts, "providerId" | "profileUrl">): PersonFacts => {
  const ref = memberFrom(rng(salt, i))
  return { providerId: ref.providerId, profileUrl: ref.profileUrl, ...known }
}

const everyone = { limit: 100 }

/** Two seats of the workspace (Ada and Grace), one of the other workspace, and María, a person the workspace touched. */
const seatsAndMaria = (fixture: PeopleFixture, salt: string) =>
  Effect.gen(function*() {
    const ada = yield* fixture.account(fixture.workspaceId, "Ada")
    const grace = yield* fixture.account(fixture.workspaceId, "Grace")
    const stranger = yield* fixture.account(fixture.otherWorkspaceId, "Stranger")
    const maria = member(salt, 0, { name: "María García" })
    const id = (yield* (yield* PersonTouches).touch(fixture.workspaceId, maria, at(0))) ?? ""
    return { ada, grace, stranger, maria, id }
  })

export const peopleExpectations = <R>(backend: Backend<R, People | PersonTouches, PeopleFixture>) =>
  layer(backend.services)(`People (${backend.name})`, (it) => {
    it.effect("a person is one per workspace and network identifier; what is known only grows, activity widens to each touch", () =>
      backend.withFixture(({ workspaceId, otherWorkspaceId }) =>
        Effect.gen(function*() {
          const touches = yield* PersonTouches
          const people = yield* People
          const maria = member("people-touch", 0, { name: "María García", headline: "VP of Sales", company: "Harborview" })
          const id = yield* touches.touch(workspaceId, maria, at(10))
          assert.isString(id)
          // Known only by the identifier (syncing): the same person, earlier; a company learnt, the name kept.
          assert.strictEqual(yield* touches.touch(workspaceId, { providerId: maria.providerId, profileUrl: null, company: "Northwind" }, at(5)), id)
          // The identifier alone adds no one.
          assert.isUndefined(yield* touches.touch(workspaceId, { providerId: "ACoAAunknown", profileUrl: null, name: "Nobody" }, at(6)))
          const { person, timeline } = yield* people.get(workspaceId, id ?? "")
          assert.deepStrictEqual(person, {
            id: id ?? "",
            providerId: maria.providerId,
            profileUrl: maria.profileUrl ?? "",
            name: "María García",
            headline: "VP of Sales",
            company: "Northwind",
            firstSeenAt: at(5),
            lastActivityAt: at(10),
            accounts: []
          })
          assert.deepStrictEqual(timeline, [])
          // Its id in capitals is the same uuid.
          assert.deepStrictEqual((yield* people.get(workspaceId, (id ?? "").toUpperCase())).person, person)
          assert.deepStrictEqual((yield* people.list(workspaceId, everyone)).people, [person])

          // Another workspace's touch of the same person is another person, which this workspace never sees.
          const elsewhere = yield* touches.touch(otherWorkspaceId, maria, at(20))
          assert.notStrictEqual(elsewhere, id)
          const foreign = yield* Effect.flip(people.get(workspaceId, elsewhere ?? ""))
          assert.instanceOf(foreign, Missing)
          assert.strictEqual(foreign.message, `No person ${elsewhere} in this workspace.`)
          assert.strictEqual(nextOf(foreign.advice), "Search the workspace's people with GET /v1/people.")
          assert.instanceOf(yield* Effect.flip(people.get(workspaceId, crypto.randomUUID())), Missing)
          assert.deepStrictEqual((yield* people.list(workspaceId, everyone)).people.map((p) => p.id), [id])
          assert.deepStrictEqual((yield* people.list(otherWorkspaceId, everyone)).people.map((p) => p.id), [elsewhere])
        })))

    it.effect("people are listed latest activity first (then by id), a page at a time, each once", () =>
      backend.withFixture(({ workspaceId }) =>
        Effect.gen(function*() {
          const touches = yield* PersonTouches
          const people = yield* People
          // Two at one instant: the id decides between them, and a page may end between them.
          for (const [i, minutes] of [3, 1, 4, 4, 2, 5, 0].entries()) {
            yield* touches.touch(workspaceId, member("people-pages", i, { name: `Person ${i}` }), at(minutes))
          }
          const all = (yield* people.list(workspaceId, everyone))
          assert.strictEqual(all.people.length, 7)
          assert.isNull(all.nextCursor)
          const order = all.people.map((p) => [Date.parse(p.lastActivityAt), p.id] as const)
          assert.deepStrictEqual(order, [...order].sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? 1 : -1)))
          assert.deepStrictEqual(all.people.map((p) => p.lastActivityAt), [5, 4, 4, 3, 2, 1, 0].map(at))
          for (const limit of [1, 2, 3]) {
            const walked: Array<string> = []
            let cursor: string | undefined
            let pages = 0
            do {
              const page = yield* people.list(workspaceId, { limit, ...(cursor === undefined ? {} : { cursor }) })
              assert.isAtMost(page.people.length, limit)
              walked.push(...page.people.map((p) => p.id))
              cursor = page.nextCursor ?? undefined
              pages++
            } while (cursor !== undefined)
            assert.deepStrictEqual(walked, all.people.map((p) => p.id), `limit ${limit}`)
            assert.strictEqual(pages, Math.ceil(7 / limit))
          }
        })))

    it.effect("q matches every word in the name, headline, company or address; company and profile (any form) narrow too", () =>
      backend.withFixture(({ workspaceId }) =>
        Effect.gen(function*() {
          const touches = yield* PersonTouches
          const people = yield* People
          const maria = member("people-filters", 0, { name: "María García", headline: "VP of Sales", company: "Harborview Analytics" })
          const jon = member("people-filters", 1, { name: "Jon Harbor", headline: "Engineer", company: "Northwind" })
          const anon = member("people-filters", 2, {})
          for (const [i, person] of [maria, jon, anon].entries()) yield* touches.touch(workspaceId, person, at(i))
          const found = (search: Omit<Parameters<typeof people.list>[1], "limit">) =>
            Effect.map(people.list(workspaceId, { ...search, limit: 100 }), (page) => page.people.map((p) => p.name))
          assert.deepStrictEqual(yield* found({ q: "GARCÍA" }), ["María García"])
          assert.deepStrictEqual(yield* found({ q: "harbor" }), ["Jon Harbor", "María García"])
          assert.deepStrictEqual(yield* found({ q: "harbor sales" }), ["María García"])
          assert.deepStrictEqual(yield* found({ q: "  harbor   engineer " }), ["Jon Harbor"])
          assert.deepStrictEqual(yield* found({ q: "harbor zzqx" }), [])
          // The address is searched too, and a person known by nothing else is found by it.
          const slug = (anon.profileUrl ?? "").split("/in/")[1]?.replace(/\/$/u, "") ?? ""
          assert.deepStrictEqual(yield* found({ q: slug }), [null])
          assert.deepStrictEqual(yield* found({ company: "north" }), ["Jon Harbor"])
          assert.deepStrictEqual(yield* found({ company: "harbor", q: "engineer" }), [])
          assert.deepStrictEqual(yield* found({ company: "harbor", q: "maría" }), ["María García"])
          // The profile filter names exactly one person, whatever form of the address.
          const address = maria.profileUrl ?? ""
          for (const profile of [address, address.replace(/^https:\/\//u, ""), maria.providerId]) {
            assert.deepStrictEqual(yield* found({ profile }), ["María García"], profile)
          }
          assert.deepStrictEqual(yield* found({ profile: address, q: "jon" }), [])
          const nobody = yield* Effect.flip(found({ profile: "not an address" }))
          assert.instanceOf(nobody, Invalid)
          assert.match(nobody.message, /^query\.profile: /u)
          assert.isAbove(nextOf(nobody.advice).length, 0)
        })))

    it.effect("a cursor this API did not give out is refused, saying where paging starts", () =>
      backend.withFixture(({ workspaceId }) =>
        Effect.gen(function*() {
          const people = yield* People
          for (const cursor of ["nonsense", Buffer.from("person:yesterday:someone").toString("base64url"), Buffer.from(`job:${at(1)}:${crypto.randomUUID()}`).toString("base64url")]) {
            const refused = yield* Effect.flip(people.list(workspaceId, { cursor, limit: 10 }))
            assert.instanceOf(refused, Invalid)
            assert.strictEqual(refused.message, "query.cursor: the cursor is not one this API gave out.")
            assert.include(nextOf(refused.advice), "the latest activity")
          }
        })))

    it.effect("the messages a person sent the workspace's accounts are in their record and timeline; other workspaces' are not", () =>
      backend.withFixture((fixture) =>
        Effect.gen(function*() {
          const people = yield* People
          const { ada, grace, stranger, maria, id } = yield* seatsAndMaria(fixture, "people-history")
          const received = fixture.received
          yield* (yield* PersonTouches).touch(fixture.workspaceId, member("people-history", 1, { name: "Jon Harbor" }), at(1))
          const message = (messageId: string, minutes: number, text: string): InboundMessage => ({
            chatId: `chat-${messageId}`,
            messageId,
            senderProviderId: maria.providerId,
            text,
            sentAt: at(minutes),
            inReplyTo: null
          })
          const meeting: TriageResult = { class: "meeting", suggestedReply: "Tuesday works.", confidence: 0.95 }
          const unsure: TriageResult = { class: "other", suggestedReply: "Thanks!", confidence: 0.4 }
          assert.isTrue(yield* received(ada, message("m1", 2, "Does Tuesday work?"), meeting))
          assert.isFalse(yield* received(ada, message("m1", 2, "Does Tuesday work?"), meeting))
          assert.isTrue(yield* received(grace, message("m2", 3, "Thanks"), unsure))
          assert.isTrue(yield* received(ada, message("m3", 4, "See you then"), unsure))
          assert.isTrue(yield* received(stranger, message("m4", 5, "Not yours"), meeting))

          const { person, timeline } = yield* people.get(fixture.workspaceId, id)
          assert.deepStrictEqual(timeline.map((entry) => [entry.kind, entry.at, entry.accountId]), [
            ["message_received", at(4), ada],
            ["message_received", at(3), grace],
            ["message_received", at(2), ada]
          ])
          assert.deepStrictEqual(timeline[2], {
            kind: "message_received",
            at: at(2),
            accountId: ada,
            accountLabel: "Ada",
            chatId: "chat-m1",
            messageId: "m1",
            text: "Does Tuesday work?",
            triage: { class: "meeting", suggestedReply: "Tuesday works.", confidence: 0.95, unsure: false }
          })
          assert.deepInclude(timeline[1], { triage: { class: "other", suggestedReply: "Thanks!", confidence: 0.4, unsure: true } })
          const messaged = { relationship: "messaged", invitation: null, messagesSent: 0 } as const
          assert.deepStrictEqual(person.accounts, [
            { accountId: ada, label: "Ada", ...messaged, messagesReceived: 2, lastActivityAt: at(4) },
            { accountId: grace, label: "Grace", ...messaged, messagesReceived: 1, lastActivityAt: at(3) }
          ])
          // The list shows each person's accounts as their record does; someone who wrote to no one has none.
          const listed = (yield* people.list(fixture.workspaceId, everyone)).people
          assert.deepStrictEqual(listed.find((p) => p.id === id), person)
          assert.deepStrictEqual(listed.find((p) => p.id !== id)?.accounts, [])
        })))

    it.effect("the invitations the workspace's accounts sent a person, and their acceptance, are in the timeline; each account stands by its latest", () =>
      backend.withFixture((fixture) =>
        Effect.gen(function*() {
          const people = yield* People
          const { ada, grace, stranger, maria, id } = yield* seatsAndMaria(fixture, "people-invitations")
          const synced = fixture.synced
          const invitation = (invitationId: string, minutes: number): SyncedInvitation => ({
            invitationId,
            providerId: maria.providerId,
            note: null,
            status: "pending",
            sentAt: at(minutes),
            acceptedAt: null,
            resolvedAt: null
          })
          yield* synced(ada, { ...invitation("i1", 1), note: "Glad to connect" })
          yield* synced(grace, invitation("i2", 2))
          yield* synced(stranger, invitation("i3", 3))
          yield* synced(ada, { ...invitation("i1", 1), status: "accepted", acceptedAt: at(4), resolvedAt: at(4) })
          // A later sync that still sees it pending does not take the acceptance back.
          yield* synced(ada, invitation("i1", 1))

          const { person, timeline } = yield* people.get(fixture.workspaceId, id)
          assert.deepStrictEqual(timeline, [
            { kind: "invitation_accepted", at: at(4), accountId: ada, accountLabel: "Ada", invitationId: "i1" },
            {
              kind: "invitation",
              at: at(2),
              accountId: grace,
              accountLabel: "Grace",
              invitationId: "i2",
              status: "pending",
              source: "external",
              note: null,
              resolvedAt: null
            },
            {
              kind: "invitation",
              at: at(1),
              accountId: ada,
              accountLabel: "Ada",
              invitationId: "i1",
              status: "accepted",
              source: "external",
              note: "Glad to connect",
              resolvedAt: at(4)
            }
          ])
          const quiet = { messagesSent: 0, messagesReceived: 0 } as const
          assert.deepStrictEqual(person.accounts, [
            { accountId: ada, label: "Ada", relationship: "connected", invitation: "accepted", ...quiet, lastActivityAt: at(4) },
            { accountId: grace, label: "Grace", relationship: "invited", invitation: "pending", ...quiet, lastActivityAt: at(2) }
          ])
          // Grace's invitation withdrawn: she stands with the person as if she had never written.
          yield* synced(grace, { ...invitation("i2", 2), status: "withdrawn", resolvedAt: at(5) })
          const after = (yield* people.get(fixture.workspaceId, id)).person.accounts.find((seat) => seat.accountId === grace)
          assert.deepInclude(after, { relationship: "none", invitation: "withdrawn", lastActivityAt: at(2) })
        })))
  })
