/**
 * Resolving a credential and claiming a slice of its rate window as database
 * functions. PL/pgSQL keeps the plan of the claim for the session, so a claim
 * is not planned again each time: on embedded PGlite planning was half of a
 * claim's cost. The statement itself is the one `auth/Credentials.ts` sent.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Keys act as owner; sessions carry their person's role. Only active workspaces admit.
  yield* sql`
    CREATE FUNCTION credential_principal(p_hash text, p_now timestamptz)
    RETURNS TABLE (
      kind text, workspace_id text, credential_id text, key_name text,
      user_id text, email text, user_name text, role text
    )
    LANGUAGE sql STABLE AS $$
      SELECT 'key', k.workspace_id::text, k.id::text, k.name, NULL::text, NULL::text, NULL::text, 'owner'
      FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
      WHERE k.hash = p_hash AND k.revoked_at IS NULL AND w.status = 'active'
      UNION ALL
      SELECT 'session', u.workspace_id::text, s.id::text, '', u.id::text, u.email, u.name, u.role
      FROM sessions s JOIN users u ON u.id = s.user_id JOIN workspaces w ON w.id = u.workspace_id
      WHERE s.hash = p_hash AND s.revoked_at IS NULL AND s.expires_at > p_now AND w.status = 'active'
    $$`
  // Claims up to p_wanted requests of the caller's window (the credential's when p_hash resolves,
  // else p_address's), after giving back p_returned unused ones of the same minute; never takes
  // the window past p_limit, so all servers together admit at most p_limit a minute. Records a
  // key's last use at most once a minute.
  yield* sql`
    CREATE FUNCTION claim_requests(
      p_hash text, p_now timestamptz, p_address text, p_window bigint,
      p_wanted integer, p_limit integer, p_returned integer
    )
    RETURNS TABLE (
      hits integer, granted integer, kind text, workspace_id text, credential_id text,
      key_name text, user_id text, email text, user_name text, role text
    )
    LANGUAGE plpgsql AS $$
    #variable_conflict use_column
    BEGIN
      RETURN QUERY
      WITH principal AS (SELECT * FROM credential_principal(p_hash, p_now) LIMIT 1),
      touch AS (
        UPDATE api_keys SET last_used_at = p_now
        WHERE hash = p_hash AND revoked_at IS NULL
          AND (last_used_at IS NULL OR last_used_at < p_now - interval '1 minute')
        RETURNING id
      ),
      counted AS (
        INSERT INTO rate_limit_windows AS w (bucket, window_start, hits, last_grant)
        VALUES (
          COALESCE((SELECT 'credential:' || credential_id FROM principal), p_address),
          p_window, LEAST(p_wanted, p_limit), LEAST(p_wanted, p_limit))
        ON CONFLICT (bucket) DO UPDATE SET
          last_grant = GREATEST(0, LEAST(p_wanted, p_limit - CASE
            WHEN w.window_start = EXCLUDED.window_start THEN GREATEST(0, w.hits - p_returned) ELSE 0 END)),
          hits = CASE
            WHEN w.window_start = EXCLUDED.window_start THEN GREATEST(0, w.hits - p_returned) ELSE 0 END
            + GREATEST(0, LEAST(p_wanted, p_limit - CASE
            WHEN w.window_start = EXCLUDED.window_start THEN GREATEST(0, w.hits - p_returned) ELSE 0 END)),
          window_start = EXCLUDED.window_start
        RETURNING w.hits, w.last_grant
      )
      SELECT counted.hits, counted.last_grant, principal.*
      FROM counted LEFT JOIN principal ON true;
    END
    $$`
})
