/**
 * What changed on the network for a seat in (`since`, now]: the invitations it sent that are
 * pending (sent in the window) or were accepted (the person became a relation in the window, and
 * the service had invited them), and the messages it received. The same code turns the
 * provider's webhooks into a `SyncResult` (`events`), so a webhook and the periodic sync go
 * through the service's one sync path.
 *
 * Unipile does not tell a sender about declines (LinkedIn does not), nor about invitations
 * withdrawn elsewhere: those stay as the service recorded them.
 */
import { Clock, DateTime, Effect } from "effect"
import type { InboundMessage, SyncedInvitation, SyncResult } from "../Sync.ts"
import type { NetworkError } from "../NetworkErrors.ts"
import { pendingInvitations } from "./Lookups.ts"
import type { MessageList } from "./ProviderShapes.ts"
import { ask, type Session } from "./UnipileSession.ts"
import type { Attempt } from "./Store.ts"

const iso = (ms: number) => DateTime.formatIso(DateTime.makeUnsafe(ms))

/** The person a finished `connect` invited, its invitation and note. */
const invited = (attempt: Attempt) => {
  const result = attempt.result
  if (typeof result !== "object" || result === null || !("invitationId" in result) || typeof result.invitationId !== "string") return undefined
  return { invitationId: result.invitationId, providerId: attempt.target, note: attempt.body, sentAtMs: attempt.startedAtMs }
}

/** The id and chat of a finished `send_message`. */
const sentMessage = (attempt: Attempt) => {
  const result = attempt.result
  if (typeof result !== "object" || result === null || !("messageId" in result) || !("chatId" in result)) return undefined
  return typeof result.messageId === "string" && typeof result.chatId === "string"
    ? { messageId: result.messageId, chatId: result.chatId, atMs: attempt.startedAtMs }
    : undefined
}

/** The accepted invitations among new relations, as synced invitations. */
export const acceptances = (session: Session, relations: ReadonlyArray<{ readonly providerId: string; readonly atMs: number }>) =>
  Effect.map(session.store.finished(session.accountId, "connect"), (attempts): ReadonlyArray<SyncedInvitation> =>
    relations.flatMap((relation) => {
      const sent = attempts.map(invited).find((one) => one !== undefined && one.providerId === relation.providerId)
      return sent === undefined ? [] : [{
        invitationId: sent.invitationId,
        providerId: sent.providerId,
        note: sent.note,
        status: "accepted" as const,
        sentAt: iso(sent.sentAtMs),
        acceptedAt: iso(relation.atMs),
        resolvedAt: iso(relation.atMs)
      }]
    }))

/** Received messages as inbound messages, each with the service's message it answers, if any. */
export const inbound = (session: Session, received: ReadonlyArray<Omit<InboundMessage, "inReplyTo">>) =>
  Effect.map(session.store.finished(session.accountId, "send_message"), (attempts): ReadonlyArray<InboundMessage> => {
    const sent = attempts.flatMap((attempt) => sentMessage(attempt) ?? [])
    return received.map((message) => {
      const answered = sent.find((one) => one.chatId === message.chatId && one.atMs <= Date.parse(message.sentAt))
      return { ...message, inReplyTo: answered?.messageId ?? null }
    })
  })

/** What changed for the seat in (`since`, now]. */
export const syncSince = (session: Session, since: number): Effect.Effect<SyncResult, NetworkError> =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const within = (ms: number) => ms > since && ms <= now
    const pending: ReadonlyArray<SyncedInvitation> = (yield* pendingInvitations(session))
      .filter((invitation) => within(Date.parse(invitation.at)))
      .map((invitation) => ({
        invitationId: invitation.id,
        providerId: invitation.providerId,
        note: invitation.note,
        status: "pending" as const,
        sentAt: invitation.at,
        acceptedAt: null,
        resolvedAt: null
      }))
    const relations = yield* ask(session, "users.getAllRelations", (client) =>
      client.users.getAllRelations({ account_id: session.providerAccount, limit: 100 }))
    const accepted = yield* acceptances(
      session,
      relations.items.filter((relation) => within(relation.created_at)).map((relation) => ({ providerId: relation.member_id, atMs: relation.created_at }))
    )
    const received: Array<Omit<InboundMessage, "inReplyTo">> = []
    let cursor: string | null = null
    for (let pages = 0; pages < 10; pages++) {
      const at: string | null = cursor
      const list: MessageList = yield* ask(session, "messaging.getAllMessages", (client) =>
        client.messaging.getAllMessages({ account_id: session.providerAccount, after: iso(since), limit: 100, ...(at === null ? {} : { cursor: at }) }))
      for (const message of list.items) {
        if (message.is_sender === 0 && within(Date.parse(message.timestamp))) {
          received.push({ chatId: message.chat_id, messageId: message.id, senderProviderId: message.sender_id, text: message.text ?? "", sentAt: message.timestamp })
        }
      }
      cursor = typeof list.cursor === "string" ? list.cursor : null
      if (cursor === null) break
    }
    const messages = yield* inbound(session, received.sort((a, b) => a.sentAt.localeCompare(b.sentAt)))
    const invitations = [...pending, ...accepted].sort((a, b) => (a.resolvedAt ?? a.sentAt).localeCompare(b.resolvedAt ?? b.sentAt))
    return { syncedUntil: now, invitations, messages }
  })
