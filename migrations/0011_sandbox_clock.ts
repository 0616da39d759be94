/**
 * The sandbox's test clock (`OUTREACH_CLOCK=test`): the one instant it shows,
 * saved on every move so a restart resumes there instead of jumping back.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE sandbox_clock (
      id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
      now_ms bigint NOT NULL,
      updated_at timestamptz NOT NULL
    )`
})
