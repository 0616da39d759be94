/**
 * Jobs (every command), their approvals, the budget each job spent, the
 * Idempotency-Key records of job-creating requests, and the pacing gate of
 * each account's writes.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE jobs (
      id uuid PRIMARY KEY,
      seq bigserial NOT NULL UNIQUE,
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      kind text NOT NULL,
      is_write boolean NOT NULL,
      origin text NOT NULL DEFAULT 'api',
      status text NOT NULL,
      input jsonb NOT NULL,
      result jsonb,
      error jsonb,
      eta timestamptz,
      waiting_reason text,
      waiting_until timestamptz,
      approval_id uuid,
      attempt_started_at timestamptz,
      created_at timestamptz NOT NULL,
      started_at timestamptz,
      finished_at timestamptz
    )`
  yield* sql`CREATE INDEX jobs_open ON jobs (account_id, seq) WHERE status IN ('queued', 'scheduled', 'running')`
  yield* sql`CREATE INDEX jobs_listing ON jobs (workspace_id, seq)`
  yield* sql`CREATE INDEX jobs_account_listing ON jobs (account_id, seq)`
  yield* sql`
    CREATE TABLE approvals (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      job_id uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
      kind text NOT NULL,
      target text,
      text text,
      status text NOT NULL,
      reason text,
      decided_by text,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      decided_at timestamptz
    )`
  yield* sql`CREATE INDEX approvals_listing ON approvals (workspace_id, created_at, id)`
  yield* sql`CREATE INDEX approvals_expiry ON approvals (expires_at) WHERE status = 'pending'`
  yield* sql`
    CREATE TABLE budget_spend (
      account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      category text NOT NULL,
      units integer NOT NULL CHECK (units >= 0),
      job_id uuid,
      spent_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX budget_spend_account ON budget_spend (account_id, spent_at)`
  yield* sql`
    CREATE TABLE idempotency_keys (
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      endpoint text NOT NULL,
      key text NOT NULL,
      body_hash text NOT NULL,
      state text NOT NULL,
      response_status integer,
      response_body jsonb,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (workspace_id, endpoint, key)
    )`
  yield* sql`CREATE INDEX idempotency_expiry ON idempotency_keys (expires_at)`
  yield* sql`ALTER TABLE accounts ADD COLUMN writes_not_before timestamptz`
})
