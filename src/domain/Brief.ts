/**
 * The rules of the Daily brief (`GET /v1/accounts/{id}/brief`), pure: the
 * order replies are read in, the opener suggested for a new connection, and
 * the one-line headline a person reads first. The endpoint gathers the facts;
 * this module decides what they say.
 */
import type { TriageClass } from "./TriageClass.ts"

/**
 * The order a person should answer replies in: those ready to talk first
 * (meeting, interested), then what still needs a human touch, auto-replies last.
 */
export const replyPriority: ReadonlyArray<TriageClass> = [
  "meeting",
  "interested",
  "referral",
  "objection",
  "not_now",
  "other",
  "not_interested",
  "out_of_office"
]

const rankOf = (triageClass: TriageClass): number => replyPriority.indexOf(triageClass)

/** A reply as the brief lists it. */
export interface BriefReply {
  readonly chatId: string
  readonly from: string | null
  readonly class: TriageClass
  readonly text: string | null
  readonly suggestedReply: string | null
  readonly receivedAt: string
  /** How sure triage was of the class; null for a reply recorded before confidence was. */
  readonly confidence: number | null
  /** The class is unsure (`isUnsure`): a person should read the reply. */
  readonly unsure: boolean
}

/** Replies in priority order; within a class the newest first. */
export const inPriorityOrder = <R extends Pick<BriefReply, "class" | "receivedAt">>(
  replies: ReadonlyArray<R>
): Array<R> =>
  [...replies].sort((a, b) => rankOf(a.class) - rankOf(b.class) || b.receivedAt.localeCompare(a.receivedAt))

/** A first message for someone who just accepted the account's invitation. */
export const suggestedOpener = (name: string | null, invitationNote: string | null): string => {
  const firstName = name?.trim().split(/\s+/)[0]
  const greeting = firstName === undefined || firstName === "" ? "Hi," : `Hi ${firstName},`
  return invitationNote === null
    ? `${greeting} thanks for connecting! I'd be glad to hear what you're focused on at the moment, and whether there's anything I can help with.`
    : `${greeting} thanks for accepting my invitation. As I mentioned, I'd like to compare notes: would a short call next week suit you?`
}

/** What the headline is made from. */
export interface HeadlineFacts {
  readonly status: string
  readonly replies: ReadonlyArray<Pick<BriefReply, "class" | "unsure">>
  readonly readyForFirstMessage: number
  readonly approvals: number
  readonly queued: number
  readonly openNow: boolean
  readonly nextOpening: string | null
  readonly hours: number
}

const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`

const holdingStatuses: Readonly<Record<string, string>> = {
  paused: "The account is paused, so no writes go out",
  stopped: "The service stopped the account after a health warning, so no writes go out",
  restricted: "The network restricted the account; it only reads for now",
  reconnect_required: "The account was signed out: reconnect it before anything else",
  connecting: "The account is not connected yet: finish the sign-in first"
}

/**
 * One sentence, most pressing first: a held account, then people ready to
 * talk, replies to read (and those triage is unsure of), new connections,
 * approvals waiting, and otherwise
 * what the queue is doing.
 */
export const headline = (facts: HeadlineFacts): string => {
  const parts: Array<string> = []
  const hold = holdingStatuses[facts.status]
  if (hold !== undefined) parts.push(hold)
  const hot = facts.replies.filter((r) => r.class === "meeting" || r.class === "interested").length
  const meetings = facts.replies.filter((r) => r.class === "meeting").length
  if (hot > 0) {
    parts.push(
      meetings > 0
        ? `${plural(hot, "person is", "people are")} ready to talk (${plural(meetings, "asks", "ask")} for a meeting): answer them first`
        : `${plural(hot, "person is", "people are")} interested: answer them first`
    )
  }
  const others = facts.replies.length - hot
  if (others > 0) parts.push(`${plural(others, "other reply", "other replies")} to read`)
  const unsure = facts.replies.filter((r) => r.unsure).length
  if (unsure > 0) {
    parts.push(`triage is unsure of ${plural(unsure, "reply", "replies")}: read ${unsure === 1 ? "it" : "them"} yourself`)
  }
  if (facts.readyForFirstMessage > 0) {
    parts.push(`${plural(facts.readyForFirstMessage, "new connection is", "new connections are")} ready for a first message`)
  }
  if (facts.approvals > 0) parts.push(`${plural(facts.approvals, "write waits", "writes wait")} for your approval`)
  if (parts.length === 0) {
    const window = facts.hours === 24 ? "the last day" : `the last ${plural(facts.hours, "hour", "hours")}`
    const queue = facts.queued === 0
      ? "the queue is empty"
      : facts.openNow || facts.nextOpening === null
      ? `${plural(facts.queued, "job is", "jobs are")} in the queue`
      : `${plural(facts.queued, "job waits", "jobs wait")} for the working hours at ${facts.nextOpening}`
    return `Nothing needs you: no replies in ${window}, and ${queue}.`
  }
  return parts.join("; ") + "."
}
