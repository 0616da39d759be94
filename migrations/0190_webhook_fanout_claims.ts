/**
 * A fan-out's claim on the deliveries it holds in memory without writing
 * them yet: the server that fans a batch of events out attempts the
 * deliveries it keeps first and writes each one once, with its outcome,
 * instead of inserting it and updating it after. The claim (the batch's
 * range of event `seq`s, until when) is what a crash leaves behind: once it
 * lapses, any server fans the range out again, writing the deliveries not
 * written yet as pending (their ids derive from the endpoint and event, so a
 * delivery attempted before the crash keeps its `svc-delivery`). A server
 * deletes its claim once every delivery it held is written.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE webhook_fanout_claims (
      id uuid PRIMARY KEY,
      first_seq bigint NOT NULL,
      last_seq bigint NOT NULL,
      lease_until timestamptz NOT NULL
    )`
})
