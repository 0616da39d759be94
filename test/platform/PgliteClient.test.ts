import { PgClient } from "@effect/sql-pg"
import { assert, describe, it, layer } from "@effect/vitest"
import { Deferred, Effect, Fiber, Layer, Queue, Redacted, Stream } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as PgliteClient from "../../src/platform/PgliteClient.ts"

const isSqlError = (error: unknown): error is SqlError.SqlError => SqlError.isSqlError(error)

const iso = (value: unknown): string => {
  assert.instanceOf(value, Date)
  return value instanceof Date ? value.toISOString() : ""
}

layer(PgliteClient.layer({ dataDir: undefined }))("PgliteClient (in memory)", (it) => {
  it.effect("identifies as the pglite driver with the PostgreSQL dialect", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      assert.strictEqual(sql.driver, "pglite")
      assert.strictEqual(sql.onDialectOrElse({ pg: () => "pg", orElse: () => "other" }), "pg")
    }))

  it.effect("runs parameterised inserts and selects, with the insert/in helpers", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE people (id int4 PRIMARY KEY, name text NOT NULL)`
      const name = "Robert'); DROP TABLE people; --"
      yield* sql`INSERT INTO people ${sql.insert([{ id: 1, name }, { id: 2, name: "Ada" }, { id: 3, name: "Linus" }])}`
      const found = yield* sql<{ id: number; name: string }>`SELECT id, name FROM people WHERE name = ${name}`
      assert.deepStrictEqual(found, [{ id: 1, name }])
      const some = yield* sql<{ name: string }>`SELECT name FROM people WHERE ${sql.in("id", [2, 3])} ORDER BY id`
      assert.deepStrictEqual(some.map((row) => row.name), ["Ada", "Linus"])
      const unsafe = yield* sql.unsafe<{ n: number }>("SELECT count(*)::int4 AS n FROM people WHERE id > $1", [1])
      assert.deepStrictEqual(unsafe, [{ n: 2 }])
      const values = yield* sql`SELECT id, name FROM people ORDER BY id`.values
      assert.deepStrictEqual(values, [[1, name], [2, "Ada"], [3, "Linus"]])
      const streamed = yield* Stream.runCollect(sql<{ id: number }>`SELECT id FROM people ORDER BY id`.stream)
      assert.deepStrictEqual(Array.from(streamed, (row) => row.id), [1, 2, 3])
    }))

  it.effect("returns the raw PGlite result with command and rowCount", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE counters (id int4 PRIMARY KEY, hits int4 NOT NULL)`
      yield* sql`INSERT INTO counters ${sql.insert([{ id: 1, hits: 0 }, { id: 2, hits: 0 }])}`
      const raw = yield* sql`UPDATE counters SET hits = hits + 1`.raw
      assert.deepInclude(raw, { command: "UPDATE", rowCount: 2 })
    }))

  it.effect("statements can run while a stream is consumed", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE queue_items (id int4 PRIMARY KEY, done bool NOT NULL DEFAULT false)`
      yield* sql`INSERT INTO queue_items ${sql.insert([{ id: 1 }, { id: 2 }])}`
      yield* sql<{ id: number }>`SELECT id FROM queue_items`.stream.pipe(
        Stream.mapEffect((row) => sql`UPDATE queue_items SET done = true WHERE id = ${row.id}`),
        Stream.runDrain
      )
      const open = yield* sql`SELECT id FROM queue_items WHERE NOT done`
      assert.strictEqual(open.length, 0)
    }))

  it.effect("gives each column type the JavaScript type @effect/sql-pg gives it", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const pglite = yield* PgliteClient.PgliteClient
      yield* sql`
        CREATE TABLE typed (
          t text, i4 int4, i8 int8, n numeric, b bool, jb jsonb, js json, jb_text jsonb,
          ts timestamptz, d date, u uuid, tags text[], counts int8[], stamps timestamptz[]
        )`
      const at = new Date("2024-05-06T07:08:09.123Z")
      yield* sql`
        INSERT INTO typed VALUES (
          ${"hello"}, ${42}, ${9007199254740993n}, ${"12.50"}, ${true}, ${pglite.json({ a: [1, "x"] })},
          ${JSON.stringify({ b: null })}, ${JSON.stringify({ c: 1 })}, ${at}, ${"2024-02-29"},
          ${"A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11"}, ${["x", "y,z"]}, ${[1n, 2n]}, ${[at]}
        )`
      const [row] = yield* sql<Record<string, unknown>>`SELECT * FROM typed`
      assert.strictEqual(row.t, "hello")
      assert.strictEqual(row.i4, 42)
      assert.strictEqual(row.i8, 9007199254740993n)
      assert.strictEqual(row.n, "12.50")
      assert.strictEqual(row.b, true)
      assert.deepStrictEqual(row.jb, { a: [1, "x"] })
      assert.deepStrictEqual(row.js, { b: null })
      assert.deepStrictEqual(row.jb_text, { c: 1 })
      assert.strictEqual(iso(row.ts), at.toISOString())
      assert.strictEqual(row.d, "2024-02-29")
      assert.strictEqual(row.u, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")
      assert.deepStrictEqual(row.tags, ["x", "y,z"])
      assert.deepStrictEqual(row.counts, [1n, 2n])
      assert.deepStrictEqual(row.stamps, [at])
    }))

  it.effect("matches pg for computed values, small int8 and timestamp edge cases", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<Record<string, unknown>>`
        SELECT count(*) AS small_int8, 1.1::float4 AS f4, ${7} AS param_int, ${5000000000} AS param_big,
          '2024-01-02 03:04:05.999'::timestamp AS naive, 'infinity'::timestamptz AS inf,
          '1999-12-31 23:59:59.9995+00'::timestamptz AS before_epoch, '2024-01-02 10:00:00+05:30'::timestamptz AS offset,
          '12:34:56.789'::time AS clock, '2024-02-03'::date AS day`
      // pg decodes int8 to bigint even when small, and float4 at single precision.
      assert.strictEqual(row.small_int8, 1n)
      assert.strictEqual(row.f4, Math.fround(1.1))
      assert.strictEqual(row.param_int, 7)
      assert.strictEqual(row.param_big, 5000000000n)
      assert.strictEqual(iso(row.naive), "2024-01-02T03:04:05.999Z")
      assert.isTrue(row.inf instanceof Date && Number.isNaN(row.inf.getTime()))
      // Truncated toward PostgreSQL's epoch (2000-01-01), as pg does.
      assert.strictEqual(iso(row.before_epoch), "2000-01-01T00:00:00.000Z")
      assert.strictEqual(iso(row.offset), "2024-01-02T04:30:00.000Z")
      // time as bigint microseconds since midnight, date as text.
      assert.strictEqual(row.clock, 45_296_789_000n)
      assert.strictEqual(row.day, "2024-02-03")
    }))

  it.effect("refuses parameters pg cannot bind", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const error = yield* Effect.flip(sql.unsafe("SELECT $1 AS v", [{ not: "json" }]))
      assert.strictEqual(error.reason._tag, "UnknownError")
    }))

  it.effect("commits and rolls back transactions", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE ledger (entry text PRIMARY KEY)`
      yield* sql.withTransaction(sql`INSERT INTO ledger VALUES (${"kept"})`)
      const failed = yield* Effect.flip(sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO ledger VALUES (${"dropped"})`
        return yield* Effect.fail("stop" as const)
      })))
      assert.strictEqual(failed, "stop")
      const rows = yield* sql<{ entry: string }>`SELECT entry FROM ledger`
      assert.deepStrictEqual(rows, [{ entry: "kept" }])
    }))

  it.effect("rolls a failed nested transaction back to its savepoint only", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE nested (entry text PRIMARY KEY)`
      yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO nested VALUES ('outer')`
        const inner = yield* Effect.flip(sql.withTransaction(Effect.gen(function*() {
          yield* sql`INSERT INTO nested VALUES ('inner')`
          return yield* Effect.fail("inner failed" as const)
        })))
        assert.strictEqual(inner, "inner failed")
        yield* sql.withTransaction(sql`INSERT INTO nested VALUES ('second inner')`)
      }))
      const rows = yield* sql<{ entry: string }>`SELECT entry FROM nested ORDER BY entry`
      assert.deepStrictEqual(rows.map((row) => row.entry), ["outer", "second inner"])
    }))

  it.effect("fails the commit of a transaction PostgreSQL aborted, as pg does", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE aborted (entry text PRIMARY KEY)`
      const error = yield* Effect.flip(sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO aborted VALUES ('lost')`
        yield* Effect.ignore(sql`SELECT * FROM no_such_table`)
      })))
      assert.isTrue(isSqlError(error))
      assert.match(error.message, /COMMIT rolled back/)
      assert.strictEqual((yield* sql`SELECT * FROM aborted`).length, 0)
    }))

  it.effect("serialises concurrent transactions: neither sees the other's uncommitted rows, both commit", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE concurrent (entry text PRIMARY KEY)`
      const firstInside = yield* Deferred.make<void>()
      const secondWaiting = yield* Deferred.make<void>()
      const order: Array<string> = []
      const first = yield* Effect.forkChild(sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO concurrent VALUES ('first')`
        yield* Deferred.succeed(firstInside, undefined)
        yield* Deferred.await(secondWaiting)
        // Several real round trips give the second fiber every chance to interleave.
        for (let i = 0; i < 5; i++) yield* sql`SELECT pg_sleep(0.01)`
        const seen = yield* sql<{ entry: string }>`SELECT entry FROM concurrent ORDER BY entry`
        order.push("first commits")
        return seen.map((row) => row.entry)
      })))
      yield* Deferred.await(firstInside)
      const second = yield* Effect.forkChild(Effect.gen(function*() {
        yield* Deferred.succeed(secondWaiting, undefined)
        return yield* sql.withTransaction(Effect.gen(function*() {
          order.push("second begins")
          yield* sql`INSERT INTO concurrent VALUES ('second')`
          const seen = yield* sql<{ entry: string }>`SELECT entry FROM concurrent ORDER BY entry`
          return seen.map((row) => row.entry)
        }))
      }))
      const reader = yield* Effect.forkChild(Effect.gen(function*() {
        yield* Deferred.await(secondWaiting)
        const seen = yield* sql<{ entry: string }>`SELECT entry FROM concurrent`
        order.push("reader reads")
        return seen.length
      }))
      assert.deepStrictEqual(yield* Fiber.join(first), ["first"])
      assert.deepStrictEqual(yield* Fiber.join(second), ["first", "second"])
      // The plain read waited for the open transaction instead of running inside it.
      assert.isAtLeast(yield* Fiber.join(reader), 1)
      assert.strictEqual(order[0], "first commits")
      const rows = yield* sql<{ entry: string }>`SELECT entry FROM concurrent ORDER BY entry`
      assert.deepStrictEqual(rows.map((row) => row.entry), ["first", "second"])
    }))

  it.effect("a rollback never takes another fiber's statements with it", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE isolated (entry text PRIMARY KEY)`
      const inside = yield* Deferred.make<void>()
      const failing = yield* Effect.forkChild(Effect.exit(sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO isolated VALUES ('rolled back')`
        yield* Deferred.succeed(inside, undefined)
        for (let i = 0; i < 5; i++) yield* sql`SELECT pg_sleep(0.01)`
        return yield* Effect.fail("abort" as const)
      }))))
      yield* Deferred.await(inside)
      yield* sql`INSERT INTO isolated VALUES ('autocommitted')`
      yield* Fiber.join(failing)
      const rows = yield* sql<{ entry: string }>`SELECT entry FROM isolated`
      assert.deepStrictEqual(rows, [{ entry: "autocommitted" }])
    }))

  it.effect("turns database errors into classified SqlErrors that keep the cause", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const syntax = yield* Effect.flip(sql`SELEC 1`)
      assert.strictEqual(syntax._tag, "SqlError")
      assert.strictEqual(syntax.reason._tag, "SqlSyntaxError")
      assert.propertyVal(syntax.reason.cause, "code", "42601")
      const missing = yield* Effect.flip(sql`SELECT * FROM nowhere`)
      assert.strictEqual(missing.reason._tag, "SqlSyntaxError")
      assert.match(missing.message, /relation "nowhere" does not exist/)
      yield* sql`CREATE TABLE uniques (email text CONSTRAINT uniques_email UNIQUE)`
      yield* sql`INSERT INTO uniques VALUES ('a@example.com')`
      const duplicate = yield* Effect.flip(sql`INSERT INTO uniques VALUES ('a@example.com')`)
      assert.strictEqual(duplicate.reason._tag, "UniqueViolation")
      assert.propertyVal(duplicate.reason, "constraint", "uniques_email")
    }))

  it.effect("delivers NOTIFY to listeners, a transaction's only after it commits", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const pglite = yield* PgliteClient.PgliteClient
      const events = yield* pglite.listen("Order.Events")
      const other = yield* pglite.listen("other")
      yield* pglite.notify("Order.Events", "one")
      const first = yield* Queue.take(events)
      assert.strictEqual(first.channel, "Order.Events")
      assert.strictEqual(first.payload, "one")
      yield* sql.withTransaction(Effect.gen(function*() {
        yield* pglite.notify("Order.Events", "two")
        yield* sql`SELECT 1`
        assert.strictEqual(yield* Queue.size(events), 0)
      }))
      assert.strictEqual((yield* Queue.take(events)).payload, "two")
      assert.strictEqual(yield* Queue.size(other), 0)
      const tooLong = yield* Effect.flip(pglite.notify("x".repeat(64), "payload"))
      assert.strictEqual(tooLong._tag, "SqlError")
    }))

  it.effect("shuts a listener's queue down when its scope closes", () =>
    Effect.gen(function*() {
      const pglite = yield* PgliteClient.PgliteClient
      const events = yield* Effect.scoped(pglite.listen("closing"))
      yield* pglite.notify("closing", "late")
      const taken = yield* Effect.exit(Queue.take(events))
      assert.isTrue(taken._tag === "Failure")
    }))
})

describe("PgliteClient (data directory)", () => {
  const temporaryRoot = Effect.acquireRelease(
    Effect.promise(() => mkdtemp(join(tmpdir(), "pglite-client-"))),
    (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
  )

  it.effect("persists rows across closing and reopening the database", () =>
    Effect.gen(function*() {
      const root = yield* temporaryRoot
      const dataDir = join(root, "not", "yet", "there")
      const first = PgliteClient.layer({ dataDir })
      const opened = yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE notes (id int4 PRIMARY KEY, body text NOT NULL)`
        yield* sql`INSERT INTO notes ${sql.insert({ id: 1, body: "survives a restart" })}`
        return (yield* PgliteClient.PgliteClient).pglite
      }).pipe(Effect.provide(first))
      assert.isTrue(opened.closed)
      const rows = yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        return yield* sql<{ id: number; body: string }>`SELECT id, body FROM notes`
      }).pipe(Effect.provide(PgliteClient.layer({ dataDir })))
      assert.deepStrictEqual(rows, [{ id: 1, body: "survives a restart" }])
    }))

  it.effect("starts from a dumped data directory, in memory or in an empty directory, never over a database there", () =>
    Effect.gen(function*() {
      const root = yield* temporaryRoot
      const dump = yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE notes (id int4 PRIMARY KEY, body text NOT NULL)`
        yield* sql`INSERT INTO notes ${sql.insert({ id: 1, body: "from the template" })}`
        const client = yield* PgliteClient.PgliteClient
        return yield* client.use((db) => db.dumpDataDir("none"))
      }).pipe(Effect.provide(PgliteClient.layer({})))
      const bodies = Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ body: string }>`SELECT body FROM notes ORDER BY id`
        return rows.map((row) => row.body)
      })
      const inMemory = yield* bodies.pipe(Effect.provide(PgliteClient.layer({ loadDataDir: dump })))
      assert.deepStrictEqual(inMemory, ["from the template"])

      const dataDir = join(root, "copy")
      yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO notes ${sql.insert({ id: 2, body: "written in the copy" })}`
      }).pipe(Effect.provide(PgliteClient.layer({ dataDir, loadDataDir: dump })))
      // Reopened with the same options: the directory's database, not the dump again.
      const reopened = yield* bodies.pipe(Effect.provide(PgliteClient.layer({ dataDir, loadDataDir: dump })))
      assert.deepStrictEqual(reopened, ["from the template", "written in the copy"])
    }))
})

// Same statements through @effect/sql-pg and this client must give equal values.
const parityStatements: ReadonlyArray<readonly [string, ReadonlyArray<unknown>]> = [
  ["SELECT 'a'::text AS t, 2::int4 AS i4, 3::int8 AS i8, 1.50::numeric AS n, true AS b, 1.1::float4 AS f4", []],
  ["SELECT '{\"a\":[1]}'::jsonb AS jb, '{\"b\":1}'::json AS j, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS u", []],
  ["SELECT '2024-01-02 03:04:05.123456+00'::timestamptz AS tz, '2024-01-02 03:04:05'::timestamp AS ts", []],
  ["SELECT '2024-02-03'::date AS d, '12:34:56'::time AS t, '\\x01ff'::bytea AS bytes", []],
  ["SELECT ARRAY[1, NULL]::int8[] AS a8, ARRAY['x', 'y,z'] AS at, ARRAY[now()] AS atz", []],
  ["SELECT $1 AS a, $2 AS b, $3 AS c, $4 AS d, $5 AS e, $6 AS f, $7 AS g", [
    1,
    2 ** 40,
    1.5,
    5n,
    "text",
    new Date(0),
    [1, 2]
  ]]
]

const runParity = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return yield* Effect.forEach(parityStatements, ([statement, params]) =>
    // now() differs between the two databases; compare its type only.
    Effect.map(sql.unsafe<Record<string, unknown>>(statement, params), (rows) =>
      rows.map((row) => ({ ...row, ...("atz" in row ? { atz: Array.isArray(row.atz) && row.atz[0] instanceof Date } : {}) }))))
})

describe("PgliteClient against @effect/sql-pg", () => {
  const url = process.env["DATABASE_URL"]
  it.effect.runIf(url !== undefined)("gives the same values for the same statements", () =>
    Effect.gen(function*() {
      const fromPg = yield* runParity.pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url ?? "") })))
      const fromPglite = yield* runParity.pipe(Effect.provide(Layer.orDie(PgliteClient.layer({}))))
      assert.deepStrictEqual(fromPglite, fromPg)
    }))
})
