/**
 * The one database: embedded PostgreSQL (PGlite) in `DATA_DIR` when no
 * `DATABASE_URL` is set, a PostgreSQL server otherwise. Both get the same
 * migrations and the same SQL.
 *
 * @since 1.0.0
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Option } from "effect"
import { AppConfig } from "./AppConfig.ts"
import * as DataDirLock from "./DataDirLock.ts"
import * as Migrations from "./Migrations.ts"
import * as PgliteClient from "./PgliteClient.ts"

/** `SqlClient` for the configured backend, migrated. */
export const layer = Layer.unwrap(Effect.gen(function*() {
  const config = yield* AppConfig
  const client = Option.match(config.databaseUrl, {
    onNone: () =>
      PgliteClient.layer({ dataDir: config.dataDir }).pipe(
        Layer.provide(Layer.effectDiscard(DataDirLock.acquire(config.dataDir)))
      ),
    onSome: (url) => PgClient.layer({ url, applicationName: config.serviceName })
  })
  yield* Effect.logInfo(
    Option.isSome(config.databaseUrl)
      ? "storage: PostgreSQL server (DATABASE_URL)"
      : `storage: embedded PGlite in ${config.dataDir}`
  )
  return Layer.provideMerge(Migrations.layer, client)
}))
