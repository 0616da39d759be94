/**
 * The account's Social Selling Index: four pillars of 0 to 25 (brand, finding
 * the right people, engaging with insights, building relationships) summing to
 * the score, and the account's rank in its industry and its network. Each
 * pillar has a seeded level per account and drifts slowly from day to day, as
 * the network recomputes the index daily.
 */
import type { Ssi } from "../domain/NetworkModels.ts"
import { rng } from "./Random.ts"
import { industries } from "./Roles.ts"
import { DAY, iso } from "./Timeline.ts"

const round2 = (value: number) => Math.round(value * 100) / 100
const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value))

const pillarOn = (accountSeed: string, pillar: string, day: number): number => {
  const level = rng("ssi-level", accountSeed, pillar)
  const base = level.float(6, 21)
  const phase = level.float(0, 2 * Math.PI)
  const period = level.float(20, 60)
  const noise = rng("ssi-noise", accountSeed, pillar, day).float(-0.4, 0.4)
  return round2(clamp(base + 2 * Math.sin((2 * Math.PI * day) / period + phase) + noise, 0, 25))
}

// Higher scores are rarer: a score of 70 is about the top 4%, 50 the top 15%, 20 the bottom.
const topPercentOf = (score: number, jitter: number): number =>
  clamp(Math.round(100 * Math.exp(-(score - 20 + jitter) / 16)), 1, 100)

/** The account's SSI as computed on the UTC day of `now`. */
export const ssiOf = (accountSeed: string, now: number): Ssi => {
  const day = Math.floor(now / DAY)
  const establishBrand = pillarOn(accountSeed, "brand", day)
  const findRightPeople = pillarOn(accountSeed, "people", day)
  const engageWithInsights = pillarOn(accountSeed, "insights", day)
  const buildRelationships = pillarOn(accountSeed, "relationships", day)
  const score = round2(establishBrand + findRightPeople + engageWithInsights + buildRelationships)
  const rank = rng("ssi-rank", accountSeed)
  return {
    score,
    pillars: { establishBrand, findRightPeople, engageWithInsights, buildRelationships },
    industry: { name: rank.pick(industries), topPercent: topPercentOf(score, rank.float(-4, 4)) },
    network: { topPercent: topPercentOf(score, rank.float(-6, 6)) },
    computedAt: iso(day * DAY)
  }
}
