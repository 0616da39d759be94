/**
 * The `invitations` table, its one owner (issue #19). Where the invitations an
 * account sent are recorded, from the two places that learn of them: the
 * service's own writes (a `connect` job sends one, with source `svc`;
 * `withdraw_invite` withdraws one), recorded with the job's ending by its
 * command's completion (`jobs/Completions.ts`), and syncing, which finds every
 * change on the network, including invitations sent elsewhere (source
 * `external`). The inbox's lists and reports read them through here too,
 * every statement on the `Invitations` service's own `SqlClient`, joining the
 * caller's transaction when there is one (a job's ending, a sync).
 *
 * Either may come first: a sync can read the network between a `connect`
 * reaching it and its job ending; the job's ending then marks the invitation
 * `svc` all the same. A status a sync read before the service's own
 * withdrawal never undoes it: once resolved, an invitation never becomes
 * pending again.
 *
 * It sits with the accounts that sent them, below `people/`, `jobs/` and
 * `inbox/` in the import rule: an account's view counts its pending
 * invitations, a person's timeline and the cross-seat rule read those to the
 * person, and a job's ending and syncing both write here.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { InvitationSent, InvitationWithdrawn } from "../domain/CommandResults.ts"
import { InvitationSource, InvitationStatus } from "../domain/Invitation.ts"
import type { SyncedInvitation } from "../network/Sync.ts"
import { BigIntNumber, Nullable, NullableTimestamp, Timestamp } from "../platform/Rows.ts"

const SyncedRow = Schema.Struct({
  source: InvitationSource,
  name: Schema.NullOr(Schema.String),
  statusBefore: Schema.NullOr(InvitationStatus)
})
const decodeSynced = Schema.decodeUnknownEffect(Schema.Array(SyncedRow))

/** An invitation as the account's list shows it. */
export const InvitationListRow = Schema.Struct({
  id: Schema.String,
  providerId: Schema.String,
  note: Schema.NullOr(Schema.String),
  status: InvitationStatus,
  source: InvitationSource,
  sentAt: Timestamp,
  resolvedAt: Nullable(Timestamp)
})
const decodeList = Schema.decodeUnknownEffect(Schema.Array(InvitationListRow))

const decodeIds = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ id: Schema.String })))

/** An accepted invitation: a new connection. */
export const AcceptedRow = Schema.Struct({
  id: Schema.String,
  providerId: Schema.String,
  name: Schema.NullOr(Schema.String),
  note: Schema.NullOr(Schema.String),
  acceptedAt: Timestamp
})
export type AcceptedRow = typeof AcceptedRow.Type
const decodeAccepted = Schema.decodeUnknownEffect(Schema.Array(AcceptedRow))

const decodeNames = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ providerId: Schema.String, name: Schema.String })))

const decodeCounts = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ accountId: Schema.String, count: BigIntNumber })))

const PendingRow = Schema.Struct({ sentAtMs: BigIntNumber })
const decodePending = Schema.decodeUnknownEffect(Schema.Array(PendingRow))

const decodeRate = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ sent: BigIntNumber, accepted: BigIntNumber })))

/** An account and a person, as the waits of workflows ask about them. */
export interface AccountPerson {
  readonly accountId: string
  readonly providerId: string
}

const decodePairs = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ accountId: Schema.String, providerId: Schema.String })))

/** An invitation an account sent a person, as the person's timeline shows it. */
export const InvitationTo = Schema.Struct({
  accountId: Schema.String,
  providerId: Schema.String,
  invitationId: Schema.String,
  status: InvitationStatus,
  source: InvitationSource,
  note: Schema.NullOr(Schema.String),
  sentAt: Timestamp,
  acceptedAt: NullableTimestamp,
  resolvedAt: NullableTimestamp
})
const decodeInvitationsTo = Schema.decodeUnknownEffect(Schema.Array(InvitationTo))

const PendingTo = Schema.Struct({ accountId: Schema.String, sentAt: Timestamp })
const decodePendingTo = Schema.decodeUnknownEffect(Schema.Array(PendingTo))

/** The invitations the accounts sent: recorded by a job's ending and by syncing, read by the inbox, people and workflows. */
export class Invitations extends Context.Service<Invitations, {
  /**
   * Records the invitation a completed `connect` of the account sent (its
   * completion effect, `jobs/Completions.ts`), inside the job's ending transaction.
   */
  readonly recordSent: (accountId: string, sent: typeof InvitationSent.Type) => Effect.Effect<void, SqlError.SqlError>
  /**
   * Marks withdrawn the invitation a completed `withdraw_invite` of the account
   * withdrew (its completion effect), inside the job's ending transaction.
   */
  readonly recordWithdrawn: (accountId: string, withdrawn: typeof InvitationWithdrawn.Type) => Effect.Effect<void, SqlError.SqlError>
  /**
   * Records an invitation as a sync found it. Returns its source, the person's
   * name when the service knows it, and its status before (null when it was
   * not recorded yet), from which the caller decides its events.
   */
  readonly recordSynced: (accountId: string, invitation: SyncedInvitation) => Effect.Effect<
    typeof SyncedRow.Type,
    SqlError.SqlError | Schema.SchemaError
  >
  /** The account's invitations of `status` (all of them for "all"), newest first, up to `limit`. */
  readonly listOf: (accountId: string, status: InvitationStatus | "all", limit: number) => Effect.Effect<
    ReadonlyArray<typeof InvitationListRow.Type>
  >
  /**
   * The account's invitations pending longer than `autoWithdrawDays` at `nowIso`,
   * oldest first (whether their withdrawal was proposed already is the jobs'
   * to say: `JobStore.withdrawalsProposed`).
   */
  readonly staleOf: (accountId: string, autoWithdrawDays: number, nowIso: string) => Effect.Effect<ReadonlyArray<string>>
  /**
   * The account's accepted invitations, the latest accepted first, up to
   * `limit`; after `before` (the last row of the previous page) when given.
   */
  readonly acceptedOf: (accountId: string, limit: number, before?: AcceptedRow) => Effect.Effect<ReadonlyArray<AcceptedRow>>
  /** The names the account's invitations recorded for these people (one query for them all). */
  readonly namesOf: (accountId: string, providerIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, string>>
  /** How many invitations of each of these accounts are pending (one query for them all; none: absent). */
  readonly pendingCounts: (accountIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, number>>
  /** The account's pending invitations, with when each was sent (epoch ms). */
  readonly pendingSentAt: (accountId: string) => Effect.Effect<ReadonlyArray<typeof PendingRow.Type>>
  /** How many invitations the account sent since `sinceIso`, and how many of them were accepted. */
  readonly acceptanceSince: (accountId: string, sinceIso: string) => Effect.Effect<{ readonly sent: number; readonly accepted: number }>
  /** Those of `pairs` where the account has an accepted invitation to the person (one query for them all). */
  readonly acceptedAmong: (pairs: ReadonlyArray<AccountPerson>) => Effect.Effect<ReadonlyArray<AccountPerson>>
  /** Every invitation any account sent these people (one query for them all; the caller keeps its workspace's). */
  readonly sentTo: (providerIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<typeof InvitationTo.Type>>
  /** The accounts with an invitation to the person pending, and when each was sent (the caller keeps its workspace's). */
  readonly pendingTo: (providerId: string) => Effect.Effect<ReadonlyArray<typeof PendingTo.Type>>
}>()("outreach/Invitations") {
  /** Needs the `SqlClient`. */
  static readonly layer = Layer.effect(
    Invitations,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return Invitations.of({
        recordSent: (accountId, sent) =>
          sql`
            INSERT INTO invitations (account_id, id, provider_id, name, note, status, source, sent_at)
            VALUES (${accountId}, ${sent.invitationId}, ${sent.person.providerId}, ${sent.person.name}, ${sent.note}, 'pending',
              'svc', ${sent.sentAt}::timestamptz)
            ON CONFLICT (account_id, id) DO UPDATE SET source = 'svc', name = EXCLUDED.name, note = EXCLUDED.note`.pipe(
            Effect.asVoid
          ),

        recordWithdrawn: (accountId, withdrawn) =>
          sql`
            UPDATE invitations SET status = 'withdrawn', resolved_at = ${withdrawn.withdrawnAt}::timestamptz
            WHERE account_id = ${accountId} AND id = ${withdrawn.invitationId} AND status = 'pending'`.pipe(Effect.asVoid),

        recordSynced: (accountId, invitation) =>
          sql`
            WITH before AS (SELECT status FROM invitations WHERE account_id = ${accountId} AND id = ${invitation.invitationId})
            INSERT INTO invitations AS i (account_id, id, provider_id, note, status, source, sent_at, accepted_at, resolved_at)
            VALUES (${accountId}, ${invitation.invitationId}, ${invitation.providerId}, ${invitation.note}, ${invitation.status},
              'external', ${invitation.sentAt}::timestamptz, ${invitation.acceptedAt}::timestamptz,
              ${invitation.resolvedAt}::timestamptz)
            ON CONFLICT (account_id, id) DO UPDATE SET
              status = CASE WHEN EXCLUDED.status = 'pending' THEN i.status ELSE EXCLUDED.status END,
              accepted_at = COALESCE(EXCLUDED.accepted_at, i.accepted_at),
              resolved_at = COALESCE(EXCLUDED.resolved_at, i.resolved_at)
            RETURNING i.source, i.name, (SELECT status FROM before) AS "statusBefore"`.pipe(
            Effect.flatMap(decodeSynced),
            Effect.flatMap((rows) =>
              rows.length === 1 ? Effect.succeed(rows[0]) : Effect.die(new Error(`invitation ${invitation.invitationId} not recorded`))
            )
          ),

        listOf: (accountId, status, limit) =>
          sql`
            SELECT id, provider_id AS "providerId", note, status, source, sent_at AS "sentAt", resolved_at AS "resolvedAt"
            FROM invitations
            WHERE account_id = ${accountId} ${status === "all" ? sql`` : sql`AND status = ${status}`}
            ORDER BY sent_at DESC, id LIMIT ${limit}`.pipe(Effect.flatMap(decodeList), Effect.orDie),

        staleOf: (accountId, autoWithdrawDays, nowIso) =>
          sql`
            SELECT i.id FROM invitations i
            WHERE i.account_id = ${accountId} AND i.status = 'pending'
              AND i.sent_at < ${nowIso}::timestamptz - ${autoWithdrawDays} * interval '1 day'
            ORDER BY i.sent_at, i.id`.pipe(
            Effect.flatMap(decodeIds),
            Effect.map((rows) => rows.map((row) => row.id)),
            Effect.orDie
          ),

        acceptedOf: (accountId, limit, before) =>
          sql`
            SELECT i.id, i.provider_id AS "providerId", i.name, i.note, i.accepted_at AS "acceptedAt"
            FROM invitations i
            WHERE i.account_id = ${accountId} AND i.status = 'accepted' AND i.accepted_at IS NOT NULL
              ${before === undefined ? sql`` : sql`AND (i.accepted_at, i.id) < (${before.acceptedAt}::timestamptz, ${before.id})`}
            ORDER BY i.accepted_at DESC, i.id DESC LIMIT ${limit}`.pipe(Effect.flatMap(decodeAccepted), Effect.orDie),

        namesOf: (accountId, providerIds) =>
          providerIds.length === 0 ? Effect.succeed(new Map<string, string>()) : sql`
            SELECT DISTINCT ON (provider_id) provider_id AS "providerId", name FROM invitations
            WHERE account_id = ${accountId} AND provider_id IN ${sql.in(providerIds)} AND name IS NOT NULL
            ORDER BY provider_id, sent_at DESC`.pipe(
            Effect.flatMap(decodeNames),
            Effect.map((rows) => new Map(rows.map((row) => [row.providerId, row.name]))),
            Effect.orDie
          ),

        pendingCounts: (accountIds) =>
          accountIds.length === 0 ? Effect.succeed(new Map<string, number>()) : sql`
            SELECT account_id::text AS "accountId", count(*) AS count FROM invitations
            WHERE account_id IN ${sql.in(accountIds)} AND status = 'pending'
            GROUP BY account_id`.pipe(
            Effect.flatMap(decodeCounts),
            Effect.map((rows) => new Map(rows.map((row) => [row.accountId, row.count]))),
            Effect.orDie
          ),

        pendingSentAt: (accountId) =>
          sql`
            SELECT (extract(epoch FROM sent_at) * 1000)::bigint AS "sentAtMs" FROM invitations
            WHERE account_id = ${accountId} AND status = 'pending'`.pipe(Effect.flatMap(decodePending), Effect.orDie),

        acceptanceSince: (accountId, sinceIso) =>
          sql`
            SELECT count(*) AS sent, count(*) FILTER (WHERE status = 'accepted') AS accepted FROM invitations
            WHERE account_id = ${accountId} AND sent_at >= ${sinceIso}::timestamptz`.pipe(
            Effect.flatMap(decodeRate),
            Effect.map((rows) => rows[0] ?? { sent: 0, accepted: 0 }),
            Effect.orDie
          ),

        acceptedAmong: (pairs) =>
          pairs.length === 0 ? Effect.succeed([]) : sql`
            SELECT DISTINCT i.account_id::text AS "accountId", i.provider_id AS "providerId"
            FROM jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) AS p("accountId" uuid, "providerId" text)
            JOIN invitations i ON i.account_id = p."accountId" AND i.provider_id = p."providerId"
            WHERE i.status = 'accepted'`.pipe(Effect.flatMap(decodePairs), Effect.orDie),

        sentTo: (providerIds) =>
          providerIds.length === 0 ? Effect.succeed([]) : sql`
            SELECT account_id::text AS "accountId", provider_id AS "providerId", id AS "invitationId", status, source, note,
              sent_at AS "sentAt", accepted_at AS "acceptedAt", resolved_at AS "resolvedAt"
            FROM invitations WHERE provider_id IN ${sql.in(providerIds)}`.pipe(Effect.flatMap(decodeInvitationsTo), Effect.orDie),

        pendingTo: (providerId) =>
          sql`
            SELECT account_id::text AS "accountId", sent_at AS "sentAt" FROM invitations
            WHERE provider_id = ${providerId} AND status = 'pending'`.pipe(Effect.flatMap(decodePendingTo), Effect.orDie)
      })
    })
  )
}
