import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import { parsePostAddress, parseProfileAddress } from "../../src/sandbox/Addresses.ts"
import { catalogue } from "../../src/sandbox/Companies.ts"
import { chatIdOf } from "../../src/sandbox/Ids.ts"
import { getConversation, listChats } from "../../src/sandbox/SandboxInbox.ts"
import { receivedInvitations } from "../../src/sandbox/Invites.ts"
import { postAt, postsOfCompany, postsOfPerson } from "../../src/sandbox/Posts.ts"
import { memberFrom, personAt } from "../../src/sandbox/SandboxPeople.ts"
import { rng } from "../../src/sandbox/Random.ts"
import { searchCompanies, searchPeople } from "../../src/sandbox/Search.ts"
import { ssiOf } from "../../src/sandbox/Ssi.ts"
import { profileViewers } from "../../src/sandbox/Viewers.ts"

const DAY = 86_400_000
const now = Date.UTC(2026, 10, 21, 9, 30)

describe("search_people", () => {
  it("finds people matching the filters, who are the same people get_profile returns", () => {
    const page = Result.getOrThrow(searchPeople({ keywords: "sales director", location: "Berlin" }, "account-1", { limit: 25 }))
    assert.strictEqual(page.items.length, 25)
    assert.isAbove(page.total, 25)
    for (const item of page.items) {
      const person = personAt(Result.getOrThrow(parseProfileAddress(item.profileUrl)), { account: "account-1", now })
      assert.strictEqual(person.title, "Regional Sales Director")
      assert.strictEqual(person.location, "Berlin, Berlin, Germany")
      assert.strictEqual(person.name, item.name)
      assert.strictEqual(person.connectionDegree, item.connectionDegree)
    }
  })

  it("pages deterministically with cursors and caps browsing at 1,000", () => {
    const query = { industry: "Software Development" }
    const first = Result.getOrThrow(searchPeople(query, "account-1", {}))
    assert.deepStrictEqual(Result.getOrThrow(searchPeople(query, "account-1", {})), first)
    assert.strictEqual(first.items.length, 10)
    const second = Result.getOrThrow(searchPeople(query, "account-1", { cursor: first.cursor }))
    assert.notDeepEqual(second.items[0], first.items[0])
    const last = Result.getOrThrow(searchPeople(query, "account-1", { cursor: second.cursor, limit: 100 }))
    assert.isAbove(first.total, 1000)
    let cursor = last.cursor
    let pages = 0
    while (cursor !== null && pages < 20) {
      cursor = Result.getOrThrow(searchPeople(query, "account-1", { cursor, limit: 100 })).cursor
      pages++
    }
    assert.isNull(cursor)
    assert.isTrue(Result.isFailure(searchPeople(query, "account-1", { cursor: "nonsense" })))
    assert.isTrue(Result.isFailure(searchPeople(query, "account-1", { limit: 0 })))
  })

  it("honours a degree filter and reports nothing for an impossible one", () => {
    const page = Result.getOrThrow(searchPeople({ title: "engineer", connectionDegree: [1] }, "account-1", { limit: 20 }))
    assert.isTrue(page.items.every((p) => p.connectionDegree === 1))
    const none = Result.getOrThrow(searchPeople({ location: "Atlantis" }, "account-1", {}))
    assert.deepStrictEqual(none, { items: [], total: 0, cursor: null })
  })
})

describe("search_companies", () => {
  it("filters the catalogue and names small companies after unknown keywords", () => {
    const banks = Result.getOrThrow(searchCompanies({ industry: "Banking" }, { limit: 100 }))
    assert.isAbove(banks.total, 0)
    assert.isTrue(banks.items.every((c) => c.industry === "Banking"))
    assert.strictEqual(banks.total, catalogue.filter((c) => c.industry === "Banking").length)
    const acme = Result.getOrThrow(searchCompanies({ keywords: "acme" }, {}))
    assert.isTrue(acme.items.length >= 2 && acme.items.every((c) => c.name.startsWith("Acme ")))
  })
})

describe("posts", () => {
  const active = Array.from({ length: 300 }, (_, i) => memberFrom(rng("posting", i)))
    .find((ref) => personAt(ref, { account: "a", now }).recentActivity.postsPerMonth >= 3)

  it("lists a person's posts newest first, consistent with the profile and with get_post", () => {
    assert.isDefined(active)
    if (active === undefined) return
    const page = Result.getOrThrow(postsOfPerson(active, now, { limit: 5 }))
    assert.isAbove(page.total, 5)
    const person = personAt(active, { account: "a", now })
    assert.strictEqual(page.items[0].publishedAt, person.recentActivity.lastPostAt)
    for (let i = 1; i < page.items.length; i++) assert.isTrue(page.items[i].publishedAt < page.items[i - 1].publishedAt)
    for (const post of page.items) {
      assert.strictEqual(post.author.id, active.providerId)
      assert.deepStrictEqual(postAt(Result.getOrThrow(parsePostAddress(post.url)), now), post)
      const byUrn = postAt(Result.getOrThrow(parsePostAddress(post.urn)), now)
      assert.strictEqual(byUrn.text, post.text)
      assert.strictEqual(byUrn.publishedAt, post.publishedAt)
    }
  })

  it("grows engagement after publication and keeps old posts in place", () => {
    assert.isDefined(active)
    if (active === undefined) return
    const post = Result.getOrThrow(postsOfPerson(active, now, { limit: 1 })).items[0]
    const published = Date.parse(post.publishedAt)
    const early = postAt(Result.getOrThrow(parsePostAddress(post.url)), published + 60_000)
    const late = postAt(Result.getOrThrow(parsePostAddress(post.url)), published + 10 * DAY)
    assert.isAtMost(early.reactions, late.reactions)
    const later = Result.getOrThrow(postsOfPerson(active, now + 30 * DAY, { limit: 100 }))
    assert.isTrue(later.items.some((p) => p.id === post.id))
  })

  it("lists a company's posts", () => {
    const page = Result.getOrThrow(postsOfCompany(catalogue[3], now, {}))
    assert.isAbove(page.total, 0)
    assert.isTrue(page.items.every((p) => p.author.kind === "company" && p.author.id === catalogue[3].id))
  })
})

describe("inbox", () => {
  it("lists chats whose conversations hold messages both ways, all before now", () => {
    const chats = Result.getOrThrow(listChats("account-1", now, { limit: 100 }))
    assert.isAbove(chats.total, 5)
    const directions = new Set<string>()
    for (const chat of chats.items) {
      const conversation = Result.getOrThrow(getConversation("account-1", chat.id, now))
      assert.deepStrictEqual(conversation.messages[conversation.messages.length - 1], chat.lastMessage)
      for (const message of conversation.messages) {
        directions.add(message.direction)
        assert.isBelow(Date.parse(message.sentAt), now)
        assert.strictEqual(message.senderProviderId, message.direction === "received" ? chat.attendee.providerId : null)
      }
    }
    assert.deepStrictEqual([...directions].sort(), ["received", "sent"])
    assert.deepStrictEqual(Result.getOrThrow(listChats("account-1", now, { limit: 100 })), chats)
    assert.notDeepEqual(Result.getOrThrow(listChats("account-2", now, { limit: 100 })), chats)
  })

  it("answers an empty conversation for a new person and refuses a made-up chat id", () => {
    const ref = Result.getOrThrow(parseProfileAddress("anna-weber"))
    const chats = Result.getOrThrow(listChats("account-1", now, { limit: 100 }))
    const fresh = chats.items.find((c) => c.attendee.providerId === ref.providerId)
    assert.isUndefined(fresh)
    const conversation = Result.getOrThrow(getConversation("account-1", chatIdOf(ref.providerId), now))
    assert.deepStrictEqual(conversation.messages, [])
    assert.strictEqual(conversation.attendee.name, "Anna Weber")
    const failure = getConversation("account-1", "not-a-chat", now)
    assert.isTrue(Result.isFailure(failure) && failure.failure._tag === "UnknownChat")
  })
})

describe("viewers, invitations and SSI", () => {
  it("lists profile viewers of the last 90 days, some private", () => {
    const viewers = Result.getOrThrow(profileViewers("account-1", now, { limit: 100 }))
    assert.isAbove(viewers.total, 20)
    const all = Result.getOrThrow(profileViewers("account-1", now, { limit: 100, cursor: null }))
    assert.deepStrictEqual(all, viewers)
    assert.isTrue(viewers.items.every((v) => Date.parse(v.viewedAt) < now && Date.parse(v.viewedAt) >= now - 90 * DAY))
    assert.isTrue(viewers.items.some((v) => v.viewer === null && v.obscuredAs !== null))
    assert.isTrue(viewers.items.some((v) => v.viewer !== null && v.obscuredAs === null))
  })

  it("lists received invitations", () => {
    const invitations = Result.getOrThrow(receivedInvitations("account-1", now, { limit: 100 }))
    assert.isAbove(invitations.total, 0)
    assert.isTrue(invitations.items.every((i) => i.id.startsWith("inv-") && Date.parse(i.sentAt) < now))
  })

  it("computes the SSI as four pillars of 0 to 25 that drift slowly", () => {
    for (let i = 0; i < 200; i++) {
      const ssi = ssiOf(`account-${i}`, now)
      const pillars = Object.values(ssi.pillars)
      assert.isTrue(pillars.every((p) => p >= 0 && p <= 25))
      assert.closeTo(ssi.score, pillars.reduce((a, b) => a + b, 0), 0.011)
      assert.isTrue(ssi.industry.topPercent >= 1 && ssi.industry.topPercent <= 100)
      const tomorrow = ssiOf(`account-${i}`, now + DAY)
      assert.isBelow(Math.abs(tomorrow.score - ssi.score), 6)
    }
    assert.deepStrictEqual(ssiOf("account-1", now), ssiOf("account-1", now + 3_600_000))
  })
})
