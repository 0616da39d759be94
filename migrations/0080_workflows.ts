/**
 * Workflows (trees of steps about one person, run for one account) and
 * automations (follow-up sequences, each person's run a workflow): their
 * records, the jobs their steps created, and what each one waits for. The
 * workflow engine's own state (executions, activity results, deferred
 * results) lives in the `cluster_*` tables `effect/cluster` creates.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE automations (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      name text NOT NULL,
      sequence jsonb NOT NULL,
      status text NOT NULL CHECK (status IN ('active', 'paused', 'stopped', 'finished')),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX automations_listing ON automations (workspace_id, created_at DESC, id DESC)`
  yield* sql`
    CREATE TABLE workflows (
      id uuid PRIMARY KEY,
      seq bigserial NOT NULL UNIQUE,
      execution_id text NOT NULL UNIQUE,
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      automation_id uuid REFERENCES automations (id) ON DELETE CASCADE,
      person text NOT NULL,
      provider_id text NOT NULL,
      steps jsonb NOT NULL,
      stop_on_reply boolean NOT NULL DEFAULT false,
      paused boolean NOT NULL DEFAULT false,
      status text NOT NULL,
      step text,
      waiting_for text,
      waiting_until timestamptz,
      outcome text,
      error jsonb,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      finished_at timestamptz
    )`
  yield* sql`CREATE INDEX workflows_listing ON workflows (workspace_id, seq)`
  yield* sql`CREATE INDEX workflows_automation ON workflows (automation_id) WHERE automation_id IS NOT NULL`
  yield* sql`
    CREATE TABLE workflow_jobs (
      workflow_id uuid NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
      path text NOT NULL,
      job_id uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (workflow_id, path)
    )`
  yield* sql`
    CREATE TABLE workflow_waits (
      execution_id text NOT NULL REFERENCES workflows (execution_id) ON DELETE CASCADE,
      deferred_name text NOT NULL,
      conditions jsonb NOT NULL,
      deadline_ms bigint,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (execution_id, deferred_name)
    )`
  yield* sql`
    CREATE TABLE workflow_log (
      id bigserial PRIMARY KEY,
      workflow_id uuid NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
      at timestamptz NOT NULL,
      path text,
      entry text NOT NULL
    )`
  yield* sql`CREATE INDEX workflow_log_workflow ON workflow_log (workflow_id, id)`
})
