/**
 * How simulated people respond, seeded per (account, person): whether and
 * when they accept an invitation, and whether, when and how they answer a
 * message. Pure functions: the driver decides when to look.
 */
import type { TriageClass } from "../domain/NetworkModels.ts"
import { profileOfProviderId } from "./Addresses.ts"
import { acceptanceScore } from "./AcceptanceScore.ts"
import { personAt, personTraits } from "./SandboxPeople.ts"
import { rng } from "./Random.ts"
import { replyText } from "./ReplyTexts.ts"

const MINUTE = 60
const HOUR = 3600
const DAY = 86_400

// The invitation quality score needs no instant; any fixed one gives the same score.
const SCORING_INSTANT = Date.UTC(2026, 0, 1)

/** Whether an invitation is accepted and, if so, how long after it was sent. */
export type InvitationOutcome =
  | { readonly accepts: true; readonly afterSeconds: number }
  | { readonly accepts: false; readonly afterSeconds: null }

/**
 * The probability that the person accepts an invitation from the account:
 * 6% plus up to 62% by the acceptance score (see `acceptanceScore`), plus 4 points
 * with a note. Over a typical mix of people this is about 30 to 45%, as
 * reported for cold B2B invitations.
 */
export const acceptanceProbability = (accountSeed: string, providerId: string, withNote = false): number => {
  const person = personAt(profileOfProviderId(providerId), { account: accountSeed, now: SCORING_INSTANT })
  const score = acceptanceScore(person).score
  return Math.min(0.9, 0.06 + 0.62 * (score / 100) + (withNote ? 0.04 : 0))
}

/**
 * The outcome of an invitation from the account to the person. Accepted
 * invitations are mostly accepted within 1 to 7 days (70%); 15% within the
 * first day, 15% after a week (up to 20 days, before the usual 21-day
 * withdrawal). Declined invitations are never reported by the network, so
 * they simply stay unanswered.
 */
export const invitationOutcome = (
  accountSeed: string,
  providerId: string,
  options?: { readonly withNote?: boolean | undefined }
): InvitationOutcome => {
  const random = rng("invitation", accountSeed, profileOfProviderId(providerId).providerId)
  if (!random.chance(acceptanceProbability(accountSeed, providerId, options?.withNote ?? false))) {
    return { accepts: false, afterSeconds: null }
  }
  const afterSeconds = random.weighted<() => number>([
    [() => random.int(10 * MINUTE, DAY - 1), 15],
    [() => random.int(DAY, 7 * DAY), 70],
    [() => random.int(7 * DAY + 1, 20 * DAY), 15]
  ])()
  return { accepts: true, afterSeconds }
}

/** A reply: how long after the message it comes, its triage class and its text. */
export interface ReplyOutcome {
  readonly replies: true
  readonly afterSeconds: number
  readonly class: TriageClass
  readonly text: string
}

/** The mix of reply classes across people (weights). Every class occurs. */
const classWeights: ReadonlyArray<readonly [TriageClass, number]> = [
  ["interested", 17],
  ["meeting", 13],
  ["referral", 8],
  ["not_now", 15],
  ["not_interested", 17],
  ["objection", 11],
  ["other", 19]
]

// Each later message in a sequence is answered less often than the first.
const followUpDecay = [1, 0.6, 0.45, 0.35, 0.25]

/**
 * The person's answer to the account's message number `messageIndex` (0 for
 * the first message in the conversation, 1 for the first follow-up...), or
 * null when they do not answer. About a third answer a first message;
 * follow-ups get fewer answers. Each person has a disposition (their usual
 * class) kept in 70% of replies. Out-of-office replies come within minutes
 * and can arrive for any message. `writtenAt` (epoch ms, when the message was
 * sent) lets an out-of-office reply name a date.
 */
export const replyOutcome = (
  accountSeed: string,
  providerId: string,
  messageIndex: number,
  options?: { readonly sentAt?: number | undefined }
): ReplyOutcome | null => {
  const canonical = profileOfProviderId(providerId)
  const person = rng("disposition", accountSeed, canonical.providerId)
  const responsiveness = person.float(0.1, 0.62)
  const disposition = person.weighted(classWeights)
  const random = rng("reply", accountSeed, canonical.providerId, messageIndex)
  const firstName = personTraits(canonical).name.firstName
  if (random.chance(0.05)) {
    const afterSeconds = random.int(5, 15 * MINUTE)
    const writtenAt = options?.sentAt === undefined ? undefined : options.sentAt + afterSeconds * 1000
    return {
      replies: true,
      afterSeconds,
      class: "out_of_office",
      text: replyText("out_of_office", random, { firstName, writtenAt })
    }
  }
  const decay = followUpDecay[Math.min(Math.max(0, Math.floor(messageIndex)), followUpDecay.length - 1)]
  if (!random.chance(responsiveness * decay)) return null
  const triageClass = random.chance(0.7) ? disposition : random.weighted(classWeights)
  const afterSeconds = random.weighted<() => number>([
    [() => random.int(2 * MINUTE, 2 * HOUR), 40],
    [() => random.int(2 * HOUR, DAY), 35],
    [() => random.int(DAY, 5 * DAY), 25]
  ])()
  const writtenAt = options?.sentAt === undefined ? undefined : options.sentAt + afterSeconds * 1000
  return { replies: true, afterSeconds, class: triageClass, text: replyText(triageClass, random, { firstName, writtenAt }) }
}
