/**
 * Each workspace's network (`sandbox` or `live`, `domain/WorkspaceNetwork.ts`), chosen when it is
 * created. The workspaces that exist get the network the server ran on until now: the one
 * `OUTREACH_NETWORK` names (`unipile` is `live`), read here from the same environment.
 */
import { Config, Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const driver = yield* Config.Literals(["sandbox", "unipile"], "OUTREACH_NETWORK").pipe(
    Config.withDefault<"sandbox" | "unipile">("sandbox")
  )
  yield* sql`ALTER TABLE workspaces ADD COLUMN network text CHECK (network IN ('sandbox', 'live'))`
  yield* sql`UPDATE workspaces SET network = ${driver === "unipile" ? "live" : "sandbox"}`
  yield* sql`ALTER TABLE workspaces ALTER COLUMN network SET NOT NULL`
  // A row written without one (an operator's SQL, a test's fixture) is a sandbox: the safe side.
  yield* sql`ALTER TABLE workspaces ALTER COLUMN network SET DEFAULT 'sandbox'`
})
