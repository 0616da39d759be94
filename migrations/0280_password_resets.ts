/**
 * Password reset links (issue #32): an owner makes a one-time link for a
 * teammate, who sets a new password on it. Only the link token's SHA-256 is
 * kept, as for sessions and invitations; a link works once, until it expires,
 * and a newer link for the same person replaces it.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE password_resets (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      hash text NOT NULL UNIQUE,
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`
  yield* sql`CREATE INDEX password_resets_user ON password_resets (user_id) WHERE used_at IS NULL`
})
