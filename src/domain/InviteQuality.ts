/**
 * Invitation quality: a 0 to 100 score of how real a person's profile looks
 * and how likely an invitation to them is well received, and the per-account
 * `minInviteQuality` gate built on it (spec, Constants: 0 to 100, default 30,
 * 0 disables). Pure and deterministic: the score depends on the profile only,
 * never on the time it is computed.
 *
 * The sandbox has a score of its own, `src/sandbox/AcceptanceScore.ts`: how
 * likely its made-up people are to accept, which drives its simulated answers.
 * The two stay apart on purpose: this one is the service's rule, the same on
 * every network driver, and must not move when the simulation is tuned; the
 * sandbox's weighs what only its simulated people "know" (relevance to a
 * target, openness to work) and changes the sandbox's answers only.
 */
import type { Person } from "./NetworkModels.ts"
import type { JobFailure } from "./Job.ts"

/** A score and the reasons it is not higher (empty for a strong profile). */
export interface InviteQuality {
  readonly score: number
  readonly reasons: ReadonlyArray<string>
}

/** The points of one signal and, when it fell short, why. */
interface Part {
  readonly points: number
  readonly shortfall: string | null
}

const part = (points: number, shortfall: string | null): Part => ({ points, shortfall })

const photo = (person: Person): Part =>
  person.signals.hasPhoto ? part(15, null) : part(0, "no profile photo")

const completeness = (person: Person): Part => {
  const percent = person.signals.profileCompleteness
  return part(Math.round(percent / 5), percent < 60 ? `profile only ${percent}% complete` : null)
}

const verified = (person: Person): Part =>
  person.signals.verified ? part(10, null) : part(0, "identity not verified")

const networkSize = (person: Person): Part => {
  switch (person.connections) {
    case "500+":
      return part(15, null)
    case "300-499":
      return part(11, null)
    case "100-299":
      return part(7, null)
    case "0-99":
      return part(0, "fewer than 100 connections")
  }
}

const mutuals = (person: Person): Part => {
  const shared = person.mutualConnections
  if (shared === 0) return part(0, "no mutual connections")
  return part(shared <= 2 ? 6 : shared <= 9 ? 10 : shared <= 29 ? 13 : 15, null)
}

// Prolific posters are swamped with invitations, so the top band scores a little below regular posters.
const activity = (person: Person): Part => {
  const { lastPostAt, postsPerMonth } = person.recentActivity
  if (postsPerMonth === 0) return part(lastPostAt === null ? 0 : 2, "no recent activity")
  return part(postsPerMonth <= 1 ? 6 : postsPerMonth <= 4 ? 10 : 8, null)
}

const about = (person: Person): Part =>
  person.about !== null && person.about.trim().length > 0 ? part(5, null) : part(0, "no About section")

const experience = (person: Person): Part => {
  if (person.experience.length === 0) return part(0, "no work history")
  const current = person.experience.some((position) => position.endDate === null)
  return current ? part(10, null) : part(5, "no current position")
}

const creatorMode = (person: Person): Part =>
  person.signals.creatorMode ? part(-10, "creator mode: the profile asks to be followed rather than invited") : part(0, null)

/**
 * The invitation quality of `person`, an integer from 0 to 100: the sum of
 *
 * - photo [15]: a profile photo (photo-less profiles are often fake or abandoned);
 * - completeness [20]: the network's profile completeness / 5, rounded;
 * - verified [10]: identity verified on the network;
 * - network size [15]: connections 500+ 15, 300-499 11, 100-299 7, 0-99 0;
 * - mutual connections [15]: 0 → 0, 1-2 → 6, 3-9 → 10, 10-29 → 13, 30+ → 15;
 * - activity [10]: posts per month up to 1 → 6, up to 4 → 10, more → 8; none → 0
 *   (2 when an older post exists);
 * - About section [5]: present and not blank;
 * - experience [10]: a current position 10, only past positions 5, none 0;
 * - creator mode [-10]: the profile's main button is Follow, so invitations are less welcome;
 *
 * clamped to 0..100. `reasons` names each signal that held the score down, in
 * the order above. A first-degree connection is scored like anyone else:
 * inviting a connection is refused by its own guardrail, not by this score.
 */
export const inviteQuality = (person: Person): InviteQuality => {
  const parts = [
    photo(person),
    completeness(person),
    verified(person),
    networkSize(person),
    mutuals(person),
    activity(person),
    about(person),
    experience(person),
    creatorMode(person)
  ]
  const total = parts.reduce((sum, { points }) => sum + points, 0)
  return {
    score: Math.min(100, Math.max(0, Math.round(total))),
    reasons: parts.flatMap(({ shortfall }) => shortfall === null ? [] : [shortfall])
  }
}

/**
 * The `minInviteQuality` gate: a `lowInviteQuality` failure (carrying the
 * score) when `person` scores below `minInviteQuality`, otherwise null.
 * A minimum of 0 disables the gate.
 */
export const checkInviteQuality = (person: Person, minInviteQuality: number): JobFailure | null => {
  if (minInviteQuality <= 0) return null
  const { reasons, score } = inviteQuality(person)
  if (score >= minInviteQuality) return null
  const why = reasons.length === 0 ? "" : ` (${reasons.join("; ")})`
  return {
    type: "lowInviteQuality",
    message:
      `${person.name} scores ${score} for invitation quality${why}, below this account's minInviteQuality of ${minInviteQuality}, so no invitation was sent.`,
    next:
      "Invite a better-matched person (more mutual connections, a complete and active profile), or lower settings.minInviteQuality with PATCH /v1/accounts/{id} (0 turns the check off).",
    score
  }
}
