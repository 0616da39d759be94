import { assert, describe, it } from "@effect/vitest"
import type { Person, TriageClass } from "../../src/domain/NetworkModels.ts"
import { invitationOutcome, replyOutcome } from "../../src/sandbox/Behaviour.ts"
import { acceptanceScore } from "../../src/sandbox/AcceptanceScore.ts"
import { memberFrom, personAt } from "../../src/sandbox/SandboxPeople.ts"
import { rng } from "../../src/sandbox/Random.ts"
import { templateCount } from "../../src/sandbox/ReplyTexts.ts"

const DAY = 86_400
const now = Date.UTC(2026, 10, 21, 9, 30)
const population = Array.from({ length: 2000 }, (_, i) => memberFrom(rng("behaviour-population", i)))
const classes: ReadonlyArray<TriageClass> = [
  "interested",
  "meeting",
  "referral",
  "not_now",
  "not_interested",
  "objection",
  "out_of_office",
  "other"
]

describe("invitations", () => {
  it("are accepted at a realistic rate, mostly within one to seven days", () => {
    const outcomes = population.map((ref) => invitationOutcome("account-1", ref.providerId))
    const accepted = outcomes.flatMap((o) => (o.accepts ? [o.afterSeconds] : []))
    const rate = accepted.length / outcomes.length
    assert.isAbove(rate, 0.3)
    assert.isBelow(rate, 0.45)
    const withinWeek = accepted.filter((s) => s >= DAY && s <= 7 * DAY).length / accepted.length
    assert.isAbove(withinWeek, 0.6)
    assert.isTrue(accepted.every((s) => s > 0 && s <= 20 * DAY))
    assert.isTrue(outcomes.every((o) => o.accepts || o.afterSeconds === null))
  })

  it("are deterministic per account and person, and differ between accounts", () => {
    const ref = population[7]
    assert.deepStrictEqual(invitationOutcome("account-1", ref.providerId), invitationOutcome("account-1", ref.providerId))
    const a = population.map((r) => invitationOutcome("account-1", r.providerId).accepts)
    const b = population.map((r) => invitationOutcome("account-2", r.providerId).accepts)
    assert.isAbove(a.filter((accepts, i) => accepts !== b[i]).length, 100)
  })

  it("are accepted more often by better targets", () => {
    const scored = population.map((ref) => ({
      score: acceptanceScore(personAt(ref, { account: "account-1", now })).score,
      accepts: invitationOutcome("account-1", ref.providerId).accepts
    }))
    const rate = (list: ReadonlyArray<{ accepts: boolean }>) => list.filter((s) => s.accepts).length / list.length
    assert.isAbove(rate(scored.filter((s) => s.score >= 60)), rate(scored.filter((s) => s.score < 40)) + 0.1)
  })
})

describe("replies", () => {
  it("come from about a third of people, in every triage class, with text", () => {
    const replies = population.flatMap((ref) => {
      const reply = replyOutcome("account-1", ref.providerId, 0, { sentAt: now })
      return reply === null ? [] : [reply]
    })
    const rate = replies.length / population.length
    assert.isAbove(rate, 0.2)
    assert.isBelow(rate, 0.5)
    for (const triageClass of classes) {
      const ofClass = replies.filter((r) => r.class === triageClass)
      assert.isAbove(ofClass.length, 10, triageClass)
      assert.isAbove(new Set(ofClass.map((r) => r.text)).size, 2, triageClass)
      assert.isAtLeast(templateCount(triageClass, "plain"), 3)
      assert.isAtLeast(templateCount(triageClass, "informal"), 3)
    }
    // Most people write informally: lower case, no greeting, a few words.
    const lowerCase = replies.filter((r) => r.text === r.text.toLowerCase()).length / replies.length
    assert.isAbove(lowerCase, 0.25)
    assert.isTrue(replies.some((r) => /\p{Extended_Pictographic}/u.test(r.text)))
    for (const reply of replies) {
      assert.isAbove(reply.text.length, 0)
      assert.isAbove(reply.afterSeconds, 0)
      assert.isAtMost(reply.afterSeconds, 5 * DAY)
    }
    const outOfOffice = replies.filter((r) => r.class === "out_of_office")
    assert.isTrue(outOfOffice.every((r) => r.afterSeconds <= 900))
    assert.isTrue(outOfOffice.some((r) => /\d{1,2} (?:January|February|March|April|May|June|July|August|September|October|November|December)/.test(r.text)))
  })

  it("thin out over follow-ups and are deterministic", () => {
    const count = (index: number) =>
      population.filter((ref) => replyOutcome("account-1", ref.providerId, index) !== null).length
    assert.isBelow(count(2), count(0) * 0.8)
    const ref = population[3]
    assert.deepStrictEqual(replyOutcome("account-1", ref.providerId, 1, { sentAt: now }), replyOutcome("account-1", ref.providerId, 1, { sentAt: now }))
  })
})

describe("acceptanceScore", () => {
  const people = population.slice(0, 1000).map((ref) => personAt(ref, { account: "account-1", now }))

  it("stays within 0 to 100 and spreads across the range", () => {
    const scores = people.map((p) => acceptanceScore(p).score)
    assert.isTrue(scores.every((s) => Number.isInteger(s) && s >= 0 && s <= 100))
    assert.isBelow(Math.min(...scores), 30)
    assert.isAbove(Math.max(...scores), 75)
  })

  it("is 0 for a connection, and rises with mutual connections, degree and relevance", () => {
    const base: Person = people.find((p) => p.connectionDegree === 2) ?? people[0]
    assert.strictEqual(acceptanceScore({ ...base, connectionDegree: 1 }).score, 0)
    const none = acceptanceScore({ ...base, connectionDegree: 2, mutualConnections: 0 }).score
    const some = acceptanceScore({ ...base, connectionDegree: 2, mutualConnections: 5 }).score
    const many = acceptanceScore({ ...base, connectionDegree: 2, mutualConnections: 40 }).score
    assert.isTrue(none < some && some < many)
    assert.isAbove(
      acceptanceScore({ ...base, connectionDegree: 2 }).score,
      acceptanceScore({ ...base, connectionDegree: 3, mutualConnections: base.mutualConnections }).score
    )
    assert.isAbove(
      acceptanceScore(base, { keywords: [base.title] }).score,
      acceptanceScore(base, { keywords: ["underwater basket weaving"] }).score
    )
    assert.include(acceptanceScore({ ...base, mutualConnections: 0 }).weaknesses, "no mutual connections")
  })
})
