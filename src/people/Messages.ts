/**
 * The `inbox_messages` table, its one owner (issue #19): the messages people
 * sent the accounts, as syncing recorded them with their triage. Every
 * statement is on the `Messages` service's own `SqlClient`, joining the
 * caller's transaction when there is one (a sync, a claim of a person).
 *
 * It sits with the people, not in `inbox/`, because the people need it
 * below the inbox in the import rule: whether a person has written to an
 * account decides whether a message to them is outreach (`People.claim`).
 * The inbox records and reads the messages through here.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { InboundMessage } from "../network/Sync.ts"
import { isUnsure, TriageClass, type TriageResult } from "../domain/TriageClass.ts"
import { Timestamp } from "../platform/Rows.ts"
import { type AccountPerson, Invitations } from "../accounts/Invitations.ts"

const decodeWrote = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ wrote: Schema.Boolean })))

const decodeSenders = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ sender: Schema.String })))

/** A reply as recorded: `from` is the sender's provider id. */
const RecordedReply = Schema.Struct({
  chatId: Schema.String,
  from: Schema.String,
  class: TriageClass,
  text: Schema.NullOr(Schema.String),
  suggestedReply: Schema.NullOr(Schema.String),
  receivedAt: Timestamp,
  confidence: Schema.NullOr(Schema.Number)
})
const decodeReplies = Schema.decodeUnknownEffect(Schema.Array(RecordedReply))

/** A reply as the Daily brief lists it: `from` is the person's name when known; `unsure` per `isUnsure`. */
export const ReplyRow = Schema.Struct({
  ...RecordedReply.fields,
  from: Schema.NullOr(Schema.String),
  unsure: Schema.Boolean
})

/** A message a person sent an account, as the waits of workflows test it. */
export const MessageFrom = Schema.Struct({
  accountId: Schema.String,
  providerId: Schema.String,
  sentAt: Timestamp,
  triageClass: Schema.NullOr(TriageClass),
  triageConfidence: Schema.NullOr(Schema.Number)
})
export type MessageFrom = typeof MessageFrom.Type
const decodeMessagesFrom = Schema.decodeUnknownEffect(Schema.Array(MessageFrom))

/** A message a person sent an account, as the person's timeline shows it. */
export const ReceivedFrom = Schema.Struct({
  accountId: Schema.String,
  providerId: Schema.String,
  chatId: Schema.String,
  messageId: Schema.String,
  text: Schema.String,
  sentAt: Timestamp,
  triageClass: Schema.NullOr(TriageClass),
  suggestedReply: Schema.NullOr(Schema.String),
  triageConfidence: Schema.NullOr(Schema.Number)
})
const decodeReceivedFrom = Schema.decodeUnknownEffect(Schema.Array(ReceivedFrom))

/** The messages people sent the accounts: recorded by syncing, read by the inbox, people and workflows. */
export class Messages extends Context.Service<Messages, {
  /**
   * Records a message a sync found, with its triage; false when it was
   * recorded before (then nothing changes).
   */
  readonly recordReceived: (accountId: string, message: InboundMessage, triaged: TriageResult) => Effect.Effect<
    boolean,
    SqlError.SqlError
  >
  /** Whether the person has written to the account (as syncing recorded it). */
  readonly hasWritten: (accountId: string, providerId: string) => Effect.Effect<
    boolean,
    SqlError.SqlError | Schema.SchemaError
  >
  /** Those of `providerIds` who have written to the account (one query for them all). */
  readonly whoHaveWritten: (accountId: string, providerIds: ReadonlyArray<string>) => Effect.Effect<ReadonlySet<string>>
  /**
   * The messages the account received since `sinceIso`, each with its sender's
   * name when one of the account's invitations to them recorded it (asked of
   * the invitations once for all the senders).
   */
  readonly repliesSince: (accountId: string, sinceIso: string) => Effect.Effect<ReadonlyArray<typeof ReplyRow.Type>>
  /** The messages each person of `pairs` sent its account since `sinceIso` (one query for them all). */
  readonly messagesFrom: (pairs: ReadonlyArray<AccountPerson & { readonly sinceIso: string }>) => Effect.Effect<
    ReadonlyArray<MessageFrom>
  >
  /** Every message these people sent any account (one query for them all; the caller keeps its workspace's). */
  readonly receivedFrom: (providerIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<typeof ReceivedFrom.Type>>
}>()("outreach/Messages") {
  /** Needs the `SqlClient`. */
  static readonly layer = Layer.effect(
    Messages,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const invitations = yield* Invitations
      return Messages.of({
        recordReceived: (accountId, message, triaged) =>
          sql<{ id: string }>`
            INSERT INTO inbox_messages (account_id, id, chat_id, sender_provider_id, text, sent_at, in_reply_to,
              triage_class, suggested_reply, triage_confidence)
            VALUES (${accountId}, ${message.messageId}, ${message.chatId}, ${message.senderProviderId},
              ${message.text}, ${message.sentAt}::timestamptz, ${message.inReplyTo}, ${triaged.class},
              ${triaged.suggestedReply}, ${triaged.confidence})
            ON CONFLICT (account_id, id) DO NOTHING
            RETURNING id`.pipe(Effect.map((inserted) => inserted.length > 0)),

        hasWritten: (accountId, providerId) =>
          sql`
            SELECT EXISTS (SELECT 1 FROM inbox_messages WHERE account_id = ${accountId} AND sender_provider_id = ${providerId})
              AS wrote`.pipe(Effect.flatMap(decodeWrote), Effect.map((rows) => rows[0]?.wrote === true)),

        whoHaveWritten: (accountId, providerIds) =>
          providerIds.length === 0 ? Effect.succeed(new Set<string>()) : sql`
            SELECT DISTINCT sender_provider_id AS sender FROM inbox_messages
            WHERE account_id = ${accountId} AND sender_provider_id IN ${sql.in(providerIds)}`.pipe(
            Effect.flatMap(decodeSenders),
            Effect.map((rows) => new Set(rows.map((row) => row.sender))),
            Effect.orDie
          ),

        repliesSince: (accountId, sinceIso) =>
          Effect.gen(function*() {
            const rows = yield* sql`
              SELECT m.chat_id AS "chatId", m.sender_provider_id AS "from", COALESCE(m.triage_class, 'other') AS class, m.text,
                     m.suggested_reply AS "suggestedReply", m.sent_at AS "receivedAt", m.triage_confidence AS confidence
              FROM inbox_messages m
              WHERE m.account_id = ${accountId} AND m.sent_at >= ${sinceIso}::timestamptz`.pipe(Effect.flatMap(decodeReplies))
            const names = yield* invitations.namesOf(accountId, [...new Set(rows.map((row) => row.from))])
            return rows.map((row): typeof ReplyRow.Type => ({
              ...row,
              from: names.get(row.from) ?? null,
              unsure: isUnsure(row.confidence)
            }))
          }).pipe(Effect.orDie),

        messagesFrom: (pairs) =>
          pairs.length === 0 ? Effect.succeed([]) : sql`
            SELECT m.account_id::text AS "accountId", m.sender_provider_id AS "providerId", m.sent_at AS "sentAt",
              m.triage_class AS "triageClass", m.triage_confidence AS "triageConfidence"
            FROM jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) AS p("accountId" uuid, "providerId" text, "sinceIso" timestamptz)
            JOIN inbox_messages m ON m.account_id = p."accountId" AND m.sender_provider_id = p."providerId"
              AND m.sent_at >= p."sinceIso"`.pipe(Effect.flatMap(decodeMessagesFrom), Effect.orDie),

        receivedFrom: (providerIds) =>
          providerIds.length === 0 ? Effect.succeed([]) : sql`
            SELECT account_id::text AS "accountId", sender_provider_id AS "providerId", chat_id AS "chatId", id AS "messageId",
              text, sent_at AS "sentAt", triage_class AS "triageClass", suggested_reply AS "suggestedReply",
              triage_confidence AS "triageConfidence"
            FROM inbox_messages WHERE sender_provider_id IN ${sql.in(providerIds)}`.pipe(
            Effect.flatMap(decodeReceivedFrom),
            Effect.orDie
          )
      })
    })
  ).pipe(Layer.provide(Invitations.layer))
}
