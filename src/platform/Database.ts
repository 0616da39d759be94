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

/**
 * Session settings for every connection to a PostgreSQL server. JIT compilation is off: the
 * service's statements are short, and a server with JIT enabled (the default where LLVM is
 * installed) compiled the workflow wait loop's statement on every tick, a second of the
 * backend's CPU for a few milliseconds of work.
 */
export const sessionSettings: Readonly<Record<string, string>> = { jit: "off" }

/**
 * The PostgreSQL client's settings besides its address. Statements of concurrent fibers share
 * pooled connections and go out pipelined, several in one write (`multiplex`); transactions,
 * listeners and reserved connections stay exclusive. An open job's read is one statement, and its
 * socket write and read were about a third of that request's CPU: with 50 callers, multiplexing
 * took `GET /v1/jobs/{id}` of an open job from 162 to 127 µs of CPU a request (docs/performance.md).
 */
export const clientSettings = { startupParameters: sessionSettings, multiplex: true } as const

/** `SqlClient` for the configured backend, migrated. */
export const layer = Layer.unwrap(Effect.gen(function*() {
  const config = yield* AppConfig
  const client = Option.match(config.databaseUrl, {
    onNone: () =>
      PgliteClient.layer({ dataDir: config.dataDir }).pipe(
        Layer.provide(Layer.effectDiscard(DataDirLock.acquire(config.dataDir)))
      ),
    onSome: (url) => PgClient.layer({ url, applicationName: config.serviceName, ...clientSettings })
  })
  yield* Effect.logInfo(
    Option.isSome(config.databaseUrl)
      ? "storage: PostgreSQL server (DATABASE_URL)"
      : `storage: embedded PGlite in ${config.dataDir}`
  )
  return Layer.provideMerge(Migrations.layer, client)
}))
