/**
 * Embedded PostgreSQL (PGlite) as an `effect/sql` `SqlClient`, behaving like
 * `@effect/sql-pg` for the same SQL: the same `$1` placeholders, identifier
 * escaping, transforms, row value types (see `pgliteTypes.ts`), savepoints for
 * nested transactions and classified `SqlError`s. Its driver is `"pglite"`, so
 * `effect/cluster` SQL storage keeps to the single session.
 *
 * PGlite is one session: a lock lets one statement run at a time, and a
 * transaction (or `sql.reserve`) holds it until it ends, so no fiber's
 * statement ever lands inside another fiber's transaction. Inside a
 * transaction use that transaction's client only; `sql.reserve` or
 * `PgliteClient.use` there would wait for the lock the transaction holds.
 */
import { PGlite, type Results } from "@electric-sql/pglite"
import { type PgConnection, PgTypes } from "@effect/sql-pg"
import { Context, Effect, Layer, Queue, Scope, Semaphore, Stream } from "effect"
import { Reactivity } from "effect/reactivity"
import { SqlClient, type SqlConnection, SqlError, Statement } from "effect/sql"
import { mkdir, readdir } from "node:fs/promises"
import { bindParameters, parsers, serializers } from "./pgliteTypes.ts"

/** Options of the PGlite client; the transforms work as in `@effect/sql-pg`. */
export interface PgliteClientOptions {
  /** Directory holding the database, created if missing; `undefined` keeps it in memory. */
  readonly dataDir?: string | undefined
  /**
   * A data directory as `dumpDataDir` wrote it, to start from instead of an empty database
   * (the tests' migrated template); used only when `dataDir` holds no database yet.
   */
  readonly loadDataDir?: Blob | undefined
  readonly spanAttributes?: Record<string, unknown> | undefined
  readonly transformResultNames?: ((name: string) => string) | undefined
  readonly transformQueryNames?: ((name: string) => string) | undefined
  readonly transformJson?: boolean | undefined
}

/** The PGlite instance behind the `SqlClient`, with PostgreSQL's JSON and `LISTEN`/`NOTIFY` helpers. */
export class PgliteClient extends Context.Service<PgliteClient, {
  /** The raw instance. It bypasses the client's lock: prefer `use` while the client is in use. */
  readonly pglite: PGlite
  /** Runs `f` on the instance while holding the lock, so no transaction is open around it. */
  readonly use: <A>(f: (pglite: PGlite) => Promise<A>) => Effect.Effect<A, SqlError.SqlError>
  /** A JSON value bound as `jsonb`, like `PgClient.json`. */
  readonly json: (value: unknown) => Statement.Fragment
  /**
   * Notifications on `channel` until the scope closes (then the queue shuts
   * down), like `PgClient.listen`.
   */
  readonly listen: (
    channel: string
  ) => Effect.Effect<Queue.Dequeue<PgConnection.Notification, SqlError.SqlError>, SqlError.SqlError, Scope.Scope>
  /**
   * Sends `payload` on `channel` with `pg_notify`. Inside a transaction it is
   * part of it and delivered on commit (pg's client sends it at once on another
   * connection).
   */
  readonly notify: (channel: string, payload: string) => Effect.Effect<void, SqlError.SqlError>
}>()("outreach/PgliteClient") {}

/**
 * `PgliteClient` and `SqlClient` over one PGlite instance, closed when the
 * layer's scope closes.
 */
export const layer = (
  options: PgliteClientOptions
): Layer.Layer<PgliteClient | SqlClient.SqlClient, SqlError.SqlError> =>
  Layer.effectContext(Effect.map(make(options), ([client, sql]) =>
    Context.make(PgliteClient, client).pipe(Context.add(SqlClient.SqlClient, sql))
  )).pipe(Layer.provide(Reactivity.layer))

/** Opens the database and builds both services; the database closes with the scope. */
export const make = Effect.fnUntraced(function*(options: PgliteClientOptions) {
  const pglite = yield* Effect.acquireRelease(
    open(options.dataDir, options.loadDataDir),
    (db) => Effect.promise(() => db.close())
  )
  const lock = yield* Semaphore.make(1)
  const guarded = <A>(effect: Effect.Effect<A, SqlError.SqlError>) => lock.withPermit(effect)
  // Statements outside a transaction take the lock one at a time; a
  // transaction leases the lock and runs its statements unguarded.
  const shared = makeConnection(pglite, guarded)
  const leased = makeConnection(pglite, (effect) => effect)
  const lease = Effect.as(lock.takeScoped(1), leased)

  const transformRows = options.transformResultNames
    ? Statement.defaultTransforms(options.transformResultNames, options.transformJson).array
    : undefined
  const sql = yield* SqlClient.make({
    driver: "pglite",
    acquirer: Effect.succeed(shared),
    borrower: (f) => f(shared),
    transactionAcquirer: lease,
    compiler: makeCompiler(options.transformQueryNames, options.transformJson),
    prepareTransactionControls: true,
    commit: () => commit(pglite),
    releaseSavepoint: (name) => `RELEASE SAVEPOINT ${name}`,
    spanAttributes: [
      ...(options.spanAttributes ? Object.entries(options.spanAttributes) : []),
      [ATTR_DB_SYSTEM_NAME, "postgresql"],
      [ATTR_DB_NAMESPACE, "postgres"]
    ],
    transformRows
  })

  const backend = yield* guarded(query<{ pid: number }>(pglite, "SELECT pg_backend_pid() AS pid", [], "object"))
  const processId = backend.rows[0].pid

  const client = PgliteClient.of({
    pglite,
    use: (f) =>
      guarded(Effect.tryPromise({ try: () => f(pglite), catch: (cause) => toSqlError(cause, "use") })),
    json: (value) => Statement.fragment([PgJson(value)]),
    listen: Effect.fn("PgliteClient.listen")(function*(channel: string) {
      yield* validateChannel(channel, "listen")
      const queue = yield* Queue.unbounded<PgConnection.Notification, SqlError.SqlError>()
      yield* Effect.acquireRelease(
        Effect.sync(() =>
          pglite.onNotification((from, payload) => {
            if (from === channel) Queue.offerUnsafe(queue, { processId, channel, payload })
          })
        ),
        (unsubscribe) => Effect.andThen(Effect.sync(unsubscribe), Queue.shutdown(queue))
      )
      // The session stays subscribed after the scope closes: UNLISTEN would also
      // end the other listeners of the channel, and unheard notifications are dropped.
      // One quoted identifier, dots included (the compiler's escape splits on dots).
      yield* sql.unsafe(`LISTEN "${channel.replaceAll("\"", "\"\"")}"`)
      return queue
    }),
    notify: Effect.fn("PgliteClient.notify")(function*(channel: string, payload: string) {
      yield* validateChannel(channel, "notify")
      yield* sql`SELECT pg_notify(${channel}, ${payload})`
    })
  })
  return [client, sql] as const
})

/**
 * PGlite's `postgresql.conf`, which it writes over the data directory's on every start: what its
 * initdb writes, but with 16 MB of shared buffers instead of 128. The buffers are in PGlite's
 * WebAssembly memory, which only grows: pages read once stay resident for the life of the
 * process, about 130 MB of an idle service's memory (`npm run bench:footprint`) for a database
 * one process serves, whose files the operating system caches anyway.
 */
export const postgresqlConf: ReadonlyArray<string> = [
  "shared_buffers = 16MB",
  "max_connections = 100",
  "dynamic_shared_memory_type = posix",
  "max_wal_size = 1GB",
  "min_wal_size = 80MB",
  "log_timezone = UTC",
  "datestyle = 'iso, mdy'",
  "timezone = UTC",
  "lc_messages = C",
  "lc_monetary = C",
  "lc_numeric = C",
  "lc_time = C",
  "default_text_search_config = 'pg_catalog.english'"
]

const open = (dataDir: string | undefined, loadDataDir: Blob | undefined) =>
  Effect.tryPromise({
    try: async () => {
      if (dataDir !== undefined) await mkdir(dataDir, { recursive: true })
      const empty = dataDir === undefined || (await readdir(dataDir)).length === 0
      const db = new PGlite({
        ...(dataDir === undefined ? {} : { dataDir }),
        ...(loadDataDir !== undefined && empty ? { loadDataDir } : {}),
        parsers,
        serializers,
        postgresqlconf: [...postgresqlConf]
      })
      await db.waitReady
      return db
    },
    catch: (cause) => toSqlError(cause, "connect")
  })

type RowMode = "object" | "array"

/**
 * One statement. Uninterruptible, because PGlite cannot cancel a running
 * statement: the lock must stay held until it has really finished.
 */
const query = <A>(
  pglite: PGlite,
  sql: string,
  params: ReadonlyArray<unknown>,
  rowMode: RowMode
): Effect.Effect<Results<A>, SqlError.SqlError> =>
  Effect.try({ try: () => bindParameters(params), catch: (cause) => toSqlError(cause, "bind") }).pipe(
    Effect.flatMap(({ types, values }) =>
      Effect.tryPromise({
        try: () => pglite.query<A>(sql, values, { rowMode, paramTypes: types }),
        catch: (cause) => toSqlError(cause, "query")
      })
    ),
    Effect.uninterruptible
  )

type Guard = <A>(effect: Effect.Effect<A, SqlError.SqlError>) => Effect.Effect<A, SqlError.SqlError>
type TransformRows = (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined

const makeConnection = (pglite: PGlite, guard: Guard): SqlConnection.Connection => {
  const rows = (sql: string, params: ReadonlyArray<unknown>, transformRows: TransformRows) =>
    guard(Effect.map(query<object>(pglite, sql, params, "object"), (result) =>
      transformRows ? transformRows(result.rows) : result.rows
    ))
  const values = (sql: string, params: ReadonlyArray<unknown>) =>
    guard(Effect.map(query<Array<unknown>>(pglite, sql, params, "array"), (result) => result.rows))
  return {
    execute: rows,
    executeUnprepared: rows,
    executeValues: values,
    executeValuesUnprepared: values,
    // PGlite's result with `command` and `rowCount` always set, as in pg's `Result`.
    executeRaw: (sql, params) =>
      guard(Effect.map(query<object>(pglite, sql, params, "object"), (result) => ({
        ...result,
        command: result.command ?? "",
        rowCount: result.rowCount ?? result.affectedRows ?? result.rows.length
      }))),
    // Fetched whole: PGlite has no cursors, and holding the lock while a
    // consumer pulls would block the consumer's own statements.
    executeStream: (sql, params, transformRows) => Stream.fromArrayEffect(rows(sql, params, transformRows))
  }
}

/** PostgreSQL answers `COMMIT` of an aborted transaction with `ROLLBACK`; that is a failure, as in pg. */
const commit = (pglite: PGlite): Effect.Effect<void, SqlError.SqlError> =>
  Effect.flatMap(query(pglite, "COMMIT", [], "object"), (result) =>
    result.command === "ROLLBACK"
      ? Effect.fail(
        new SqlError.SqlError({
          reason: new SqlError.UnknownError({
            cause: new Error("COMMIT rolled back an aborted transaction"),
            message: "PgliteClient: COMMIT rolled back an aborted transaction",
            operation: "commit"
          })
        })
      )
      : Effect.void)

const channelBytes = new TextEncoder()

const validateChannel = (channel: string, operation: string): Effect.Effect<void, SqlError.SqlError> => {
  if (channelBytes.encode(channel).byteLength <= 63) return Effect.void
  const message = "PostgreSQL channel names must not exceed 63 UTF-8 bytes"
  return Effect.fail(
    new SqlError.SqlError({ reason: new SqlError.UnknownError({ cause: new Error(message), message, operation }) })
  )
}

const stringField = (cause: unknown, field: "code" | "constraint" | "message"): string | undefined => {
  if (typeof cause !== "object" || cause === null || !(field in cause)) return undefined
  const value: unknown = Reflect.get(cause, field)
  return typeof value === "string" ? value : undefined
}

/** Classifies by SQLSTATE exactly as `@effect/sql-pg` does, keeping PGlite's error as the cause. */
const toSqlError = (cause: unknown, operation: string): SqlError.SqlError => {
  const props = { cause, message: `PgliteClient: ${stringField(cause, "message") ?? String(cause)}`, operation }
  const code = stringField(cause, "code")
  const reason = code === undefined
    ? new SqlError.UnknownError(props)
    : code.startsWith("08")
    ? new SqlError.ConnectionError(props)
    : code.startsWith("28")
    ? new SqlError.AuthenticationError(props)
    : code === "42501"
    ? new SqlError.AuthorizationError(props)
    : code.startsWith("42")
    ? new SqlError.SqlSyntaxError(props)
    : code === "23505"
    ? new SqlError.UniqueViolation({ ...props, constraint: stringField(cause, "constraint")?.trim() || "unknown" })
    : code.startsWith("23")
    ? new SqlError.ConstraintError(props)
    : code === "40P01"
    ? new SqlError.DeadlockError(props)
    : code === "40001"
    ? new SqlError.SerializationError(props)
    : code === "55P03"
    ? new SqlError.LockTimeoutError(props)
    : code === "57014"
    ? new SqlError.StatementTimeoutError(props)
    : new SqlError.UnknownError(props)
  return new SqlError.SqlError({ reason })
}

interface PgJson extends Statement.Custom<"PgJson", unknown> {}
const PgJson = Statement.custom<PgJson>("PgJson")

const escape = Statement.defaultEscape("\"")

/** PostgreSQL's compiler, as `PgClient.makeCompiler` builds it. */
export const makeCompiler = (transform?: (name: string) => string, transformJson = true): Statement.Compiler => {
  const transformValue = transformJson && transform ? Statement.defaultTransforms(transform).value : undefined
  return Statement.makeCompiler<PgJson>({
    dialect: "pg",
    placeholder: (index) => `$${index}`,
    onIdentifier: transform
      ? (value, withoutTransform) => withoutTransform ? escape(value) : escape(transform(value))
      : escape,
    onRecordUpdate: (placeholders, valueAlias, valueColumns, values, returning) => [
      `(values ${placeholders}) AS ${valueAlias}${valueColumns}${returning ? ` RETURNING ${returning[0]}` : ""}`,
      returning ? values.flat().concat(returning[1]) : values.flat()
    ],
    onCustom: (type, placeholder, withoutTransform) => [
      placeholder(undefined),
      [PgTypes.jsonb(withoutTransform || transformValue === undefined ? type.paramA : transformValue(type.paramA))]
    ]
  })
}

const ATTR_DB_SYSTEM_NAME = "db.system.name"
const ATTR_DB_NAMESPACE = "db.namespace"
