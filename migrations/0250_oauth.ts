/**
 * Sign-in for assistants (OAuth 2.1 for `/mcp`): registered clients, the
 * short-lived authorization codes, a person's grants to a client, and the
 * grants' access and refresh tokens (SHA-256 hashes only). An access token
 * resolves, like a key or a session, through `credential_principal`: as the
 * person who granted it, with their role of the moment, while the grant is not
 * revoked. Its `credential_id` is the grant's id, so revoking a grant drops
 * what every server holds for it and the rate window is the grant's. Keys keep
 * the role 0220 gave them.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE oauth_clients (
      id text PRIMARY KEY,
      name text NOT NULL,
      redirect_uris jsonb NOT NULL,
      created_at timestamptz NOT NULL
    )`
  yield* sql`
    CREATE TABLE oauth_grants (
      id uuid PRIMARY KEY,
      client_id text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL,
      last_used_at timestamptz,
      revoked_at timestamptz
    )`
  yield* sql`CREATE INDEX oauth_grants_user ON oauth_grants (user_id, created_at DESC)`
  yield* sql`
    CREATE TABLE oauth_codes (
      hash text PRIMARY KEY,
      grant_id uuid NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
      redirect_uri text NOT NULL,
      code_challenge text NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`
  yield* sql`
    CREATE TABLE oauth_tokens (
      hash text PRIMARY KEY,
      grant_id uuid NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`
  yield* sql`CREATE INDEX oauth_tokens_grant ON oauth_tokens (grant_id)`
  // As migration 0070's, with assistants: their client's name in key_name, the grant as credential.
  yield* sql`
    CREATE OR REPLACE FUNCTION credential_principal(p_hash text, p_now timestamptz)
    RETURNS TABLE (
      kind text, workspace_id text, credential_id text, key_name text,
      user_id text, email text, user_name text, role text
    )
    LANGUAGE sql STABLE AS $$
      SELECT 'key', k.workspace_id::text, k.id::text, k.name, NULL::text, NULL::text, NULL::text, k.role
      FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
      WHERE k.hash = p_hash AND k.revoked_at IS NULL AND w.status = 'active'
      UNION ALL
      SELECT 'session', u.workspace_id::text, s.id::text, '', u.id::text, u.email, u.name, u.role
      FROM sessions s JOIN users u ON u.id = s.user_id JOIN workspaces w ON w.id = u.workspace_id
      WHERE s.hash = p_hash AND s.revoked_at IS NULL AND s.expires_at > p_now AND w.status = 'active'
      UNION ALL
      SELECT 'assistant', u.workspace_id::text, g.id::text, c.name, u.id::text, u.email, u.name, u.role
      FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id JOIN oauth_clients c ON c.id = g.client_id
        JOIN users u ON u.id = g.user_id JOIN workspaces w ON w.id = u.workspace_id
      WHERE t.hash = p_hash AND t.kind = 'access' AND t.expires_at > p_now AND g.revoked_at IS NULL
        AND w.status = 'active'
    $$`
})
