/**
 * A fresh, migrated database per test layer: in-memory PGlite by default, or a
 * new database on the PostgreSQL server named by `DATABASE_URL` (dropped at the
 * end). The same tests run on both.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PgClient } from "@effect/sql-pg"
import { Clock, Effect, Layer, Redacted, type Scope } from "effect"
import { SqlClient } from "effect/sql"
import * as Database from "../../src/platform/Database.ts"
import * as Migrations from "../../src/platform/Migrations.ts"
import * as PgliteClient from "../../src/platform/PgliteClient.ts"

const serverUrl = process.env["DATABASE_URL"]

/**
 * A PostgreSQL pool on real time. The pool's idle timeout runs on the `Clock`;
 * under a test clock a jump of days would expire every connection at once
 * (as production builds the database below the sandbox clock, it never sees it).
 */
export const pgLayer = (url: string) =>
  PgClient.layer({ url: Redacted.make(url), ...Database.clientSettings }).pipe(
    Layer.provide(Layer.succeed(Clock.Clock, Clock.Clock.defaultValue()))
  )

/** Which backend the tests run on. */
export const backend: "postgresql" | "pglite" = serverUrl === undefined ? "pglite" : "postgresql"

/**
 * A new, empty database on the PostgreSQL server at `url`, dropped when the
 * scope closes; returns its URL.
 */
export const freshPostgresUrl = (url: string) =>
  Effect.gen(function*() {
    const name = `outreach_test_${crypto.randomUUID().replaceAll("-", "")}`
    const admin = pgLayer(url)
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
    Effect.map(freshPostgresUrl(url), (target) => pgLayer(target))
  ).pipe(Layer.orDie)

/** The backend's `SqlClient`, without migrations. */
export const client: Layer.Layer<SqlClient.SqlClient> = serverUrl === undefined
  ? Layer.orDie(PgliteClient.layer({ dataDir: undefined }))
  : freshPostgresDatabase(serverUrl)

/** A migrated, empty database. */
export const layer: Layer.Layer<SqlClient.SqlClient> = Layer.provideMerge(Layer.orDie(Migrations.layer), client)

/**
 * A database that outlives the layers built on it, as across a restart: each
 * returned layer opens (and migrates) the same data anew, in a temporary PGlite
 * directory or a fresh database on the PostgreSQL server; both are removed when
 * the scope closes. Build one layer at a time: embedded PGlite has one owner.
 */
export const reopenable: Effect.Effect<() => Layer.Layer<SqlClient.SqlClient>, never, Scope.Scope> = Effect.gen(
  function*() {
    const open: () => Layer.Layer<SqlClient.SqlClient, unknown> = serverUrl === undefined
      ? yield* Effect.map(
        Effect.acquireRelease(
          Effect.sync(() => mkdtempSync(join(tmpdir(), "outreach-reopen-"))),
          (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
        ),
        (dataDir) => () => PgliteClient.layer({ dataDir })
      )
      : yield* Effect.map(
        Effect.orDie(freshPostgresUrl(serverUrl)),
        (url) => () => pgLayer(url)
      )
    // Fresh: a new connection each time, never one memoized from an earlier build.
    return () => Layer.fresh(Layer.orDie(Layer.provideMerge(Migrations.layer, open())))
  }
)
