/**
 * A `SqlClient` for plain reads outside any transaction: `SELECT`s that take
 * no row lock. On a PostgreSQL server it is a multiplexed pool of its own
 * (`Database.readSettings`), so concurrent reads share a few connections and go
 * out pipelined; on PGlite it is the one client. A statement that writes,
 * locks or belongs to a transaction never goes here: it could wait for a lock
 * while the reads pipelined behind it on the same connection wait for it.
 */
import { Context, Effect, Option } from "effect"
import type { SqlClient } from "effect/sql"

export class ReadClient extends Context.Service<ReadClient, SqlClient.SqlClient>()("outreach/ReadClient") {
  /** The `ReadClient`, or `sql` itself when none is provided (tests, embedders). */
  static readonly orDefault = (sql: SqlClient.SqlClient) =>
    Effect.map(Effect.serviceOption(ReadClient), Option.getOrElse(() => sql))
}
