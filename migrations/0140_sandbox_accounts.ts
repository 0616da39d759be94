/**
 * The sandbox network's own record of the accounts signed in to it: the
 * workspace, tier and products the service told it (`NetworkDriver.accountRecorded`),
 * on which its rules depend (the free tier's notes, InMail, Sales Navigator,
 * seats of one workspace), so the simulated network never reads the service's
 * `accounts` table. Filled once from that table for the accounts recorded
 * before it existed.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE sandbox_accounts (
      account_id text PRIMARY KEY,
      workspace_id text NOT NULL,
      tier text NOT NULL,
      products jsonb NOT NULL,
      removed boolean NOT NULL DEFAULT false
    )`
  yield* sql`CREATE INDEX sandbox_accounts_workspace ON sandbox_accounts (workspace_id) WHERE NOT removed`
  yield* sql`
    INSERT INTO sandbox_accounts (account_id, workspace_id, tier, products, removed)
    SELECT id::text, workspace_id::text, tier, products, removed_at IS NOT NULL FROM accounts`
})
