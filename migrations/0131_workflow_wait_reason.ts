/**
 * What a waiting workflow waits for, as a machine-readable reason beside the
 * words (`waiting_for`): `job`, `delay`, `condition` or `resume`. Rows written
 * before it have none; the API derives it from the words there.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE workflows ADD COLUMN waiting_reason text`
})
