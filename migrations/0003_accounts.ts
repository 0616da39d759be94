/**
 * Connected accounts (seats) with their settings, health and warm-up, and the
 * per-account limit overrides of `PUT /limits`.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE accounts (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      label text NOT NULL,
      status text NOT NULL,
      resume_status text,
      tier text NOT NULL DEFAULT 'free',
      products jsonb NOT NULL DEFAULT '[]',
      health_level text NOT NULL DEFAULT 'green',
      health_reason text,
      paused_until timestamptz,
      reads_only_until timestamptz,
      restricted_at timestamptz,
      connections integer,
      min_invite_quality integer NOT NULL DEFAULT 30,
      auto_withdraw_days integer DEFAULT 21,
      warmup_started_at timestamptz,
      warmup_start_day integer NOT NULL DEFAULT 1,
      working_days jsonb NOT NULL,
      work_from text NOT NULL,
      work_to text NOT NULL,
      timezone text NOT NULL,
      off_hours_policy text NOT NULL DEFAULT 'queue',
      mode text NOT NULL DEFAULT 'approve',
      link_hash text,
      link_url text,
      link_expires_at timestamptz,
      checkpoint text,
      connected_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      removed_at timestamptz
    )`
  yield* sql`CREATE INDEX accounts_workspace ON accounts (workspace_id, created_at) WHERE removed_at IS NULL`
  yield* sql`CREATE UNIQUE INDEX accounts_link ON accounts (link_hash) WHERE link_hash IS NOT NULL`
  yield* sql`
    CREATE TABLE account_limits (
      account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      category text NOT NULL,
      period text NOT NULL,
      max_value integer NOT NULL CHECK (max_value >= 0),
      is_enabled boolean NOT NULL,
      PRIMARY KEY (account_id, category, period)
    )`
})
