import { assert, describe, it } from "@effect/vitest"
import {
  type HealthFacts,
  invitationsOf,
  isStale,
  networkOf,
  networkSizeOf,
  recommendationsOf,
  weakestPillar
} from "../../src/domain/HealthReport.ts"

const DAY = 86_400_000
const now = Date.parse("2026-11-22T12:00:00.000Z")

const healthy: HealthFacts = {
  status: "active",
  healthLevel: "green",
  healthReason: null,
  network: "medium",
  pending: 10,
  stale: 0,
  autoWithdrawDays: 21,
  sentLast30Days: 40,
  acceptedLast30Days: 20,
  minInviteQuality: 40,
  warmupDay: 14,
  warmupOf: 14,
  warmupFinishesOn: null,
  weeklyInvites: 100,
  weakestSsi: { name: "Engage with insights", score: 14.9 }
}

describe("the Health report's rules", () => {
  it("buckets the network at 500 and 3,000 connections", () => {
    assert.deepStrictEqual(
      [null, 0, 499, 500, 2_999, 3_000, 30_000].map(networkSizeOf),
      ["unknown", "small", "small", "medium", "medium", "large", "large"]
    )
    assert.include(networkOf(120).note, "Fewer than 500")
  })

  it("calls an invitation stale after 21 days, not on the day", () => {
    assert.isFalse(isStale(now - 21 * DAY, now))
    assert.isTrue(isStale(now - 21 * DAY - 1, now))
  })

  it("counts pending and stale invitations and proposes a cleanup only when some are stale", () => {
    const fresh = invitationsOf([{ sentAtMs: now - DAY }], null, now)
    assert.deepStrictEqual(fresh, { pending: 1, stale: 0, proposedCleanup: null })
    const old = invitationsOf(
      [{ sentAtMs: now - DAY }, { sentAtMs: now - 30 * DAY }, { sentAtMs: now - 25 * DAY }],
      null,
      now
    )
    assert.strictEqual(old.pending, 3)
    assert.strictEqual(old.stale, 2)
    assert.include(old.proposedCleanup ?? "", "Withdraw the 2 invitations pending more than 21 days (the oldest sent 2026-10-23)")
    assert.include(old.proposedCleanup ?? "", "settings.autoWithdrawDays")
    assert.include(invitationsOf([{ sentAtMs: now - 30 * DAY }], 21, now).proposedCleanup ?? "", "withdraws invitations pending more than 21 days by itself")
  })

  it("recommends nothing for a healthy, warmed-up account", () => {
    assert.deepStrictEqual(recommendationsOf(healthy), [])
  })

  it("derives each recommendation from its number", () => {
    const all = recommendationsOf({
      ...healthy,
      healthLevel: "yellow",
      healthReason: "many pending invitations",
      network: "small",
      pending: 250,
      stale: 40,
      autoWithdrawDays: null,
      sentLast30Days: 50,
      acceptedLast30Days: 5,
      minInviteQuality: 20,
      warmupDay: 5,
      warmupFinishesOn: "2026-12-01",
      weakestSsi: { name: "Build relationships", score: 6 }
    })
    assert.strictEqual(all.length, 7)
    assert.match(all[0], /^Health is yellow \(many pending invitations\): budgets run at half/)
    assert.match(all[1], /^40 of 250 pending invitations are older than 21 days: withdraw them, or set settings.autoWithdrawDays/)
    assert.match(all[2], /^Only 10% of the 50 invitations sent in the last 30 days were accepted: raise settings.minInviteQuality \(now 20\)/)
    assert.match(all[3], /^250 invitations are pending, more than twice the weekly limit of 100/)
    assert.match(all[4], /^Warm-up day 5 of 14: budgets grow each day until 2026-12-01/)
    assert.match(all[5], /^The network is small/)
    assert.match(all[6], /"Build relationships" \(6 of 25\)/)
  })

  it("does not judge the acceptance rate on fewer than 10 invitations", () => {
    assert.deepStrictEqual(recommendationsOf({ ...healthy, sentLast30Days: 9, acceptedLast30Days: 0 }), [])
  })

  it("finds the weakest SSI pillar", () => {
    assert.deepStrictEqual(
      weakestPillar({ establishBrand: 17.8, findRightPeople: 15.12, engageWithInsights: 14.9, buildRelationships: 19.6 }),
      { name: "Engage with insights", score: 14.9 }
    )
  })
})
