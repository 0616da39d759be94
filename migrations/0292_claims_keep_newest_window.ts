/**
 * A rate window never goes back: `claim_requests` (migration 0070) kept one row per bucket with
 * the window it counts, and a claim for any other window reset it to that window. A claim whose
 * server read the clock just before a minute began, committed after claims of the new minute (two
 * servers, or a request slow to reach the database), set the bucket back to the old minute with
 * its count at zero; the next claim of the new minute reset it again, and each reset granted a
 * fresh share: more than the limit went through in one minute (a Unipile seat met the provider's
 * 429s). Now a claim for a window older than the bucket's is counted in the bucket's window, the
 * newest any server has seen. The statement is otherwise the one of 0070.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE OR REPLACE FUNCTION claim_requests(
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
            WHEN w.window_start >= EXCLUDED.window_start THEN GREATEST(0, w.hits - p_returned) ELSE 0 END)),
          hits = CASE
            WHEN w.window_start >= EXCLUDED.window_start THEN GREATEST(0, w.hits - p_returned) ELSE 0 END
            + GREATEST(0, LEAST(p_wanted, p_limit - CASE
            WHEN w.window_start >= EXCLUDED.window_start THEN GREATEST(0, w.hits - p_returned) ELSE 0 END)),
          window_start = GREATEST(w.window_start, EXCLUDED.window_start)
        RETURNING w.hits, w.last_grant
      )
      SELECT counted.hits, counted.last_grant, principal.*
      FROM counted LEFT JOIN principal ON true;
    END
    $$`
})
