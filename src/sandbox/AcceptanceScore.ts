/**
 * How likely the sandbox's made-up person is to accept an invitation, as a
 * score from 0 to 100: the sandbox's acceptance model (a better target is more
 * likely to accept), which drives its simulated answers (`Behaviour.ts`).
 *
 * It is not the service's invitation quality (`src/domain/InviteQuality.ts`,
 * the `minInviteQuality` gate), and the two stay apart on purpose: the gate is
 * the service's rule, the same on every network driver, and must not move when
 * the simulation is tuned; this score models what only the simulated people
 * "know" (relevance to a target, openness to work, the degree of the relation),
 * and changing it changes the sandbox's answers only.
 */
import type { Person } from "../domain/NetworkModels.ts"

/** What the invitation is for, to judge relevance; all optional. */
export interface InviteTarget {
  /** Words describing the people sought, matched against title, headline, industry and skills. */
  readonly keywords?: ReadonlyArray<string> | undefined
  /** Industries sought, matched against the person's industry. */
  readonly industries?: ReadonlyArray<string> | undefined
}

/** The score and its parts (each part's maximum in brackets in `acceptanceScore`'s JSDoc). */
export interface AcceptanceScore {
  readonly score: number
  readonly factors: {
    readonly completeness: number
    readonly activity: number
    readonly mutuals: number
    readonly degree: number
    readonly receptiveness: number
    readonly relevance: number
  }
  /** Why the score is not higher, in words (empty for a strong target). */
  readonly weaknesses: ReadonlyArray<string>
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value))

const relevanceOf = (person: Person, target: InviteTarget | undefined): number => {
  const keywords = (target?.keywords ?? []).map((k) => k.trim().toLowerCase()).filter((k) => k.length > 0)
  const wanted = (target?.industries ?? []).map((i) => i.toLowerCase())
  if (keywords.length === 0 && wanted.length === 0) return 5
  const text = [person.title, person.headline, person.industry, ...person.skills].join(" ").toLowerCase()
  const keywordHits = keywords.filter((k) => text.includes(k)).length
  const industryHit = wanted.some((i) => person.industry.toLowerCase().includes(i))
  const fromKeywords = keywords.length === 0 ? 0 : Math.round(7 * keywordHits / keywords.length)
  return clamp(fromKeywords + (industryHit ? (keywords.length === 0 ? 10 : 3) : 0), 0, 10)
}

/**
 * Scores an invitation to `person`, deterministically, from what the profile
 * shows (the relation to the account included):
 *
 * - completeness [20]: the network's profile completeness / 5 (photo, about,
 *   history, skills... a sparse profile is often abandoned);
 * - activity [20]: posts per month: none 3, up to 1 12, 1 to 4 20, more 16
 *   (prolific creators are swamped with invitations);
 * - mutuals [25]: shared connections: 0 → 0, 1-2 → 10, 3-9 → 17, 10-29 → 22, 30+ → 25;
 * - degree [10]: second degree 10, third 3;
 * - receptiveness [15]: connections (500+ 7, 300+ 5, 100+ 3, else 1), open to
 *   work +5, verified +2, premium +1, creator mode (Follow is the main button) -5;
 * - relevance [10]: match of the target's keywords (title, headline, industry,
 *   skills) and industries; 5 when no target is given.
 *
 * A first-degree connection scores 0: there is nothing to invite.
 */
export const acceptanceScore = (person: Person, target?: InviteTarget): AcceptanceScore => {
  if (person.connectionDegree === 1) {
    return {
      score: 0,
      factors: { completeness: 0, activity: 0, mutuals: 0, degree: 0, receptiveness: 0, relevance: 0 },
      weaknesses: ["already a connection"]
    }
  }
  const completeness = Math.round(person.signals.profileCompleteness / 5)
  const rate = person.recentActivity.postsPerMonth
  const activity = rate === 0 ? 3 : rate <= 1 ? 12 : rate <= 4 ? 20 : 16
  const m = person.mutualConnections
  const mutuals = m === 0 ? 0 : m <= 2 ? 10 : m <= 9 ? 17 : m <= 29 ? 22 : 25
  const degree = person.connectionDegree === 2 ? 10 : 3
  const network = { "500+": 7, "300-499": 5, "100-299": 3, "0-99": 1 }[person.connections]
  const receptiveness = clamp(
    network + (person.openToWork ? 5 : 0) + (person.signals.verified ? 2 : 0) + (person.premium ? 1 : 0) -
      (person.signals.creatorMode ? 5 : 0),
    0,
    15
  )
  const relevance = relevanceOf(person, target)
  const weaknesses = [
    ...(completeness < 12 ? ["sparse profile"] : []),
    ...(rate === 0 ? ["no recent activity"] : []),
    ...(m === 0 ? ["no mutual connections"] : []),
    ...(person.connectionDegree === 3 ? ["third-degree connection"] : []),
    ...(person.signals.creatorMode ? ["creator mode: follows are preferred to invitations"] : []),
    ...(relevance < 4 ? ["not relevant to the target"] : [])
  ]
  return {
    score: clamp(completeness + activity + mutuals + degree + receptiveness + relevance, 0, 100),
    factors: { completeness, activity, mutuals, degree, receptiveness, relevance },
    weaknesses
  }
}
