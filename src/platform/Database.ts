/**
 * The one database: embedded PostgreSQL (PGlite) in `DATA_DIR` when no
 * `DATABASE_URL` is set, a PostgreSQL server otherwise. Both get the same
 * migrations and the same SQL.
 *
 * On a PostgreSQL server, where other servers (peers) share the rows, no
 * statement waits for a peer without end, and no statement that may wait
 * shares a connection with others (see {@link sessionSettings} and
 * `ReadClient`). Embedded PGlite is one process on one connection: no
 * other session can hold a lock there, so it needs neither.
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Option, type Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
import { SqlClient } from "effect/sql"
import { AppConfig } from "./AppConfig.ts"
import * as DataDirLock from "./DataDirLock.ts"
import * as Migrations from "./Migrations.ts"
import * as PgliteClient from "./PgliteClient.ts"
import { ReadClient } from "./ReadClient.ts"

/**
 * Session settings for every connection to a PostgreSQL server, sent at connection start.
 *
 * - `jit: off`: the service's statements are short, and a server with JIT enabled (the default
 *   where LLVM is installed) compiled the workflow wait loop's statement on every tick, a second
 *   of the backend's CPU for a few milliseconds of work.
 * - `lock_timeout: 5s`: a statement that waits longer for a row another session holds (a peer
 *   frozen in a transaction, an operator's open `psql`) fails with SQLSTATE 55P03 instead of
 *   waiting on: a request answers 503 `unavailable` with `retry-after` (`Causes.isDatabaseBusy`),
 *   a job's claim or finish is tried again. The service's own transactions hold rows for
 *   milliseconds, so 5 s is only ever met behind something stuck.
 * - `statement_timeout: 30s`: no statement of the service runs near that; one that does is
 *   stuck (migrations lift it, `Migrations.ts`).
 * - `idle_in_transaction_session_timeout: 15s`: a session left inside a transaction with nothing
 *   to run (its process frozen or cut off mid-transaction) is ended by PostgreSQL, and the row
 *   locks it held go with it, so a frozen peer holds nobody up for longer than that.
 */
export const sessionSettings: Readonly<Record<string, string>> = {
  jit: "off",
  lock_timeout: "5s",
  statement_timeout: "30s",
  idle_in_transaction_session_timeout: "15s"
}

/**
 * The PostgreSQL client's settings besides its address. Every statement has a connection to itself
 * (no `multiplex`): a statement waiting for a lock holds up only itself, never the statements of
 * other requests pipelined behind it on a shared connection (a job row locked for 12 s held up
 * unrelated requests for 10 s that way). Plain reads that never wait for a lock are multiplexed on
 * the `ReadClient`'s pool instead.
 */
export const clientSettings = { startupParameters: sessionSettings, maxConnections: 20 } as const

/**
 * The read pool's settings: statements of concurrent fibers share its few connections and go out
 * pipelined, several in one write. An open job's read is one statement, and its socket write and
 * read were about a third of that request's CPU: with 50 callers, multiplexing took
 * `GET /v1/jobs/{id}` of an open job from 162 to 127 µs of CPU a request (docs/performance.md).
 */
export const readSettings = { startupParameters: sessionSettings, multiplex: true, maxConnections: 4 } as const

/** A multiplexed read pool on the PostgreSQL server at `url`. */
const readPool = (url: Redacted.Redacted<string>, applicationName: string) =>
  Layer.effect(
    ReadClient,
    PgClient.make({ url, applicationName, ...readSettings })
  ).pipe(Layer.provide(Reactivity.layer))

/** `SqlClient` for the configured backend, migrated, with its `ReadClient`. */
export const layer = Layer.unwrap(Effect.gen(function*() {
  const config = yield* AppConfig
  const client = Option.match(config.databaseUrl, {
    onNone: () =>
      Layer.effect(ReadClient, SqlClient.SqlClient).pipe(
        Layer.provideMerge(PgliteClient.layer({ dataDir: config.dataDir })),
        Layer.provide(Layer.effectDiscard(DataDirLock.acquire(config.dataDir)))
      ),
    onSome: (url) =>
      Layer.merge(
        PgClient.layer({ url, applicationName: config.serviceName, ...clientSettings }),
        readPool(url, config.serviceName)
      )
  })
  yield* Effect.logInfo(
    Option.isSome(config.databaseUrl)
      ? "storage: PostgreSQL server (DATABASE_URL)"
      : `storage: embedded PGlite in ${config.dataDir}`
  )
  return Layer.provideMerge(Migrations.layer, client)
}))
