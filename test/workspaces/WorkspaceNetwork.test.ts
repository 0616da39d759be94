/**
 * A workspace's network (migration 0235): the workspaces that existed before it get the network
 * their server ran on (`OUTREACH_NETWORK`, `unipile` being live); a new one gets the one chosen, or
 * the server's default.
 */
import { assert, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import workspaceNetwork from "../../migrations/0235_workspace_network.ts"
import { WorkspaceNetwork } from "../../src/domain/WorkspaceNetwork.ts"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import * as TestDatabase from "../support/TestDatabase.ts"

const decodeNetworks = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ name: Schema.String, network: WorkspaceNetwork })))

const services = Workspaces.layer.pipe(
  Layer.provideMerge(AppConfig.layerWith({ network: "unipile" })),
  Layer.provideMerge(TestDatabase.layer)
)

layer(services)("a workspace's network", (it) => {
  it.effect("existing workspaces get the server's OUTREACH_NETWORK at migration; new ones its default unless chosen", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // As before the migration: no column, two workspaces.
      yield* sql`ALTER TABLE workspaces DROP COLUMN network`
      yield* sql`INSERT INTO workspaces (id, name, seats_total, created_at) VALUES (${crypto.randomUUID()}, 'Old A', 5, now()), (${crypto.randomUUID()}, 'Old B', 5, now())`
      yield* workspaceNetwork.pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: { OUTREACH_NETWORK: "unipile" } }))))
      const migrated = yield* decodeNetworks(yield* sql`SELECT name, network FROM workspaces ORDER BY name`)
      assert.deepStrictEqual(migrated, [{ name: "Old A", network: "live" }, { name: "Old B", network: "live" }])
      const refused = yield* Effect.flip(sql`UPDATE workspaces SET network = 'moon'`)
      assert.strictEqual(refused._tag, "SqlError")

      // The server's default (OUTREACH_NETWORK=unipile: live; creation is then checked for the settings).
      const workspaces = yield* Workspaces
      const defaulted = yield* Effect.flip(workspaces.create({ name: "Default" }))
      assert.include(defaulted.message, "needs UNIPILE_DSN and UNIPILE_API_KEY")
      const chosen = yield* workspaces.create({ name: "Chosen", network: "sandbox" })
      assert.strictEqual(chosen.workspace.network, "sandbox")
      assert.strictEqual((yield* workspaces.get(chosen.workspace.id)).network, "sandbox")
    }))
})
