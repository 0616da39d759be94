/**
 * API keys get a role, chosen when made (`domain/Permissions.ts`). Keys made
 * before this act as owners, as they always did, so they keep what they could
 * do. The credential's lookup reads the key's role instead of saying `owner`.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE api_keys ADD COLUMN role text NOT NULL DEFAULT 'owner'
      CHECK (role IN ('owner', 'admin', 'member', 'read_only'))`
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
    $$`
})
