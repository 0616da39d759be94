/**
 * An owner can require two-factor sign-in for everyone in the workspace
 * (issue #32): a person without it is sent to set it up before any other page.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE workspaces ADD COLUMN require_two_factor boolean NOT NULL DEFAULT false`
})
