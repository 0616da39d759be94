/**
 * The storage tiers' databases are copies of one template, migrated once per
 * run by the global setup (test/support/DatabaseTemplates.ts): a test layer's
 * database has every migration without having run one, and what one copy
 * writes no other copy sees.
 */
import { assert, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import * as Migrations from "../../src/platform/Migrations.ts"
import * as TestDatabase from "../support/TestDatabase.ts"

const loadedAt = new Date()

it("the run names its migrated template to the workers", () => {
  assert.isString(process.env[TestDatabase.templateVariables[TestDatabase.backend]])
})

/** Runs `f` with the `SqlClient` of `database`. */
const on = <A>(database: Layer.Layer<SqlClient.SqlClient>, f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  Effect.gen(function*() {
    return yield* f(yield* SqlClient.SqlClient)
  }).pipe(Effect.provide(database), Effect.orDie)

it.effect(`a layer's database is a copy, migrated before this file loaded, apart from other copies (${TestDatabase.backend})`, () =>
  Effect.scoped(Effect.gen(function*() {
    const first = Layer.succeedContext(yield* Layer.build(TestDatabase.layer))
    const second = Layer.succeedContext(yield* Layer.build(TestDatabase.layer))
    const [applied] = yield* on(first, (sql) =>
      sql<{ readonly count: number; readonly last: Date }>`
        SELECT count(*)::int AS count, max(created_at) AS last FROM outreach_migrations`)
    assert.strictEqual(applied.count, Object.keys(Migrations.migrations).length)
    assert.isBelow(applied.last.getTime(), loadedAt.getTime())

    yield* on(first, (sql) => sql`CREATE TABLE only_here (id int)`)
    const seen = yield* on(second, (sql) => sql<{ readonly found: boolean }>`SELECT to_regclass('only_here') IS NOT NULL AS found`)
    assert.deepStrictEqual(seen, [{ found: false }])
  })))
