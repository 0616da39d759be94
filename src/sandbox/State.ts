/**
 * The sandbox network's stored state (`migrations/0020_sandbox_network.ts`,
 * `0021_sandbox_events.ts`, `0140_sandbox_accounts.ts`): the accounts the
 * service told it of, what they did on it, and what tests made the network do
 * to them. It reads only its own `sandbox_*` tables, never the service's. Failures of the database are defects here: the
 * simulated network has no outage to report.
 */
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { type Tier, Tier as TierSchema } from "../domain/Limits.ts"
import type { AccountRecord } from "../network/NetworkDriver.ts"
import { BigIntNumber, Nullable } from "../platform/Rows.ts"
import type { SentInvitation, SentMessage } from "./Outcomes.ts"

const NullableMillis = Nullable(BigIntNumber)

const InvitationRow = Schema.Struct({
  id: Schema.String,
  accountId: Schema.String,
  providerId: Schema.String,
  note: Schema.NullOr(Schema.String),
  sentAtMs: BigIntNumber,
  withdrawnAtMs: NullableMillis,
  forcedAcceptedAtMs: NullableMillis
})

const MessageRow = Schema.Struct({
  id: Schema.String,
  accountId: Schema.String,
  providerId: Schema.String,
  chatId: Schema.String,
  seq: Schema.Number,
  text: Schema.String,
  inmail: Schema.Boolean,
  sentAtMs: BigIntNumber
})

const InboundRow = Schema.Struct({
  id: Schema.String,
  accountId: Schema.String,
  providerId: Schema.String,
  chatId: Schema.String,
  text: Schema.String,
  receivedAtMs: BigIntNumber
})
/** A message a person sent to the account because a test said so (`message_received`). */
export type ReceivedMessage = typeof InboundRow.Type

const AnswerRow = Schema.Struct({
  invitationId: Schema.String,
  providerId: Schema.String,
  answer: Schema.Literals(["accepted", "declined"]),
  answeredAtMs: BigIntNumber
})
/** A received invitation the account answered. */
export type Answer = typeof AnswerRow.Type

const ActionRow = Schema.Struct({
  id: Schema.String,
  target: Schema.String,
  detail: Schema.Unknown,
  atMs: BigIntNumber
})
/** An endorsement, saved lead, reaction, comment or post. */
export type Action = typeof ActionRow.Type

/** The kinds of stored actions. */
export type ActionKind = "endorse" | "save_lead" | "react" | "comment" | "create_post"

const AccountRow = Schema.Struct({
  tier: TierSchema,
  products: Schema.Array(Schema.String),
  workspaceId: Schema.String
})

/** What the sandbox knows of an account from what the service told it (`NetworkDriver.accountRecorded`). */
export interface AccountFacts {
  readonly tier: Tier
  readonly products: ReadonlyArray<string>
  readonly workspaceId: string | null
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const invitationColumnsOf = (table: string) =>
  `${table}.id::text AS "id", ${table}.account_id AS "accountId", ${table}.provider_id AS "providerId", ${table}.note,
  ${table}.sent_at_ms AS "sentAtMs", ${table}.withdrawn_at_ms AS "withdrawnAtMs",
  ${table}.forced_accepted_at_ms AS "forcedAcceptedAtMs"`
const invitationColumns = invitationColumnsOf("sandbox_invitations")
const messageColumns = `id, account_id AS "accountId", provider_id AS "providerId", chat_id AS "chatId", seq, text,
  inmail, sent_at_ms AS "sentAtMs"`
const inboundColumns = `id, account_id AS "accountId", provider_id AS "providerId", chat_id AS "chatId", text,
  received_at_ms AS "receivedAtMs"`

const WriteRow = Schema.Struct({ result: Schema.Unknown, refusal: Schema.Unknown })

/** The state store, on the ambient `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const decode = <S extends Schema.ConstraintDecoder<unknown>>(schema: S) => {
    const rows = Schema.decodeUnknownEffect(Schema.Array(schema))
    return <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
      query.pipe(Effect.flatMap(rows), Effect.orDie)
  }
  const invitations = decode(InvitationRow)
  const messages = decode(MessageRow)
  const inbound = decode(InboundRow)
  const run = <A, E, R>(statement: Effect.Effect<A, E, R>) => statement.pipe(Effect.asVoid, Effect.orDie)

  return {
    /** Runs the effect in one transaction. */
    transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      sql.withTransaction(effect).pipe(Effect.catchTag("SqlError", Effect.die)),

    /**
     * Raises the account's fencing token to `fence` (kept when it is newer), holding its row for the rest of
     * the transaction, so attempts of one account reach the network one at a time; the token now kept.
     */
    raiseFence: (accountId: string, fence: number): Effect.Effect<number> =>
      decode(Schema.Struct({ fence: BigIntNumber }))(sql`
        INSERT INTO sandbox_fences (account_id, fence) VALUES (${accountId}, ${fence})
        ON CONFLICT (account_id) DO UPDATE SET fence = GREATEST(sandbox_fences.fence, EXCLUDED.fence)
        RETURNING fence`).pipe(Effect.map((rows) => rows[0]?.fence ?? fence)),

    /**
     * Keeps one write attempt for `key` (a job's id), refused or not: carried out (with its result, in the
     * write's own transaction), failed by the network's rules (no result), or refused as stale.
     */
    recordWrite: (write: {
      readonly key: string
      readonly accountId: string
      readonly command: string
      readonly result: unknown
      readonly atMs: number
      readonly fence: number
      readonly refused: boolean
      /** Why the network's rules refused it (a `NetworkError`'s fields); none when it went through or was stale. */
      readonly refusal?: unknown
      readonly beganRealMs: number
      readonly endedRealMs: number
    }) =>
      run(sql`INSERT INTO sandbox_writes ${
        sql.insert({
          key: write.key,
          account_id: write.accountId,
          command: write.command,
          result: write.result === undefined ? null : JSON.stringify(write.result),
          at_ms: write.atMs,
          fence: write.fence,
          refused: write.refused,
          refusal: write.refusal === undefined ? null : JSON.stringify(write.refusal),
          began_real_ms: write.beganRealMs,
          ended_real_ms: write.endedRealMs
        })
      }`),

    /**
     * What became of the write of `key` by the account (its first attempt that was not stale): its result when it
     * was carried out, or its refusal when the network's rules refused it; undefined when none reached the network.
     */
    writeOf: (accountId: string, key: string): Effect.Effect<{ readonly result: unknown; readonly refusal: unknown } | undefined> =>
      decode(WriteRow)(sql`
        SELECT result, refusal FROM sandbox_writes
        WHERE key = ${key} AND account_id = ${accountId} AND NOT refused AND (result IS NOT NULL OR refusal IS NOT NULL)
        ORDER BY id LIMIT 1`).pipe(
        Effect.map((rows) => rows[0])
      ),

    /** The account's tier, products and workspace as the service recorded them, or null when it never told of it. */
    account: (accountId: string): Effect.Effect<AccountFacts | null> =>
      decode(AccountRow)(
        sql`SELECT tier, products, workspace_id AS "workspaceId" FROM sandbox_accounts WHERE account_id = ${accountId}`
      ).pipe(Effect.map((rows) => rows[0] ?? null)),

    /** Keeps what the service recorded of an account, replacing what it told before. */
    recordAccount: (account: AccountRecord) =>
      run(sql`INSERT INTO sandbox_accounts ${
        sql.insert({
          account_id: account.accountId,
          workspace_id: account.workspaceId,
          tier: account.tier,
          products: JSON.stringify(account.products),
          removed: account.removed
        })
      } ON CONFLICT (account_id) DO UPDATE SET workspace_id = EXCLUDED.workspace_id, tier = EXCLUDED.tier,
          products = EXCLUDED.products, removed = EXCLUDED.removed`),

    /** Every invitation the account sent to the person, newest first. */
    invitationsTo: (accountId: string, providerId: string): Effect.Effect<ReadonlyArray<SentInvitation>> =>
      invitations(sql`SELECT ${sql.unsafe(invitationColumns)} FROM sandbox_invitations
        WHERE account_id = ${accountId} AND provider_id = ${providerId} ORDER BY sent_at_ms DESC, id`),

    /** Invitations to the person not withdrawn, sent by other accounts of the workspace. */
    workspaceInvitationsTo: (workspaceId: string, accountId: string, providerId: string) =>
      invitations(sql`SELECT ${sql.unsafe(invitationColumnsOf("i"))}
        FROM sandbox_invitations i JOIN sandbox_accounts a ON a.account_id = i.account_id
        WHERE a.workspace_id = ${workspaceId} AND NOT a.removed AND i.account_id <> ${accountId}
          AND i.provider_id = ${providerId} AND i.withdrawn_at_ms IS NULL`),

    /** One invitation of the account by id. */
    invitation: (accountId: string, id: string): Effect.Effect<SentInvitation | undefined> =>
      UUID.test(id)
        ? invitations(sql`SELECT ${sql.unsafe(invitationColumns)} FROM sandbox_invitations
            WHERE account_id = ${accountId} AND id = ${id}`).pipe(Effect.map((rows) => rows[0]))
        : Effect.succeed(undefined),

    /** The account's invitations sent, withdrawn or made accepted after `fromMs`, oldest first. */
    invitationsActiveSince: (accountId: string, fromMs: number) =>
      invitations(sql`SELECT ${sql.unsafe(invitationColumns)} FROM sandbox_invitations
        WHERE account_id = ${accountId}
          AND (sent_at_ms > ${fromMs} OR withdrawn_at_ms > ${fromMs} OR forced_accepted_at_ms > ${fromMs})
        ORDER BY sent_at_ms, id`),

    /** How many invitations with a note the account sent in [`fromMs`, `toMs`). */
    notesSentBetween: (accountId: string, fromMs: number, toMs: number) =>
      decode(Schema.Struct({ count: BigIntNumber }))(
        sql`SELECT count(*) AS count FROM sandbox_invitations WHERE account_id = ${accountId}
            AND note IS NOT NULL AND sent_at_ms >= ${fromMs} AND sent_at_ms < ${toMs}`
      ).pipe(Effect.map((rows) => rows[0]?.count ?? 0)),

    insertInvitation: (invitation: SentInvitation) =>
      run(sql`INSERT INTO sandbox_invitations ${
        sql.insert({
          id: invitation.id,
          account_id: invitation.accountId,
          provider_id: invitation.providerId,
          note: invitation.note,
          sent_at_ms: invitation.sentAtMs
        })
      }`),

    withdraw: (id: string, atMs: number) =>
      run(sql`UPDATE sandbox_invitations SET withdrawn_at_ms = ${atMs} WHERE id = ${id}`),

    /** Marks the invitation accepted at `atMs`, whatever the behaviour model says. */
    forceAcceptance: (id: string, atMs: number) =>
      run(sql`UPDATE sandbox_invitations SET forced_accepted_at_ms = ${atMs} WHERE id = ${id}`),

    /** The account's messages to the person, oldest first. */
    messagesTo: (accountId: string, providerId: string): Effect.Effect<ReadonlyArray<SentMessage>> =>
      messages(sql`SELECT ${sql.unsafe(messageColumns)} FROM sandbox_messages
        WHERE account_id = ${accountId} AND provider_id = ${providerId} ORDER BY seq`),

    /** Every message the account sent, oldest first. */
    messagesOf: (accountId: string): Effect.Effect<ReadonlyArray<SentMessage>> =>
      messages(sql`SELECT ${sql.unsafe(messageColumns)} FROM sandbox_messages
        WHERE account_id = ${accountId} ORDER BY sent_at_ms, id`),

    /** Messages the account sent after `fromMs`, oldest first. */
    messagesSince: (accountId: string, fromMs: number): Effect.Effect<ReadonlyArray<SentMessage>> =>
      messages(sql`SELECT ${sql.unsafe(messageColumns)} FROM sandbox_messages
        WHERE account_id = ${accountId} AND sent_at_ms > ${fromMs} ORDER BY sent_at_ms, id`),

    insertMessage: (message: SentMessage & { readonly subject: string | null }) =>
      run(sql`INSERT INTO sandbox_messages ${
        sql.insert({
          id: message.id,
          account_id: message.accountId,
          provider_id: message.providerId,
          chat_id: message.chatId,
          seq: message.seq,
          text: message.text,
          subject: message.subject,
          inmail: message.inmail,
          sent_at_ms: message.sentAtMs
        })
      }`),

    /** Messages tests made the person send to the account, oldest first. */
    receivedFrom: (accountId: string, providerId: string): Effect.Effect<ReadonlyArray<ReceivedMessage>> =>
      inbound(sql`SELECT ${sql.unsafe(inboundColumns)} FROM sandbox_inbound_messages
        WHERE account_id = ${accountId} AND provider_id = ${providerId} ORDER BY received_at_ms, id`),

    /** Messages tests made people send to the account in (`fromMs`, `toMs`], oldest first. */
    receivedBetween: (accountId: string, fromMs: number, toMs: number): Effect.Effect<ReadonlyArray<ReceivedMessage>> =>
      inbound(sql`SELECT ${sql.unsafe(inboundColumns)} FROM sandbox_inbound_messages
        WHERE account_id = ${accountId} AND received_at_ms > ${fromMs} AND received_at_ms <= ${toMs}
        ORDER BY received_at_ms, id`),

    /** The people tests made write to the account. */
    sendersTo: (accountId: string): Effect.Effect<ReadonlyArray<string>> =>
      decode(Schema.Struct({ providerId: Schema.String }))(
        sql`SELECT DISTINCT provider_id AS "providerId" FROM sandbox_inbound_messages WHERE account_id = ${accountId}`
      ).pipe(Effect.map((rows) => rows.map((row) => row.providerId))),

    insertReceived: (message: ReceivedMessage) =>
      run(sql`INSERT INTO sandbox_inbound_messages ${
        sql.insert({
          id: message.id,
          account_id: message.accountId,
          provider_id: message.providerId,
          chat_id: message.chatId,
          text: message.text,
          received_at_ms: message.receivedAtMs
        })
      }`),

    /** The account's answers to received invitations. */
    answers: (accountId: string): Effect.Effect<ReadonlyArray<Answer>> =>
      decode(AnswerRow)(sql`SELECT invitation_id AS "invitationId", provider_id AS "providerId", answer,
        answered_at_ms AS "answeredAtMs" FROM sandbox_invitation_answers WHERE account_id = ${accountId}`),

    insertAnswer: (accountId: string, answer: Answer) =>
      run(sql`INSERT INTO sandbox_invitation_answers ${
        sql.insert({
          account_id: accountId,
          invitation_id: answer.invitationId,
          provider_id: answer.providerId,
          answer: answer.answer,
          answered_at_ms: answer.answeredAtMs
        })
      }`),

    /** The stored action of a kind on a target, if any. */
    action: (accountId: string, kind: ActionKind, target: string): Effect.Effect<Action | undefined> =>
      decode(ActionRow)(sql`SELECT id, target, detail, at_ms AS "atMs" FROM sandbox_actions
        WHERE account_id = ${accountId} AND kind = ${kind} AND target = ${target}`).pipe(Effect.map((rows) => rows[0])),

    /** Stores an action, replacing the earlier one of the same kind on the same target. */
    putAction: (accountId: string, kind: ActionKind, action: Action) =>
      run(sql`INSERT INTO sandbox_actions ${
        sql.insert({
          id: action.id,
          account_id: accountId,
          kind,
          target: action.target,
          detail: JSON.stringify(action.detail),
          at_ms: action.atMs
        })
      } ON CONFLICT (account_id, kind, target) DO UPDATE SET detail = EXCLUDED.detail, at_ms = EXCLUDED.at_ms`)
  }
})

/** The state store's interface. */
export type State = Effect.Success<typeof make>
