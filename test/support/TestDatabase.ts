/**
 * A fresh, migrated database per test layer: in-memory PGlite by default, or a
 * new database on the PostgreSQL server named by `DATABASE_URL` (dropped at the
 * end). The same tests run on both.
 *
 * The migrations run once per test run, not once per layer: the global setup
 * (`DatabaseTemplates.ts`) migrates a template and names it in the environment,
 * and each layer starts from a copy, a PGlite loaded from the template's dumped
 * data directory or `CREATE DATABASE … TEMPLATE` on the server. Without a
 * template (a run outside the tiers' configuration) each layer migrates its own.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PgClient } from "@effect/sql-pg"
import { Clock, Effect, Layer, Redacted, type Scope } from "effect"
import { SqlClient } from "effect/sql"
import * as Database from "../../src/platform/Database.ts"
import * as Migrations from "../../src/platform/Migrations.ts"
import * as PgliteClient from "../../src/platform/PgliteClient.ts"
import type { TwoWorkspaces } from "./Backends.ts"

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

/** Runs one statement on the PostgreSQL server at `url` over a connection of its own. */
const runOn = (url: string, statement: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(statement)
  }).pipe(Effect.provide(pgLayer(url)), Effect.orDie)

/** `url` with its database replaced by `name`. */
const withDatabase = (url: string, name: string) => {
  const target = new URL(url)
  target.pathname = `/${name}`
  return target.toString()
}

/**
 * A new database on the PostgreSQL server at `url`, a copy of `template` when
 * given, dropped when the scope closes; returns its URL.
 */
const newPostgresDatabase = (url: string, template: string | undefined) =>
  Effect.gen(function*() {
    const name = `outreach_test_${crypto.randomUUID().replaceAll("-", "")}`
    yield* Effect.acquireRelease(
      runOn(url, `CREATE DATABASE ${name}${template === undefined ? "" : ` TEMPLATE ${template}`}`),
      () => runOn(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    )
    return withDatabase(url, name)
  })

/**
 * A new, empty database on the PostgreSQL server at `url`, dropped when the
 * scope closes; returns its URL.
 */
export const freshPostgresUrl = (url: string) => newPostgresDatabase(url, undefined)

/**
 * The environment variables by which the global setup hands every test worker
 * its templates: the file holding a migrated PGlite's dumped data directory,
 * and the name of a migrated database on the `DATABASE_URL` server.
 */
export const templateVariables = {
  pglite: "OUTREACH_TEST_PGLITE_TEMPLATE",
  postgresql: "OUTREACH_TEST_POSTGRES_TEMPLATE"
} as const

/** A migrated in-memory PGlite's data directory, as `dumpDataDir` writes it (uncompressed). */
export const migratedPglite: Effect.Effect<Blob> = Effect.gen(function*() {
  const client = yield* PgliteClient.PgliteClient
  return yield* client.use((db) => db.dumpDataDir("none"))
}).pipe(
  Effect.provide(Layer.provideMerge(Migrations.layer, PgliteClient.layer({ dataDir: undefined }))),
  Effect.orDie
)

/**
 * A new migrated database on the PostgreSQL server at `url`, to copy others
 * from: no connection to it stays open. Dropped when the scope closes; returns its name.
 */
export const migratedPostgresTemplate = (url: string) =>
  Effect.gen(function*() {
    const template = yield* newPostgresDatabase(url, undefined)
    yield* Migrations.migrate.pipe(Effect.provide(pgLayer(template)), Effect.orDie)
    return new URL(template).pathname.slice(1)
  })

const pgliteTemplateFile = process.env[templateVariables.pglite]
const postgresTemplate = process.env[templateVariables.postgresql]
let pgliteTemplateBytes: Blob | undefined

/** The global setup's migrated PGlite, read once per test file, if there is one. */
const pgliteTemplate = Effect.sync(() =>
  pgliteTemplateFile === undefined
    ? undefined
    : (pgliteTemplateBytes ??= new Blob([readFileSync(pgliteTemplateFile)]))
)

/** An in-memory PGlite, a copy of the template when there is one. */
const pgliteCopy = Layer.unwrap(
  Effect.map(pgliteTemplate, (loadDataDir) => PgliteClient.layer({ dataDir: undefined, loadDataDir }))
)

/** A new database on the PostgreSQL server at `url`, a copy of the migrated template when there is one. */
export const postgresCopyUrl = (url: string) => newPostgresDatabase(url, postgresTemplate)

/**
 * Writes a copy of the migrated template into the empty directory `dataDir`, as PGlite loads it on opening
 * there, and closes it: a data directory another process then opens already migrated. Without a template,
 * leaves the directory empty.
 */
export const pgliteCopyInto = (dataDir: string): Effect.Effect<void> =>
  Effect.flatMap(pgliteTemplate, (loadDataDir) =>
    loadDataDir === undefined
      ? Effect.void
      : Effect.scoped(Layer.build(PgliteClient.layer({ dataDir, loadDataDir })))).pipe(Effect.asVoid, Effect.orDie)

/** The PostgreSQL server the tests run on, when `DATABASE_URL` is set. */
export const serverDatabaseUrl: string | undefined = serverUrl

/** The backend's `SqlClient`, without migrations. */
export const client: Layer.Layer<SqlClient.SqlClient> = serverUrl === undefined
  ? Layer.orDie(PgliteClient.layer({ dataDir: undefined }))
  : Layer.unwrap(Effect.map(freshPostgresUrl(serverUrl), pgLayer)).pipe(Layer.orDie)

/**
 * A migrated, empty database: a copy of the template, or migrated here without one
 * (on a copy the migrator only finds every migration applied).
 */
export const layer: Layer.Layer<SqlClient.SqlClient> = Layer.orDie(Layer.provideMerge(
  Migrations.layer,
  serverUrl === undefined ? pgliteCopy : Layer.unwrap(Effect.map(postgresCopyUrl(serverUrl), pgLayer))
))

/**
 * A database that outlives the layers built on it, as across a restart: each
 * returned layer opens (and migrates) the same data anew, in a temporary PGlite
 * directory (which the first opening fills from the template) or a new database
 * on the PostgreSQL server; both are removed when the scope closes. Build one
 * layer at a time: embedded PGlite has one owner.
 */
export const reopenable: Effect.Effect<() => Layer.Layer<SqlClient.SqlClient>, never, Scope.Scope> = Effect.gen(
  function*() {
    const open: () => Layer.Layer<SqlClient.SqlClient, unknown> = serverUrl === undefined
      ? yield* Effect.map(
        Effect.all([
          Effect.acquireRelease(
            Effect.sync(() => mkdtempSync(join(tmpdir(), "outreach-reopen-"))),
            (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
          ),
          pgliteTemplate
        ]),
        ([dataDir, loadDataDir]) => () => PgliteClient.layer({ dataDir, loadDataDir })
      )
      : yield* Effect.map(
        Effect.orDie(postgresCopyUrl(serverUrl)),
        (url) => () => pgLayer(url)
      )
    // Fresh: a new connection each time, never one memoized from an earlier build.
    return () => Layer.fresh(Layer.orDie(Layer.provideMerge(Migrations.layer, open())))
  }
)

/** A new workspace, its row alone (for the tables whose rows belong to one); returns its id. */
export const newWorkspaceId: Effect.Effect<string, never, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const id = crypto.randomUUID()
  yield* sql`INSERT INTO workspaces ${sql.insert({ id, name: "Test", created_at: new Date().toISOString() })}`
  return id
}).pipe(Effect.orDie)

/** Two new workspaces (rows alone): one to work in, and another that must not see its records. */
export const twoWorkspaces: Effect.Effect<TwoWorkspaces, never, SqlClient.SqlClient> = Effect.map(
  Effect.all([newWorkspaceId, newWorkspaceId]),
  ([workspaceId, otherWorkspaceId]) => ({ workspaceId, otherWorkspaceId })
)
