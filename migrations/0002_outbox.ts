/**
 * The outbox of events, written in the same transaction as the change each reports.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE outbox_events (
      seq bigserial PRIMARY KEY,
      id uuid NOT NULL UNIQUE,
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      type text NOT NULL,
      data jsonb NOT NULL,
      created_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX outbox_events_workspace ON outbox_events (workspace_id, seq)`
})
