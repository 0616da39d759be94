/**
 * Webhook endpoints, their deliveries and every attempt, and the dispatcher's
 * cursor over the outbox.
 *
 * `outbox_events.writer_xid` records the transaction that wrote each event:
 * `seq` values are taken before commit, so a transaction still running can
 * commit a lower `seq` after a higher one is visible. The dispatcher only
 * moves its cursor over events whose writer is older than every running
 * transaction that may still write one (see the dispatcher's
 * `outboxWriterHorizon`), so no event is ever skipped.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE outbox_events ADD COLUMN writer_xid xid8 NOT NULL DEFAULT pg_current_xact_id()`
  yield* sql`
    CREATE TABLE webhook_endpoints (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      url text NOT NULL,
      events jsonb NOT NULL,
      mode text NOT NULL CHECK (mode IN ('fat', 'thin')),
      enabled boolean NOT NULL,
      secret text NOT NULL,
      previous_secret text,
      previous_secret_expires_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX webhook_endpoints_workspace ON webhook_endpoints (workspace_id, created_at)`
  yield* sql`
    CREATE TABLE webhook_dispatch_cursor (
      id smallint PRIMARY KEY CHECK (id = 1),
      last_seq bigint NOT NULL
    )`
  // Events recorded before webhooks existed have no endpoint to go to.
  yield* sql`INSERT INTO webhook_dispatch_cursor (id, last_seq) SELECT 1, COALESCE(MAX(seq), 0) FROM outbox_events`
  yield* sql`
    CREATE TABLE webhook_deliveries (
      id uuid PRIMARY KEY,
      seq bigserial NOT NULL,
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
      event_id uuid NOT NULL,
      event_type text NOT NULL,
      body text NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
      attempt_count integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz,
      lease_until timestamptz,
      created_at timestamptz NOT NULL,
      UNIQUE (endpoint_id, event_id)
    )`
  yield* sql`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`
  yield* sql`CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, seq DESC)`
  yield* sql`
    CREATE TABLE webhook_attempts (
      id bigserial PRIMARY KEY,
      delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
      trigger text NOT NULL CHECK (trigger IN ('automatic', 'manual')),
      attempted_at timestamptz NOT NULL,
      status_code integer,
      error text,
      duration_ms integer NOT NULL,
      succeeded boolean NOT NULL
    )`
  yield* sql`CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, id)`
})
