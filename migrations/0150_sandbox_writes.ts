/**
 * The sandbox network's record of each write it carried out, by the key the
 * service gave it (the job's id), written in the same transaction as the
 * write itself: after a crash the service asks whether a write happened
 * (`NetworkDriver.outcomeOf`), and the sandbox answers from here.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE sandbox_writes (
      key text PRIMARY KEY,
      account_id text NOT NULL,
      command text NOT NULL,
      result jsonb NOT NULL,
      at_ms bigint NOT NULL
    )`
})
