/**
 * How sure triage was of each received message's class (0 to 1), so the
 * Daily brief marks the unsure ones and workflows stop on them (#35).
 * Messages recorded before have none (null) and count as sure, as they did.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE inbox_messages ADD COLUMN triage_confidence double precision`
})
