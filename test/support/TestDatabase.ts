/**
 * A fresh, migrated database per test layer: in-memory PGlite by default, or a
 * new database on the PostgreSQL server named by `DATABASE_URL` (dropped at the
 * end). The same tests run on both.
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import * as Migrations from "../../src/platform/Migrations.ts"
import * as PgliteClient from "../../src/platform/PgliteClient.ts"

const serverUrl = process.env["DATABASE_URL"]

/** Which backend the tests run on. */
export const backend: "postgresql" | "pglite" = serverUrl === undefined ? "pglite" : "postgresql"

/**
 * A new, empty database on the PostgreSQL server at `url`, dropped when the
 * scope closes; returns its URL.
 */
export const freshPostgresUrl = (url: string) =>
  Effect.gen(function*() {
    const name = `outreach_test_${crypto.randomUUID().replaceAll("-", "")}`
    const admin = PgClient.layer({ url: Redacted.make(url) })
    const run = (statement: string) =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql.unsafe(statement)
      }).pipe(Effect.provide(admin), Effect.orDie)
    yield* Effect.acquireRelease(
      run(`CREATE DATABASE ${name}`),
      () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    )
    const target = new URL(url)
    target.pathname = `/${name}`
    return target.toString()
  })

/** The PostgreSQL server the tests run on, when `DATABASE_URL` is set. */
export const serverDatabaseUrl: string | undefined = serverUrl

const freshPostgresDatabase = (url: string): Layer.Layer<SqlClient.SqlClient> =>
  Layer.unwrap(
    Effect.map(freshPostgresUrl(url), (target) => PgClient.layer({ url: Redacted.make(target) }))
  ).pipe(Layer.orDie)

/** The backend's `SqlClient`, without migrations. */
export const client: Layer.Layer<SqlClient.SqlClient> = serverUrl === undefined
  ? Layer.orDie(PgliteClient.layer({ dataDir: undefined }))
  : freshPostgresDatabase(serverUrl)

/** A migrated, empty database. */
export const layer: Layer.Layer<SqlClient.SqlClient> = Layer.provideMerge(Layer.orDie(Migrations.layer), client)
