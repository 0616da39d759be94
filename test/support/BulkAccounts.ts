/**
 * Many accounts at once, written straight into the database (connecting
 * thousands through the API would take minutes): connected premium accounts
 * past their warm-up, in autopilot, open around the clock. For the Governor's
 * memory test and its benchmark.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** Inserts `count` such accounts into the workspace and returns their ids. */
export const insertAccounts = (workspaceId: string, count: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ id: string }>`
      INSERT INTO accounts (id, workspace_id, label, status, tier, connections, min_invite_quality,
        warmup_started_at, working_days, work_from, work_to, timezone, mode, connected_at, created_at, updated_at)
      SELECT gen_random_uuid(), ${workspaceId}, 'bulk ' || n, 'active', 'premium', 900, 0,
        now() - interval '30 days', '[1,2,3,4,5,6,7]'::jsonb, '00:00', '23:59', 'UTC', 'autopilot',
        now() - interval '30 days', now(), now()
      FROM generate_series(1, ${count}) AS n
      RETURNING id::text AS id`
    // What Accounts tells the network driver of each account it records (the sandbox keeps its own copy).
    yield* sql`
      INSERT INTO sandbox_accounts (account_id, workspace_id, tier, products)
      SELECT id::text, workspace_id::text, tier, products FROM accounts WHERE workspace_id = ${workspaceId}
      ON CONFLICT (account_id) DO NOTHING`
    return rows.map((row) => row.id)
  }).pipe(Effect.orDie)
