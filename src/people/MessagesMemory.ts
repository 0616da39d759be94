/**
 * `Messages` in memory, for fast tests without a database: the messages people sent the accounts
 * as the stored `inbox_messages` rows keep them (one per account and message id: a message
 * recorded again changes nothing, and says so), read by the stored statements' rules: who has
 * written, the replies since an instant (`unsure` by `isUnsure`), the messages of people since
 * instants, and every message of people. A reply names
 * its sender by the names the account's invitations recorded, asked of
 * {@link InvitationNamesMemory} as the stored messages ask `Invitations.namesOf` (the in-memory
 * inbox answers it, `inbox/InboxMemory.ts`).
 */
import { Context, Effect, Layer } from "effect"
import type { Invitations } from "../accounts/Invitations.ts"
import { instant } from "../accounts/SyncedInvitation.ts"
import { isUnsure, type TriageResult } from "../domain/TriageClass.ts"
import type { InboundMessage } from "../network/Sync.ts"
import { type MessageFrom, Messages, type ReceivedFrom, type ReplyRow } from "./Messages.ts"

/** The names the account's invitations recorded, for the in-memory messages (as `Invitations.namesOf` answers the stored ones). */
export class InvitationNamesMemory extends Context.Service<InvitationNamesMemory, {
  readonly namesOf: Invitations["Service"]["namesOf"]
}>()("outreach/InvitationNamesMemory") {}

/** A message as the table keeps it: its account and sender, what it said, and its triage. */
interface Kept {
  readonly accountId: string
  readonly messageId: string
  readonly chatId: string
  readonly sender: string
  readonly text: string
  readonly sentAt: string
  readonly triage: TriageResult
}

/** A uuid as its column compares it, whatever the case of its letters. */
const uuid = (id: string) => id.toLowerCase()

const since = (message: Kept, sinceIso: string) => Date.parse(message.sentAt) >= Date.parse(sinceIso)

/** The in-memory `Messages`; needs {@link InvitationNamesMemory}. */
export const layer = Layer.effect(
  Messages,
  Effect.gen(function*() {
    const names = yield* InvitationNamesMemory
    const kept: Array<Kept> = []

    const ofAccount = (accountId: string) => kept.filter((message) => message.accountId === uuid(accountId))

    const recordReceived = (accountId: string, message: InboundMessage, triaged: TriageResult) =>
      Effect.sync(() => {
        const account = uuid(accountId)
        if (kept.some((known) => known.accountId === account && known.messageId === message.messageId)) return false
        kept.push({
          accountId: account,
          messageId: message.messageId,
          chatId: message.chatId,
          sender: message.senderProviderId,
          text: message.text,
          sentAt: instant(message.sentAt),
          triage: triaged
        })
        return true
      })

    const whoHaveWritten = (accountId: string, providerIds: ReadonlyArray<string>) =>
      Effect.sync((): ReadonlySet<string> =>
        new Set(ofAccount(accountId).map((message) => message.sender).filter((sender) => providerIds.includes(sender)))
      )

    const repliesSince = (accountId: string, sinceIso: string) =>
      Effect.gen(function*() {
        const rows = ofAccount(accountId).filter((message) => since(message, sinceIso))
        const known = yield* names.namesOf(uuid(accountId), [...new Set(rows.map((row) => row.sender))])
        return rows.map((row): typeof ReplyRow.Type => ({
          chatId: row.chatId,
          from: known.get(row.sender) ?? null,
          class: row.triage.class,
          text: row.text,
          suggestedReply: row.triage.suggestedReply,
          receivedAt: row.sentAt,
          confidence: row.triage.confidence,
          unsure: isUnsure(row.triage.confidence)
        }))
      })

    const messagesFrom = (pairs: ReadonlyArray<{ readonly accountId: string; readonly providerId: string; readonly sinceIso: string }>) =>
      Effect.sync(() =>
        pairs.flatMap((pair) =>
          ofAccount(pair.accountId)
            .filter((message) => message.sender === pair.providerId && since(message, pair.sinceIso))
            .map((message): MessageFrom => ({
              accountId: message.accountId,
              providerId: message.sender,
              sentAt: message.sentAt,
              triageClass: message.triage.class,
              triageConfidence: message.triage.confidence
            }))
        )
      )

    const receivedFrom = (providerIds: ReadonlyArray<string>) =>
      Effect.sync(() =>
        kept.filter((message) => providerIds.includes(message.sender)).map((message): typeof ReceivedFrom.Type => ({
          accountId: message.accountId,
          providerId: message.sender,
          chatId: message.chatId,
          messageId: message.messageId,
          text: message.text,
          sentAt: message.sentAt,
          triageClass: message.triage.class,
          suggestedReply: message.triage.suggestedReply,
          triageConfidence: message.triage.confidence
        }))
      )

    return Messages.of({
      recordReceived,
      hasWritten: (accountId, providerId) => Effect.map(whoHaveWritten(accountId, [providerId]), (wrote) => wrote.has(providerId)),
      whoHaveWritten,
      repliesSince,
      messagesFrom,
      receivedFrom
    })
  })
)
