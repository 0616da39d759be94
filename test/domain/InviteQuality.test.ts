import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import { checkInviteQuality, inviteQuality } from "../../src/domain/InviteQuality.ts"
import { Person } from "../../src/domain/NetworkModels.ts"

const company = {
  id: "74474624",
  name: "Harborview Analytics",
  profileUrl: "https://www.linkedin.com/company/harborview-analytics"
}

/** A complete, active, well-connected profile. */
const strong: Person = {
  providerId: "ACoAAbWFyaWEtZ2FyY2lhLTNhOWYwMmMxYg",
  publicIdentifier: "maria-garcia-3a9f02c1b",
  profileUrl: "https://www.linkedin.com/in/maria-garcia-3a9f02c1b",
  firstName: "María",
  lastName: "García",
  name: "María García",
  headline: "VP of Sales at Harborview Analytics | B2B SaaS",
  company,
  title: "VP of Sales",
  location: "Madrid, Community of Madrid, Spain",
  industry: "Software Development",
  connectionDegree: 2,
  mutualConnections: 12,
  followers: 2140,
  connections: "500+",
  about: "I help revenue teams build predictable pipeline.",
  experience: [{
    title: "VP of Sales",
    company,
    location: "Madrid, Community of Madrid, Spain",
    startDate: "2022-03",
    endDate: null,
    description: null
  }],
  skills: ["B2B Sales", "Salesforce", "Negotiation"],
  recentActivity: { lastPostAt: "2026-11-18T08:12:00.000Z", postsPerMonth: 2.5 },
  openToWork: false,
  premium: true,
  signals: { hasPhoto: true, verified: true, creatorMode: false, profileCompleteness: 92 }
}

/** A photo-less shell: nothing filled in, nobody connected. */
const empty: Person = {
  ...strong,
  name: "J. Doe",
  headline: "",
  mutualConnections: 0,
  followers: 0,
  connections: "0-99",
  connectionDegree: 3,
  about: null,
  experience: [],
  skills: [],
  recentActivity: { lastPostAt: null, postsPerMonth: 0 },
  premium: false,
  signals: { hasPhoto: false, verified: false, creatorMode: false, profileCompleteness: 10 }
}

const scoreOf = (person: Person): number => inviteQuality(person).score
const withSignals = (signals: Partial<Person["signals"]>): Person => ({ ...strong, signals: { ...strong.signals, ...signals } })

describe("inviteQuality", () => {
  it("uses people the Person schema accepts", () => {
    const decode = Schema.decodeUnknownSync(Person)
    assert.deepStrictEqual(decode(strong), strong)
    assert.deepStrictEqual(decode(empty), empty)
  })

  it("scores a complete, active, well-connected profile high, with nothing held against it", () => {
    // photo 15 + completeness 18 + verified 10 + 500+ 15 + 12 mutuals 13 + 2.5 posts 10 + about 5 + current job 10
    assert.deepStrictEqual(inviteQuality(strong), { score: 96, reasons: [] })
    assert.isAtLeast(scoreOf(strong), 70)
  })

  it("scores an empty, photo-less, unconnected profile low and says why", () => {
    const { reasons, score } = inviteQuality(empty)
    assert.strictEqual(score, 2) // completeness 10% gives 2 points, nothing else
    assert.isBelow(score, 30)
    assert.deepStrictEqual(reasons, [
      "no profile photo",
      "profile only 10% complete",
      "identity not verified",
      "fewer than 100 connections",
      "no mutual connections",
      "no recent activity",
      "no About section",
      "no work history"
    ])
  })

  it("is deterministic", () => {
    assert.deepStrictEqual(inviteQuality(strong), inviteQuality({ ...strong }))
    assert.deepStrictEqual(inviteQuality(empty), inviteQuality(empty))
  })

  it("weighs the photo 15 and verification 10", () => {
    assert.strictEqual(scoreOf(strong) - scoreOf(withSignals({ hasPhoto: false })), 15)
    assert.strictEqual(scoreOf(strong) - scoreOf(withSignals({ verified: false })), 10)
    assert.include(inviteQuality(withSignals({ hasPhoto: false })).reasons, "no profile photo")
  })

  it("gives a fifth of the profile completeness, naming a completeness under 60%", () => {
    assert.strictEqual(scoreOf(withSignals({ profileCompleteness: 100 })) - scoreOf(withSignals({ profileCompleteness: 0 })), 20)
    assert.deepStrictEqual(inviteQuality(withSignals({ profileCompleteness: 60 })).reasons, [])
    assert.deepStrictEqual(inviteQuality(withSignals({ profileCompleteness: 59 })).reasons, ["profile only 59% complete"])
  })

  it("rates the network size by bucket", () => {
    const byBucket = (["0-99", "100-299", "300-499", "500+"] as const).map((connections) =>
      scoreOf({ ...strong, connections })
    )
    assert.deepStrictEqual(byBucket.map((score) => score - byBucket[0]), [0, 7, 11, 15])
  })

  it("rates mutual connections in bands", () => {
    const bands = [0, 1, 2, 3, 9, 10, 29, 30, 500].map((mutualConnections) => scoreOf({ ...strong, mutualConnections }))
    const base = bands[0]
    assert.deepStrictEqual(bands.map((score) => score - base), [0, 6, 6, 10, 10, 13, 13, 15, 15])
  })

  it("rates regular posters above silent and prolific ones", () => {
    const posting = (postsPerMonth: number, lastPostAt: string | null = "2026-01-05T10:00:00.000Z") =>
      scoreOf({ ...strong, recentActivity: { lastPostAt, postsPerMonth } })
    const silent = posting(0, null)
    assert.strictEqual(posting(0) - silent, 2)
    assert.strictEqual(posting(0.5) - silent, 6)
    assert.strictEqual(posting(1) - silent, 6)
    assert.strictEqual(posting(3) - silent, 10)
    assert.strictEqual(posting(20) - silent, 8)
    assert.include(inviteQuality({ ...strong, recentActivity: { lastPostAt: null, postsPerMonth: 0 } }).reasons, "no recent activity")
  })

  it("counts an About section only when it says something", () => {
    assert.strictEqual(scoreOf(strong) - scoreOf({ ...strong, about: null }), 5)
    assert.strictEqual(scoreOf(strong) - scoreOf({ ...strong, about: "   " }), 5)
  })

  it("rates work history: a current position above past ones only, above none", () => {
    const [current] = strong.experience
    const past = { ...current, endDate: "2024-06" }
    assert.strictEqual(scoreOf({ ...strong, experience: [past] }), scoreOf(strong) - 5)
    assert.strictEqual(scoreOf({ ...strong, experience: [] }), scoreOf(strong) - 10)
    assert.deepStrictEqual(inviteQuality({ ...strong, experience: [past] }).reasons, ["no current position"])
    assert.strictEqual(scoreOf({ ...strong, experience: [past, current] }), scoreOf(strong))
  })

  it("takes 10 points off a creator-mode profile", () => {
    const creator = withSignals({ creatorMode: true })
    assert.strictEqual(scoreOf(strong) - scoreOf(creator), 10)
    assert.deepStrictEqual(inviteQuality(creator).reasons, [
      "creator mode: the profile asks to be followed rather than invited"
    ])
  })

  it("never goes below 0 nor above 100", () => {
    const creatorShell = { ...empty, signals: { ...empty.signals, creatorMode: true, profileCompleteness: 0 } }
    assert.strictEqual(scoreOf(creatorShell), 0)
    const best: Person = {
      ...strong,
      mutualConnections: 100,
      recentActivity: { lastPostAt: "2026-01-05T10:00:00.000Z", postsPerMonth: 3 },
      signals: { ...strong.signals, profileCompleteness: 100 }
    }
    assert.strictEqual(scoreOf(best), 100)
  })

  it("scores a first-degree connection on its profile: the already-connected guardrail is elsewhere", () => {
    assert.strictEqual(scoreOf({ ...strong, connectionDegree: 1 }), scoreOf(strong))
  })
})

describe("checkInviteQuality", () => {
  it("lets a person through at or above the minimum", () => {
    assert.isNull(checkInviteQuality(strong, 30))
    assert.isNull(checkInviteQuality(strong, 96))
  })

  it("fails a person below the minimum with lowInviteQuality, the score, the reasons and what to do", () => {
    const failure = checkInviteQuality(empty, 30)
    if (failure === null) throw new Error("expected a failure")
    assert.strictEqual(failure.type, "lowInviteQuality")
    assert.strictEqual(failure.score, 2)
    assert.include(failure.message, "J. Doe scores 2")
    assert.include(failure.message, "minInviteQuality of 30")
    assert.include(failure.message, "no profile photo; profile only 10% complete")
    assert.include(failure.next, "minInviteQuality")
    assert.include(failure.next, "0 turns the check off")
  })

  it("fails a strong person only when the minimum is above their score", () => {
    const failure = checkInviteQuality(strong, 97)
    if (failure === null) throw new Error("expected a failure")
    assert.strictEqual(failure.score, 96)
    assert.notInclude(failure.message, "(")
  })

  it("is disabled by a minimum of 0", () => {
    assert.isNull(checkInviteQuality(empty, 0))
    assert.isNull(checkInviteQuality({ ...empty, signals: { ...empty.signals, profileCompleteness: 0 } }, 0))
  })
})
