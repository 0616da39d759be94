/**
 * The sandbox's `sync`: what changed for an account in (`since`, now]. The
 * invitations it sent that were sent, accepted or withdrawn in the window
 * (with their status now), and the messages it received in the window:
 * replies to its own messages, the background inbox's and those tests made
 * people send.
 */
import { Effect } from "effect"
import type { InboundMessage, SyncResult } from "../network/Sync.ts"
import { getConversation, listChats } from "./SandboxInbox.ts"
import { invitationAt, lastChangeAt, replyAt } from "./Outcomes.ts"
import type { Session } from "./Reads.ts"
import { everything } from "./Refs.ts"
import { DAY, iso } from "./Timeline.ts"

// Invitations are accepted within 20 days and replies come within 5 days of what they answer.
const ACCEPTANCE_HORIZON = 21 * DAY
const REPLY_HORIZON = 6 * DAY

/** What changed for the account after `since` (epoch ms), up to the session's now. */
export const syncSince = (session: Session, since: number): Effect.Effect<SyncResult> =>
  Effect.gen(function*() {
    const { accountId, now, state } = session
    if (since >= now) return { syncedUntil: since, invitations: [], messages: [] }
    const inWindow = (ms: number) => ms > since && ms <= now

    const invitations = (yield* state.invitationsActiveSince(accountId, since - ACCEPTANCE_HORIZON))
      .filter((invitation) => invitation.sentAtMs <= now && inWindow(lastChangeAt(invitation, now)))
      .sort((a, b) => lastChangeAt(a, now) - lastChangeAt(b, now))
      .map((invitation) => invitationAt(invitation, now))

    const replies = (yield* state.messagesSince(accountId, since - REPLY_HORIZON)).flatMap((message): Array<InboundMessage> => {
      const reply = replyAt(message, now)
      return reply === null || !inWindow(Date.parse(reply.message.sentAt))
        ? []
        : [{
          chatId: reply.message.chatId,
          messageId: reply.message.id,
          senderProviderId: message.providerId,
          text: reply.message.text,
          sentAt: reply.message.sentAt,
          inReplyTo: reply.inReplyTo
        }]
    })

    const background = everything((request) => listChats(accountId, now, request))
      .filter((chat) => Date.parse(chat.updatedAt) > since)
      .flatMap((chat): Array<InboundMessage> => {
        const conversation = getConversation(accountId, chat.id, now)
        if (conversation._tag === "Failure") return []
        return conversation.success.messages.flatMap((message) =>
          message.direction === "received" && message.senderProviderId !== null && inWindow(Date.parse(message.sentAt))
            ? [{
              chatId: message.chatId,
              messageId: message.id,
              senderProviderId: message.senderProviderId,
              text: message.text,
              sentAt: message.sentAt,
              inReplyTo: null
            }]
            : []
        )
      })

    const simulated = (yield* state.receivedBetween(accountId, since, now)).map((message): InboundMessage => ({
      chatId: message.chatId,
      messageId: message.id,
      senderProviderId: message.providerId,
      text: message.text,
      sentAt: iso(message.receivedAtMs),
      inReplyTo: null
    }))

    const messages = [...replies, ...background, ...simulated].sort((a, b) =>
      a.sentAt.localeCompare(b.sentAt) || a.messageId.localeCompare(b.messageId)
    )
    return { syncedUntil: now, invitations, messages }
  })
