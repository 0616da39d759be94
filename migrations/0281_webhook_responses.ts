/**
 * What a webhook endpoint answered (issue #32): the start of the response's
 * body, kept with each attempt, and on the delivery row for the automatic
 * attempt that succeeded (kept there since migrations/0180), so the dashboard
 * shows a delivery's payload beside the response it got.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE webhook_attempts ADD COLUMN response_body text`
  yield* sql`ALTER TABLE webhook_deliveries ADD COLUMN succeeded_response text`
})
