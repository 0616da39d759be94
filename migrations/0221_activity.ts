/**
 * The activity log (issue #32): who approved, rejected or edited a write,
 * changed a seat's settings, mode or limits, paused, resumed, connected or
 * disconnected it, invited, removed or changed the role of a teammate, created
 * or revoked a key, and when; with the before and after of settings. Paged
 * newest first by `seq`.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE activity (
      seq bigserial PRIMARY KEY,
      id uuid NOT NULL UNIQUE,
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      at timestamptz NOT NULL,
      actor text NOT NULL,
      action text NOT NULL,
      resource_type text NOT NULL,
      resource_id text NOT NULL,
      summary text NOT NULL,
      before jsonb,
      after jsonb
    )`
  yield* sql`CREATE INDEX activity_workspace ON activity (workspace_id, seq DESC)`
})
