/**
 * The durable wake-ups of accounts that left memory (issue #36): an account whose writes wait for an
 * instant (working hours, a budget's next period, pacing, warm-up) leaves memory, and its wake-up is the
 * wait's end already recorded on its jobs (`waiting_until` of a `scheduled` job). Every runner looks each
 * second for those that came, on its own shards; this index keeps that look to the ones due.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX jobs_wake_ups ON jobs (waiting_until, account_id) WHERE status = 'scheduled'`
})
