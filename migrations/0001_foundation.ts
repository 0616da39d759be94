/**
 * Workspaces, people, API keys, sessions and the shared rate-limit windows.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE workspaces (
      id uuid PRIMARY KEY,
      name text NOT NULL,
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
      seats_total integer NOT NULL DEFAULT 5 CHECK (seats_total >= 0),
      created_at timestamptz NOT NULL
    )`
  yield* sql`
    CREATE TABLE users (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      email text NOT NULL,
      name text NOT NULL,
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
      created_at timestamptz NOT NULL,
      UNIQUE (workspace_id, email)
    )`
  yield* sql`
    CREATE TABLE api_keys (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      name text NOT NULL,
      prefix text NOT NULL,
      hash text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL,
      last_used_at timestamptz,
      revoked_at timestamptz
    )`
  yield* sql`CREATE INDEX api_keys_workspace ON api_keys (workspace_id, created_at DESC)`
  yield* sql`
    CREATE TABLE sessions (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      hash text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz
    )`
  yield* sql`
    CREATE TABLE rate_limit_windows (
      bucket text PRIMARY KEY,
      window_start bigint NOT NULL,
      hits integer NOT NULL,
      last_grant integer NOT NULL
    )`
})
