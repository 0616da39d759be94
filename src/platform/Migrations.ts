/**
 * Runs the numbered migrations in `migrations/` at start, on PGlite and
 * PostgreSQL alike. The migrator takes a table lock, so servers starting at the
 * same time against one database do not race.
 */
import { Effect, Layer } from "effect"
import { Migrator, SqlClient } from "effect/sql"
import foundation from "../../migrations/0001_foundation.ts"
import outbox from "../../migrations/0002_outbox.ts"
import accounts from "../../migrations/0003_accounts.ts"
import webhooks from "../../migrations/0010_webhooks.ts"
import sandboxClock from "../../migrations/0011_sandbox_clock.ts"
import sandboxNetwork from "../../migrations/0020_sandbox_network.ts"
import sandboxEvents from "../../migrations/0021_sandbox_events.ts"
import jobs from "../../migrations/0030_jobs.ts"
import inbox from "../../migrations/0040_inbox.ts"
import people from "../../migrations/0050_people.ts"
import requestClaims from "../../migrations/0070_request_claims.ts"
import workflows from "../../migrations/0080_workflows.ts"
import webhookSubscriptions from "../../migrations/0130_webhook_subscriptions.ts"
import workflowWaitReason from "../../migrations/0131_workflow_wait_reason.ts"
import sandboxAccounts from "../../migrations/0140_sandbox_accounts.ts"
import sandboxWrites from "../../migrations/0150_sandbox_writes.ts"
import peopleAuth from "../../migrations/0160_people_auth.ts"
import clusterSecret from "../../migrations/0170_cluster_secret.ts"
import webhookSuccessOnDelivery from "../../migrations/0180_webhook_success_on_delivery.ts"
import webhookFanOutClaims from "../../migrations/0190_webhook_fanout_claims.ts"
import writeFences from "../../migrations/0200_write_fences.ts"
import sandboxWriteAttempts from "../../migrations/0201_sandbox_write_attempts.ts"
import keyRoles from "../../migrations/0220_key_roles.ts"
import activity from "../../migrations/0221_activity.ts"
import requireTwoFactor from "../../migrations/0222_require_two_factor.ts"
import unipile from "../../migrations/0230_unipile.ts"
import workspaceNetwork from "../../migrations/0235_workspace_network.ts"
import jobsOpenWrites from "../../migrations/0240_jobs_open_writes.ts"
import oauth from "../../migrations/0250_oauth.ts"
import triageConfidence from "../../migrations/0260_triage_confidence.ts"
import passwordResets from "../../migrations/0280_password_resets.ts"
import webhookResponses from "../../migrations/0281_webhook_responses.ts"
import sandboxWriteRefusals from "../../migrations/0290_sandbox_write_refusals.ts"
import jobWakeUps from "../../migrations/0291_job_wake_ups.ts"
import claimsKeepNewestWindow from "../../migrations/0292_claims_keep_newest_window.ts"

/** Every migration, by `<number>_<name>`; add new ones at the end, never edit a landed one. */
export const migrations = {
  "0001_foundation": foundation,
  "0002_outbox": outbox,
  "0003_accounts": accounts,
  "0010_webhooks": webhooks,
  "0011_sandbox_clock": sandboxClock,
  "0020_sandbox_network": sandboxNetwork,
  "0021_sandbox_events": sandboxEvents,
  "0030_jobs": jobs,
  "0040_inbox": inbox,
  "0050_people": people,
  "0070_request_claims": requestClaims,
  "0080_workflows": workflows,
  "0130_webhook_subscriptions": webhookSubscriptions,
  "0131_workflow_wait_reason": workflowWaitReason,
  "0140_sandbox_accounts": sandboxAccounts,
  "0150_sandbox_writes": sandboxWrites,
  "0160_people_auth": peopleAuth,
  "0170_cluster_secret": clusterSecret,
  "0180_webhook_success_on_delivery": webhookSuccessOnDelivery,
  "0190_webhook_fanout_claims": webhookFanOutClaims,
  "0200_write_fences": writeFences,
  "0201_sandbox_write_attempts": sandboxWriteAttempts,
  "0220_key_roles": keyRoles,
  "0221_activity": activity,
  "0222_require_two_factor": requireTwoFactor,
  "0230_unipile": unipile,
  "0235_workspace_network": workspaceNetwork,
  "0240_jobs_open_writes": jobsOpenWrites,
  "0250_oauth": oauth,
  "0260_triage_confidence": triageConfidence,
  "0280_password_resets": passwordResets,
  "0281_webhook_responses": webhookResponses,
  "0290_sandbox_write_refusals": sandboxWriteRefusals,
  "0291_job_wake_ups": jobWakeUps,
  "0292_claims_keep_newest_window": claimsKeepNewestWindow
}

const migrator = Migrator.make({})({
  loader: Migrator.fromRecord(migrations),
  table: "outreach_migrations"
})

/**
 * Applies the pending migrations and logs what ran. In one transaction without the sessions' lock
 * and statement timeouts (`Database.sessionSettings`): a migration may rewrite a large table, and a
 * server starting beside another that migrates waits for the migrator's table lock as long as it takes.
 */
export const migrate = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return yield* sql.withTransaction(
    Effect.andThen(sql`SELECT set_config('lock_timeout', '0', true), set_config('statement_timeout', '0', true)`, migrator)
  )
}).pipe(
  Effect.tap((ran) =>
    ran.length === 0
      ? Effect.logDebug("database schema is up to date")
      : Effect.logInfo(`applied migrations: ${ran.map(([id, name]) => `${id}_${name}`).join(", ")}`)
  ),
  Effect.withSpan("Migrations.migrate")
)

/** A layer that migrates the database when built. */
export const layer = Layer.effectDiscard(migrate)
