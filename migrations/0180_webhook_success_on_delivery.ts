/**
 * A delivery's automatic attempt that succeeded is kept on the delivery row
 * itself (when, the status, how long), written by the same update that marks
 * it `succeeded`: the common delivery, one that succeeds, is then one row
 * updated rather than a row updated and an attempt row inserted (with its
 * foreign-key check) beside it. Failed and manual attempts stay in
 * `webhook_attempts`; the history shows both, oldest first.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE webhook_deliveries
      ADD COLUMN succeeded_at timestamptz,
      ADD COLUMN succeeded_status integer,
      ADD COLUMN succeeded_duration_ms integer`
})
