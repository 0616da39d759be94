/**
 * Which events the fan-out may pass on a shared PostgreSQL server: a long
 * write transaction in another database must not hold webhooks back, while an
 * outbox writer still running here must (its lower `seq` would be skipped).
 * Runs only against a real server: embedded PGlite has one connection.
 */
import { PgClient } from "@effect/sql-pg"
import { assert, describe, layer } from "@effect/vitest"
import { Deferred, Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { Outbox } from "../../src/events/Outbox.ts"
import type { NewEvent } from "../../src/domain/Events.ts"
import { WebhookDispatcher } from "../../src/webhooks/Dispatcher.ts"
import { freshPostgresUrl, serverDatabaseUrl } from "../support/TestDatabase.ts"
import { emit, eventually, serverLayer } from "./support.ts"
import { newWorkspace } from "../support/TestServer.ts"

const paused: NewEvent = { type: "account.paused", data: { accountId: crypto.randomUUID(), reason: "paused by a person" } }

const cursorAndMax = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly cursor: string; readonly max: string }>`
    SELECT (SELECT last_seq FROM webhook_dispatch_cursor)::text AS cursor, (SELECT MAX(seq) FROM outbox_events)::text AS max`
    .pipe(Effect.orDie)
  return { cursor: Number(rows[0]?.cursor ?? 0), max: Number(rows[0]?.max ?? 0) }
})

/** Runs `write` in a transaction on its own connection and keeps it open until the returned release runs. */
const holdOpen = <R>(write: Effect.Effect<unknown, unknown, SqlClient.SqlClient | R>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const written = yield* Deferred.make<void>()
    const release = yield* Deferred.make<void>()
    yield* sql.withTransaction(
      write.pipe(Effect.andThen(Deferred.succeed(written, undefined)), Effect.andThen(Deferred.await(release)))
    ).pipe(Effect.orDie, Effect.forkScoped)
    yield* Deferred.await(written)
    return Deferred.succeed(release, undefined)
  })

describe.skipIf(serverDatabaseUrl === undefined)("webhook fan-out on a shared PostgreSQL server", () => {
  layer(serverLayer())((it) => {
    it.effect("a write transaction left open in another database does not hold events back", () =>
      Effect.gen(function*() {
        const url = yield* freshPostgresUrl(serverDatabaseUrl ?? "")
        const elsewhere = yield* Layer.build(PgClient.layer({ url: Redacted.make(url) })).pipe(Effect.orDie)
        const release = yield* holdOpen(Effect.gen(function*() {
          const other = yield* SqlClient.SqlClient
          yield* other`CREATE TABLE elsewhere (x int)`
          yield* other`INSERT INTO elsewhere VALUES (1)`
        })).pipe(Effect.provide(elsewhere))
        const { workspace } = yield* newWorkspace()
        yield* emit(workspace.id, [paused])
        const settled = yield* eventually("the fan-out to pass the new event", cursorAndMax, (x) => x.cursor >= x.max)
        assert.isAbove(settled.max, 0)
        yield* release
      }))

    it.effect("an outbox writer still running here holds back the events committed after its own", () =>
      Effect.gen(function*() {
        const { workspace } = yield* newWorkspace()
        const dispatcher = yield* WebhookDispatcher
        yield* emit(workspace.id, [paused])
        yield* eventually("the dispatcher at rest", cursorAndMax, (x) => x.cursor >= x.max)
        const outbox = yield* Outbox
        const release = yield* holdOpen(outbox.append(workspace.id, [paused]))
        yield* emit(workspace.id, [paused])
        yield* dispatcher.runOnce
        yield* dispatcher.runOnce
        const held = yield* cursorAndMax
        assert.isBelow(held.cursor, held.max, "the cursor must stop before the running writer's lower seq")
        yield* release
        yield* eventually("the fan-out to pass both events", cursorAndMax, (x) => x.cursor >= x.max)
      }))
  })
})
