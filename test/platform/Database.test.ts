import { assert, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import * as Database from "../../src/platform/Database.ts"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import * as TestDatabase from "../support/TestDatabase.ts"

it.effect.skipIf(TestDatabase.backend !== "postgresql")(
  "on a PostgreSQL server every connection runs without JIT compilation",
  () =>
    Effect.gen(function*() {
      const url = yield* Effect.orDie(TestDatabase.freshPostgresUrl(TestDatabase.serverDatabaseUrl ?? ""))
      const rows = yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        return yield* sql<{ jit: string }>`SHOW jit`
      }).pipe(
        Effect.provide(Database.layer),
        Effect.provide(AppConfig.layerWith({ databaseUrl: Option.some(Redacted.make(url)) })),
        Effect.orDie
      )
      assert.strictEqual(rows[0].jit, "off")
    })
)
