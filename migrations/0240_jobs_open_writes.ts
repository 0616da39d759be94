/**
 * The forecast reads an account's writes not finished, those awaiting
 * approval included, oldest first: an index of those alone, so an account
 * with a long history of finished jobs costs no more than one without.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE INDEX jobs_open_writes ON jobs (account_id, seq)
    WHERE is_write AND status IN ('queued', 'scheduled', 'awaiting_approval', 'running')`
})
