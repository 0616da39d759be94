/**
 * People signing in to the dashboard: passwords, two-factor settings and
 * recovery codes, the failed-attempt lockout, the sign-in step between the
 * password and the code, and invitations to join a workspace.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // scrypt hash with its parameters (people-auth/Password.ts); null: the person cannot sign in with a password yet.
  yield* sql`ALTER TABLE users ADD COLUMN password_hash text`
  // The TOTP secret in use (base32) once confirmed, and the one shown during set-up until then.
  yield* sql`ALTER TABLE users ADD COLUMN totp_secret text`
  yield* sql`ALTER TABLE users ADD COLUMN totp_pending_secret text`
  yield* sql`ALTER TABLE users ADD COLUMN totp_enabled_at timestamptz`
  // The last time step accepted: a code is never accepted twice.
  yield* sql`ALTER TABLE users ADD COLUMN totp_last_step bigint`
  yield* sql`CREATE INDEX users_email ON users (lower(email))`
  yield* sql`CREATE INDEX sessions_user ON sessions (user_id)`
  yield* sql`
    CREATE TABLE recovery_codes (
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      hash text NOT NULL,
      created_at timestamptz NOT NULL,
      used_at timestamptz,
      PRIMARY KEY (user_id, hash)
    )`
  // Failed attempts by email (known or not, so a lockout says nothing about who has an account).
  yield* sql`
    CREATE TABLE sign_in_failures (
      email text PRIMARY KEY,
      failures integer NOT NULL,
      last_failure_at timestamptz NOT NULL,
      locked_until timestamptz
    )`
  // A password was right and a two-factor code is still to come.
  yield* sql`
    CREATE TABLE sign_in_challenges (
      hash text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    )`
  yield* sql`
    CREATE TABLE team_invitations (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      email text NOT NULL,
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
      hash text NOT NULL UNIQUE,
      invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      accepted_at timestamptz,
      revoked_at timestamptz
    )`
  yield* sql`CREATE INDEX team_invitations_workspace ON team_invitations (workspace_id, created_at DESC)`
})
