/**
 * An endpoint receives the events committed after it was created, decided by
 * the transaction snapshot taken when it was created: an event whose writer
 * the snapshot does not see as committed is the endpoint's. Comparing
 * timestamps let an endpoint created in the same instant as an event (common
 * on the sandbox's test clock) receive it. Endpoints created before this
 * column keep the timestamp rule (their snapshot is null).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE webhook_endpoints ADD COLUMN subscribed_at_snapshot pg_snapshot`
})
