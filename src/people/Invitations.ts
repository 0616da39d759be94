/**
 * Where the invitations an account sent are recorded, from the two places
 * that learn of them: the service's own writes (a `connect` job sends one,
 * with source `svc`; `withdraw_invite` withdraws one), recorded with the job's
 * ending by its command's completion (`Completions.ts`), and syncing, which finds every change on the network, including
 * invitations sent elsewhere (source `external`).
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
