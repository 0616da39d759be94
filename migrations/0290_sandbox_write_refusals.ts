/**
 * The sandbox network keeps why it refused a write by its rules (already connected, a note
 * quota...), beside the attempt (issue #29): a runner that lost the answer asks `outcomeOf`, which
 * answers that the write reached the network and was refused, with the network's error, instead of
 * "did not happen" (it was then sent again, and refused again: one write attempted twice).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE sandbox_writes ADD COLUMN refusal jsonb`
})
