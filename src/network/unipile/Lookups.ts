/**
 * Whether a write reached the network, asked of the network itself: after an answer was lost
 * (the write is then not sent again if it happened) and after a crash (`outcomeOf`). Each write
 * is matched by its target and text, at or after the moment it was begun:
 *
 * | command | where it is looked for | matched on |
 * |---|---|---|
 * | `connect` | sent invitations (`GET /users/invite/sent`) | the invitee's provider id |
 * | `send_message` | the chat's messages (`GET /chats/{id}/messages`; the chat found by attendee in `GET /chats`) | sent by the account, same text, not older than the attempt |
 * | `comment` | the post's comments (`GET /posts/{id}/comments`) | by the account, same text |
 * | `react` | the account's reactions (`GET /users/{me}/reactions`) | the post |
 * | `create_post` | the account's posts (`GET /users/{me}/posts`) | same text, not older than the attempt |
 * | `withdraw_invite` | sent invitations | the invitation is no longer pending |
 * | `accept_invite`, `decline_invite` | received invitations (`GET /users/invite/received`) | the invitation is no longer there |
 *
 * A `connect` whose invitation is gone but whose person became a connection after the attempt
 * answers `Unknown` (accepted at once, or never sent and connected otherwise: the network cannot
 * tell). `endorse` and `save_lead` are never sent (not supported), so never looked up.
 */
import { DateTime, Effect, Schema } from "effect"
import type { WriteCommand } from "../../domain/Commands.ts"
import { Reaction } from "../../domain/CommandInputs.ts"
import { PersonSummary } from "../../domain/NetworkModels.ts"
import type { NetworkError } from "../NetworkErrors.ts"
import { activityUrn } from "./UnipileAddresses.ts"
import * as Models from "./Models.ts"
import { Reactions, ReceivedInvitations, type SentInvitations } from "./ProviderShapes.ts"
import { profileOf, restCall } from "./UnipileReads.ts"
import { ask, type Session } from "./UnipileSession.ts"

/** What the network shows of a write. */
export type Found =
  | { readonly _tag: "Found"; readonly result: unknown }
  | { readonly _tag: "Absent" }
  | { readonly _tag: "Unknown" }

const absent: Found = { _tag: "Absent" }
const found = (result: unknown): Found => ({ _tag: "Found", result })
const iso = (ms: number) => DateTime.formatIso(DateTime.makeUnsafe(ms))
/** The provider's clock and ours may differ by a little: a match may be up to 5 s older than the attempt. */
const SKEW_MS = 5_000
const notOlder = (at: string, startedAtMs: number) => Date.parse(at) >= startedAtMs - SKEW_MS

/** The account's pending sent invitations, every page (at most 10 of 100). */
export const pendingInvitations = (session: Session) =>
  Effect.gen(function*() {
    const all: Array<{ readonly id: string; readonly providerId: string; readonly note: string | null; readonly at: string }> = []
    let cursor: string | null = null
    for (let pages = 0; pages < 10; pages++) {
      const at: string | null = cursor
      const list: SentInvitations = yield* ask(session, "users.getAllInvitationsSent", (client) =>
        client.users.getAllInvitationsSent({ account_id: session.providerAccount, limit: 100, ...(at === null ? {} : { cursor: at }) }))
      for (const item of list.items) {
        if (item.invited_user_id !== null) {
          all.push({ id: item.id, providerId: item.invited_user_id, note: item.invitation_text, at: item.parsed_datetime ?? item.date })
        }
      }
      cursor = list.cursor
      if (cursor === null) break
    }
    return all
  })

/** The account's received invitations not answered yet (first 100). */
export const receivedInvitations = (session: Session) =>
  restCall(
    session,
    session.client.rest("users.invite.received", {
      method: "GET",
      path: ["users", "invite", "received"],
      parameters: { account_id: session.providerAccount, limit: "100" }
    }, ReceivedInvitations)
  ).pipe(Effect.map((list) => list.items))

/** The account's own provider id. */
export const ownId = (session: Session) =>
  Effect.map(
    ask(session, "users.getOwnProfile", (client) => client.users.getOwnProfile(session.providerAccount)),
    (me) => "provider_id" in me ? me.provider_id : ""
  )

/** The chat of the account with a person (by chat id or by the attendee's provider id), if any. */
const chatOf = (session: Session, target: string) =>
  Effect.gen(function*() {
    const list = yield* ask(session, "messaging.getAllChats", (client) => client.messaging.getAllChats({ account_id: session.providerAccount, limit: 100 }))
    return list.items.find((chat) => chat.id === target || chat.attendee_provider_id === target)
  })

const decodeReaction = Schema.decodeUnknownOption(Reaction)

/** What the network shows of the write of `command` on `target` with `body`, begun at `startedAtMs`. */
export const lookup = (
  session: Session,
  command: WriteCommand,
  attempt: { readonly target: string; readonly body: string | null; readonly startedAtMs: number }
): Effect.Effect<Found, NetworkError> =>
  Effect.gen(function*() {
    const { body, startedAtMs, target } = attempt
    switch (command) {
      case "connect": {
        const pending = (yield* pendingInvitations(session)).find((invitation) => invitation.providerId === target)
        if (pending !== undefined) {
          const person = Models.summaryOf(Models.person(yield* profileOf(session, target)))
          return found({ invitationId: pending.id, person, note: pending.note, status: "pending", sentAt: pending.at })
        }
        const relations = yield* ask(session, "users.getAllRelations", (client) =>
          client.users.getAllRelations({ account_id: session.providerAccount, limit: 100 }))
        const connected = relations.items.find((relation) => relation.member_id === target && relation.created_at >= startedAtMs - SKEW_MS)
        return connected === undefined ? absent : { _tag: "Unknown" }
      }
      case "send_message": {
        const chat = yield* chatOf(session, target)
        if (chat === undefined) return absent
        const messages = yield* ask(session, "messaging.getAllMessagesFromChat", (client) =>
          client.messaging.getAllMessagesFromChat({ chat_id: chat.id, limit: 50 }))
        const sent = messages.items.find((one) => one.is_sender === 1 && one.text === body && notOlder(one.timestamp, startedAtMs))
        return sent === undefined ? absent : found({
          chatId: chat.id,
          messageId: sent.id,
          recipientProviderId: chat.attendee_provider_id ?? target,
          text: sent.text ?? "",
          inmail: chat.content_type === "inmail",
          sentAt: sent.timestamp
        })
      }
      case "comment": {
        const me = yield* ownId(session)
        const comments = yield* ask(session, "users.getAllPostComments", (client) =>
          client.users.getAllPostComments({ account_id: session.providerAccount, post_id: activityUrn(target), limit: 100 }))
        const mine = comments.items.find((one) => one.author_details.id === me && one.text === body)
        return mine === undefined ? absent : found({ commentId: mine.id, post: activityUrn(target), text: mine.text, commentedAt: mine.date })
      }
      case "react": {
        const me = yield* ownId(session)
        const reactions = yield* restCall(
          session,
          session.client.rest("users.reactions", {
            method: "GET",
            path: ["users", me, "reactions"],
            parameters: { account_id: session.providerAccount }
          }, Reactions)
        )
        const mine = reactions.items.find((one) => one.post_id === target || one.post_id === activityUrn(target))
        const reaction = mine === undefined ? undefined : decodeReaction(mine.value)
        return reaction === undefined || reaction._tag === "None"
          ? absent
          : found({ post: activityUrn(target), reaction: reaction.value, reactedAt: iso(startedAtMs) })
      }
      case "create_post": {
        const me = yield* ownId(session)
        const posts = yield* ask(session, "users.getAllPosts", (client) =>
          client.users.getAllPosts({ account_id: session.providerAccount, identifier: me, limit: 20 }))
        const mine = posts.items.find((one) => one.text === body && notOlder(one.parsed_datetime, startedAtMs))
        return mine === undefined ? absent : found({ post: Models.post(mine), visibility: "anyone" })
      }
      case "withdraw_invite": {
        const pending = (yield* pendingInvitations(session)).some((invitation) => invitation.id === target)
        return pending ? absent : found({
          invitationId: target,
          providerId: body ?? "",
          withdrawnAt: iso(startedAtMs),
          canResendAfter: iso(startedAtMs + 21 * 86_400_000)
        })
      }
      case "accept_invite":
      case "decline_invite": {
        const waiting = (yield* receivedInvitations(session)).some((invitation) => invitation.id === target)
        const from = decodeFrom(body)
        if (waiting) return absent
        return from === undefined ? { _tag: "Unknown" } : found({
          invitationId: target,
          from,
          answer: command === "accept_invite" ? "accepted" : "declined",
          answeredAt: iso(startedAtMs)
        })
      }
      case "endorse":
      case "save_lead":
        return absent
    }
  })

const FromJson = Schema.fromJsonString(PersonSummary)
const decodeFromJson = Schema.decodeUnknownOption(FromJson)
const encodeFromJson = Schema.encodeSync(FromJson)

/** The inviter of a received invitation, kept as the attempt's body. */
export const encodeFrom = (from: PersonSummary): string => encodeFromJson(from)
const decodeFrom = (body: string | null): PersonSummary | undefined => {
  const decoded = decodeFromJson(body)
  return decoded._tag === "Some" ? decoded.value : undefined
}
