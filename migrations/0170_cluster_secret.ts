/**
 * The secret the service's runners show each other: every server of one
 * database reads the same one, so the runner endpoint answers only its peers
 * and the operator configures nothing. The first runner to start writes it.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE cluster_secret (
      id boolean PRIMARY KEY DEFAULT true CHECK (id),
      secret text NOT NULL
    )`
})
