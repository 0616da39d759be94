/**
 * How the sandbox's people have answered what an account did, at an
 * instant: whether an invitation is accepted yet, which replies have arrived.
 * Computed from the stored actions and `Behaviour` (seeded, so the same
 * invitation is always accepted at the same moment), never stored, so that
 * moving the clock makes answers appear.
 */
import type { Message } from "../domain/NetworkModels.ts"
import type { SyncedInvitation } from "../network/Sync.ts"
import { invitationOutcome, replyOutcome } from "./Behaviour.ts"
import { hash32 } from "./Random.ts"
import { iso } from "./Timeline.ts"

/** An invitation an account sent through the sandbox. */
export interface SentInvitation {
  readonly id: string
  readonly accountId: string
  readonly providerId: string
  readonly note: string | null
  readonly sentAtMs: number
  readonly withdrawnAtMs: number | null
  /** When a test made the person accept it (`invitation_accepted`), overriding the behaviour model. */
  readonly forcedAcceptedAtMs: number | null
}

/** A message an account sent through the sandbox; `seq` counts the account's messages to the person from 0. */
export interface SentMessage {
  readonly id: string
  readonly accountId: string
  readonly providerId: string
  readonly chatId: string
  readonly seq: number
  readonly text: string
  readonly inmail: boolean
  readonly sentAtMs: number
}

/** How long after a withdrawal the network refuses a new invitation to the same person. */
export const RESEND_WAIT_MS = 21 * 86_400_000

/** When the invitation is (or will be) accepted, or null when never (declined, or withdrawn first). */
export const acceptedAtOf = (invitation: SentInvitation): number | null => {
  // Forced only while pending, so it is never later than the model's own acceptance.
  if (invitation.forcedAcceptedAtMs !== null) return invitation.forcedAcceptedAtMs
  const outcome = invitationOutcome(invitation.accountId, invitation.providerId, {
    withNote: invitation.note !== null
  })
  if (!outcome.accepts) return null
  const at = invitation.sentAtMs + outcome.afterSeconds * 1000
  return invitation.withdrawnAtMs !== null && invitation.withdrawnAtMs <= at ? null : at
}

/** The invitation as it stands at `now`. Declines are not reported by the network: they stay pending. */
export const invitationAt = (invitation: SentInvitation, now: number): SyncedInvitation => {
  const acceptedAt = acceptedAtOf(invitation)
  const base = {
    invitationId: invitation.id,
    providerId: invitation.providerId,
    note: invitation.note,
    sentAt: iso(invitation.sentAtMs)
  }
  if (acceptedAt !== null && acceptedAt <= now) {
    return { ...base, status: "accepted", acceptedAt: iso(acceptedAt), resolvedAt: iso(acceptedAt) }
  }
  if (invitation.withdrawnAtMs !== null && invitation.withdrawnAtMs <= now) {
    return { ...base, status: "withdrawn", acceptedAt: null, resolvedAt: iso(invitation.withdrawnAtMs) }
  }
  return { ...base, status: "pending", acceptedAt: null, resolvedAt: null }
}

/** The instant the invitation last changed as of `now`: its sending, acceptance or withdrawal. */
export const lastChangeAt = (invitation: SentInvitation, now: number): number => {
  const state = invitationAt(invitation, now)
  return state.resolvedAt === null ? invitation.sentAtMs : Date.parse(state.resolvedAt)
}

/** A person's answer to a message sent through the sandbox. */
export interface Reply {
  readonly message: Message
  readonly inReplyTo: string
}

const hex = (n: number) => n.toString(16).padStart(8, "0")

/** The person's reply to a sent message if it has arrived by `now`, else null. */
export const replyAt = (message: SentMessage, now: number): Reply | null => {
  const outcome = replyOutcome(message.accountId, message.providerId, message.seq, { sentAt: message.sentAtMs })
  if (outcome === null) return null
  const at = message.sentAtMs + outcome.afterSeconds * 1000
  if (at > now) return null
  return {
    inReplyTo: message.id,
    message: {
      id: `msg-${hex(hash32("reply", message.id))}${hex(hash32("reply-2", message.id))}`,
      chatId: message.chatId,
      direction: "received",
      senderProviderId: message.providerId,
      text: outcome.text,
      sentAt: iso(at)
    }
  }
}

/** A sent message as the conversation shows it. */
export const messageOf = (message: SentMessage): Message => ({
  id: message.id,
  chatId: message.chatId,
  direction: "sent",
  senderProviderId: null,
  text: message.text,
  sentAt: iso(message.sentAtMs)
})

/** Messages in conversation order: by time, then id. */
export const byTime = (a: Message, b: Message): number => a.sentAt.localeCompare(b.sentAt) || a.id.localeCompare(b.id)
