/**
 * The `workspaces` table: the one module with SQL on it (issue #19, one owner
 * per table). Statements only, each joining the caller's transaction when
 * there is one.
 *
 * It lives with the accounts, below `workspaces/` in the import rule
 * (`test/architecture/Layers.ts`), because the accounts need it: taking a seat
 * locks the workspace's row and reads how many seats it has, and the account
 * store must not import the services built above it. `Workspaces`
 * (`workspaces/Workspaces.ts`) keeps what a workspace is for the operator and
 * the bootstrap, on top of this.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { WorkspaceNetwork } from "../domain/WorkspaceNetwork.ts"
import { firstRow, Timestamp } from "../platform/Rows.ts"

export const Workspace = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  status: Schema.Literals(["active", "suspended"]),
  seatsTotal: Schema.Number,
  network: WorkspaceNetwork,
  createdAt: Timestamp
})
export type Workspace = typeof Workspace.Type
const decodeWorkspaces = Schema.decodeUnknownEffect(Schema.Array(Workspace))
const decodeNetworks = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ network: WorkspaceNetwork })))
const decodeIds = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ id: Schema.String })))
const decodeTotals = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ total: Schema.Number })))

/** A workspace's settable fields. */
export interface WorkspaceChange {
  readonly seatsTotal?: number
  readonly status?: Workspace["status"]
}

export class WorkspaceTable extends Context.Service<WorkspaceTable, {
  readonly insert: (workspace: {
    readonly id: string
    readonly name: string
    readonly seatsTotal: number
    readonly network: WorkspaceNetwork
    readonly nowIso: string
  }) => Effect.Effect<Workspace>
  /** Every workspace, oldest first. */
  readonly list: Effect.Effect<ReadonlyArray<Workspace>>
  readonly get: (id: string) => Effect.Effect<Workspace | undefined>
  /** The workspace's network; undefined when there is no such workspace. */
  readonly networkOf: (id: string) => Effect.Effect<WorkspaceNetwork | undefined>
  /** Those of `ids` that are active (one query for them all). */
  readonly activeOf: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlySet<string>>
  /** Writes the change; undefined when there is no such workspace. */
  readonly update: (id: string, change: WorkspaceChange) => Effect.Effect<Workspace | undefined>
  /** How many seats the workspace has in all (0 for none). */
  readonly seatsTotal: (id: string) => Effect.Effect<number>
  /**
   * The same, with the workspace's row locked for the rest of the transaction: connects of one
   * workspace wait for each other, so its seats are never oversold.
   */
  readonly lockSeatsTotal: (id: string) => Effect.Effect<number>
  /** Whether everyone in the workspace must sign in with two-factor. */
  readonly twoFactorRequired: (id: string) => Effect.Effect<boolean>
  readonly requireTwoFactor: (id: string, required: boolean) => Effect.Effect<void>
}>()("outreach/WorkspaceTable") {
  static readonly layer = Layer.effect(
    WorkspaceTable,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const columns = sql`id::text AS id, name, status, seats_total AS "seatsTotal", network, created_at AS "createdAt"`
      const first = <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
        firstRow(Effect.flatMap(query, decodeWorkspaces))
      const total = <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
        query.pipe(Effect.flatMap(decodeTotals), Effect.map((rows) => rows.at(0)?.total ?? 0), Effect.orDie)

      return WorkspaceTable.of({
        insert: (workspace) =>
          first(sql`
            INSERT INTO workspaces (id, name, seats_total, network, created_at)
            VALUES (${workspace.id}, ${workspace.name}, ${workspace.seatsTotal}, ${workspace.network}, ${workspace.nowIso}::timestamptz)
            RETURNING ${columns}`).pipe(
            Effect.flatMap((row) => row === undefined ? Effect.die(new Error("INSERT returned no row")) : Effect.succeed(row))
          ),
        list: sql`SELECT ${columns} FROM workspaces ORDER BY created_at, id`.pipe(
          Effect.flatMap(decodeWorkspaces),
          Effect.orDie
        ),
        get: (id) => first(sql`SELECT ${columns} FROM workspaces WHERE id = ${id}`),
        networkOf: (id) =>
          sql`SELECT network FROM workspaces WHERE id = ${id}`.pipe(
            Effect.flatMap(decodeNetworks),
            Effect.map((rows) => rows.at(0)?.network),
            Effect.orDie
          ),
        activeOf: (ids) =>
          ids.length === 0 ? Effect.succeed(new Set<string>()) : sql`
            SELECT id::text AS id FROM workspaces WHERE id IN ${sql.in(ids)} AND status = 'active'`.pipe(
            Effect.flatMap(decodeIds),
            Effect.map((rows) => new Set(rows.map((row) => row.id))),
            Effect.orDie
          ),
        update: (id, change) =>
          first(sql`UPDATE workspaces SET ${
            sql.update({
              ...(change.seatsTotal === undefined ? {} : { seats_total: change.seatsTotal }),
              ...(change.status === undefined ? {} : { status: change.status })
            })
          } WHERE id = ${id} RETURNING ${columns}`),
        seatsTotal: (id) => total(sql`SELECT seats_total AS total FROM workspaces WHERE id = ${id}`),
        lockSeatsTotal: (id) => total(sql`SELECT seats_total AS total FROM workspaces WHERE id = ${id} FOR UPDATE`),
        twoFactorRequired: (id) =>
          sql`SELECT id::text AS id FROM workspaces WHERE id = ${id} AND require_two_factor`.pipe(
            Effect.flatMap(decodeIds),
            Effect.map((rows) => rows.length > 0),
            Effect.orDie
          ),
        requireTwoFactor: (id, required) =>
          sql`UPDATE workspaces SET require_two_factor = ${required} WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)
      })
    })
  )
}
