/**
 * The stored `Health` (the `SELECT 1` probe on a database) held to the health check's spec
 * (`HealthContract.ts`). On PGlite, which has one connection, a transaction that holds it keeps
 * the probe from being answered; a PostgreSQL server has a pool to spare, so there the spec's
 * test of a database that does not answer is skipped.
 */
import { Deferred, Effect, Fiber, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Health } from "../../src/platform/Health.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { healthExpectations } from "./HealthContract.ts"

/** Runs `effect` while a transaction holds PGlite's one connection, then lets it go. */
const holdingTheConnection = (sql: SqlClient.SqlClient) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.gen(function*() {
    const release = yield* Deferred.make<void>()
    const holding = yield* Deferred.make<void>()
    const held = yield* sql.withTransaction(Deferred.succeed(holding, undefined).pipe(Effect.andThen(Deferred.await(release)))).pipe(
      Effect.orDie,
      Effect.forkChild
    )
    yield* Deferred.await(holding)
    return yield* Effect.ensuring(effect, Deferred.succeed(release, undefined).pipe(Effect.andThen(Fiber.await(held))))
  })

healthExpectations({
  name: `stored, ${TestDatabase.backend}`,
  services: Health.layer.pipe(Layer.provideMerge(TestDatabase.layer)),
  withFixture: (test) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return yield* test({ whileDown: TestDatabase.backend === "pglite" ? holdingTheConnection(sql) : undefined })
    })
}, TestDatabase.backend === "pglite")
