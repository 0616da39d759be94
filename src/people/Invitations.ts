/**
 * The `invitations` table, its one owner (issue #19). Where the invitations an
 * account sent are recorded, from the two places that learn of them: the
 * service's own writes (a `connect` job sends one, with source `svc`;
 * `withdraw_invite` withdraws one), recorded with the job's ending by its
 * command's completion (`Completions.ts`), and syncing, which finds every
 * change on the network, including invitations sent elsewhere (source
 * `external`). The inbox's lists and reports read them through here too.
 *
 * Either may come first: a sync can read the network between a `connect`
 * reaching it and its job ending; the job's ending then marks the invitation
 * `svc` all the same. A status a sync read before the service's own
 * withdrawal never undoes it: once resolved, an invitation never becomes
 * pending again.
 *
 * It sits with the people (beside `touchPerson`, the other record a job's
 * ending and syncing both write) so that `jobs/` and `inbox/` each depend on
 * it without depending on each other.
 *
 * @since 1.0.0
 */
import { Effect, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import type { InvitationSent, InvitationWithdrawn } from "../domain/CommandResults.ts"
import { InvitationSource, InvitationStatus } from "../domain/Invitation.ts"
import type { SyncedInvitation } from "../network/Sync.ts"
import { BigIntNumber, Timestamp } from "../platform/Rows.ts"


/**
 * Records the invitation a completed `connect` of the account sent (its
 * completion effect, `Completions.ts`), inside the job's ending transaction.
 */
export const recordSent = (sql: SqlClient.SqlClient, accountId: string, sent: typeof InvitationSent.Type) =>
  sql`
    INSERT INTO invitations (account_id, id, provider_id, name, note, status, source, sent_at)
    VALUES (${accountId}, ${sent.invitationId}, ${sent.person.providerId}, ${sent.person.name}, ${sent.note}, 'pending',
      'svc', ${sent.sentAt}::timestamptz)
    ON CONFLICT (account_id, id) DO UPDATE SET source = 'svc', name = EXCLUDED.name, note = EXCLUDED.note`.pipe(
    Effect.asVoid
  )

/**
 * Marks withdrawn the invitation a completed `withdraw_invite` of the account
 * withdrew (its completion effect), inside the job's ending transaction.
 */
export const recordWithdrawn = (sql: SqlClient.SqlClient, accountId: string, withdrawn: typeof InvitationWithdrawn.Type) =>
  sql`
    UPDATE invitations SET status = 'withdrawn', resolved_at = ${withdrawn.withdrawnAt}::timestamptz
    WHERE account_id = ${accountId} AND id = ${withdrawn.invitationId} AND status = 'pending'`.pipe(Effect.asVoid)

const SyncedRow = Schema.Struct({
  source: InvitationSource,
  name: Schema.NullOr(Schema.String),
  statusBefore: Schema.NullOr(InvitationStatus)
})
const decodeSynced = Schema.decodeUnknownEffect(Schema.Array(SyncedRow))

/**
 * Records an invitation as a sync found it. Returns its source, the person's
 * name when the service knows it, and its status before (null when it was
 * not recorded yet), from which the caller decides its events.
 */
export const recordSynced = (sql: SqlClient.SqlClient, accountId: string, invitation: SyncedInvitation) =>
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
  )

/** An invitation as the account's list shows it. */
export const InvitationListRow = Schema.Struct({
  id: Schema.String,
  providerId: Schema.String,
  note: Schema.NullOr(Schema.String),
  status: InvitationStatus,
  source: InvitationSource,
  sentAt: Timestamp,
  resolvedAt: Schema.NullOr(Timestamp)
})
const decodeList = Schema.decodeUnknownEffect(Schema.Array(InvitationListRow))

/** The account's invitations of `status` (all of them for "all"), newest first, up to `limit`. */
export const invitationsOf = (
  sql: SqlClient.SqlClient,
  accountId: string,
  status: InvitationStatus | "all",
  limit: number
) =>
  sql`
    SELECT id, provider_id AS "providerId", note, status, source, sent_at AS "sentAt", resolved_at AS "resolvedAt"
    FROM invitations
    WHERE account_id = ${accountId} ${status === "all" ? sql`` : sql`AND status = ${status}`}
    ORDER BY sent_at DESC, id LIMIT ${limit}`.pipe(Effect.flatMap(decodeList), Effect.orDie)

const decodeIds = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ id: Schema.String })))

/**
 * The account's invitations pending longer than `autoWithdrawDays` at `nowIso`
 * whose withdrawal the service has not proposed yet: not again after a person
 * rejected it or it failed, nor while a withdrawal of anyone's is on its way
 * (it reads the account's `withdraw_invite` jobs for that), oldest first.
 */
export const staleInvitations = (sql: SqlClient.SqlClient, accountId: string, autoWithdrawDays: number, nowIso: string) =>
  sql`
    SELECT i.id FROM invitations i
    WHERE i.account_id = ${accountId} AND i.status = 'pending'
      AND i.sent_at < ${nowIso}::timestamptz - ${autoWithdrawDays} * interval '1 day'
      AND NOT EXISTS (
        SELECT 1 FROM jobs j WHERE j.account_id = i.account_id AND j.kind = 'withdraw_invite'
          AND j.input ->> 'invitationId' = i.id
          AND (j.origin = 'service' OR j.status NOT IN ('failed', 'cancelled')))
    ORDER BY i.sent_at, i.id`.pipe(
    Effect.flatMap(decodeIds),
    Effect.map((rows) => rows.map((row) => row.id)),
    Effect.orDie
  )

/** A new connection, ready for a first message. */
export const ReadyRow = Schema.Struct({
  providerId: Schema.String,
  name: Schema.NullOr(Schema.String),
  note: Schema.NullOr(Schema.String),
  acceptedAt: Timestamp
})
const decodeReady = Schema.decodeUnknownEffect(Schema.Array(ReadyRow))

/**
 * Accepted invitations of the account whose person has neither been written
 * to (a sent message, its jobs) nor written (a reply, its messages) yet, the
 * latest accepted first, up to `limit`.
 */
export const readyForFirstMessage = (sql: SqlClient.SqlClient, accountId: string, limit: number) =>
  sql`
    SELECT i.provider_id AS "providerId", i.name, i.note, i.accepted_at AS "acceptedAt"
    FROM invitations i
    WHERE i.account_id = ${accountId} AND i.status = 'accepted' AND i.accepted_at IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM inbox_messages m WHERE m.account_id = i.account_id AND m.sender_provider_id = i.provider_id)
      AND NOT EXISTS (
        SELECT 1 FROM jobs j WHERE j.account_id = i.account_id AND j.kind = 'send_message'
          AND j.result ->> 'recipientProviderId' = i.provider_id)
    ORDER BY i.accepted_at DESC LIMIT ${limit}`.pipe(Effect.flatMap(decodeReady), Effect.orDie)

const decodePending = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ sentAtMs: BigIntNumber })))

/** The account's pending invitations, with when each was sent (epoch ms). */
export const pendingSentAt = (sql: SqlClient.SqlClient, accountId: string) =>
  sql`
    SELECT (extract(epoch FROM sent_at) * 1000)::bigint AS "sentAtMs" FROM invitations
    WHERE account_id = ${accountId} AND status = 'pending'`.pipe(Effect.flatMap(decodePending), Effect.orDie)

const decodeRate = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ sent: BigIntNumber, accepted: BigIntNumber })))

/** How many invitations the account sent since `sinceIso`, and how many of them were accepted. */
export const acceptanceSince = (sql: SqlClient.SqlClient, accountId: string, sinceIso: string) =>
  sql`
    SELECT count(*) AS sent, count(*) FILTER (WHERE status = 'accepted') AS accepted FROM invitations
    WHERE account_id = ${accountId} AND sent_at >= ${sinceIso}::timestamptz`.pipe(
    Effect.flatMap(decodeRate),
    Effect.map((rows) => rows[0] ?? { sent: 0, accepted: 0 }),
    Effect.orDie
  )
