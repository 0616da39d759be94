/**
 * A row another session holds (a peer frozen mid-transaction, an operator's
 * open `psql`) holds up only what needs that row: a batch of finishes goes on
 * without it and the held job is finished on its own once the row is free,
 * statements waiting for it share no connection with other requests' reads,
 * and no statement waits longer than the lock timeout. PostgreSQL only: on
 * embedded PGlite one connection is all there is, and no other session can
 * hold a row.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Fiber, Latch } from "effect"
import { SqlClient } from "effect/sql"
import { Accounts } from "../../src/accounts/Accounts.ts"
import * as Time from "../../src/domain/Time.ts"
import { Jobs } from "../../src/jobs/Jobs.ts"
import { JobEndings } from "../../src/jobs/Endings.ts"
import { JobStore } from "../../src/jobs/JobStore.ts"
import { isDatabaseBusy } from "../../src/platform/Causes.ts"
import { sessionSettings } from "../../src/platform/Database.ts"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import { storedCore } from "../support/StoredCore.ts"
import * as TestDatabase from "../support/TestDatabase.ts"

const services = storedCore()

/** Two writes of a fresh account waiting for their approval (approve mode): no actor touches them. */
const twoWaitingWrites = Effect.gen(function*() {
  const { workspace } = yield* (yield* Workspaces).create({ name: "Held rows" })
  const { account } = yield* (yield* Accounts).connect({ workspaceId: workspace.id, baseUrl: "http://127.0.0.1" })
  const jobs = yield* Jobs
  const connect = (person: string) =>
    jobs.create({ workspaceId: workspace.id, accountId: account.id, command: "connect", input: { person } })
  const held = yield* connect("maria-garcia")
  const other = yield* connect("jan-novak")
  const store = yield* JobStore
  const rowOf = (id: string) => Effect.flatMap(store.byId(id), (row) => row === undefined ? Effect.die(new Error(id)) : Effect.succeed(row))
  return { workspaceId: workspace.id, held: yield* rowOf(held.id), other: yield* rowOf(other.id) }
}).pipe(Effect.orDie)

/** Holds the job's row for `seconds` in a transaction of its own (as another session would); done when it holds it. */
const holdRow = (id: string, seconds: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const holding = Latch.makeUnsafe(false)
    const fiber = yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql`SELECT id FROM jobs WHERE id = ${id} FOR UPDATE`
      yield* holding.open
      yield* sql`SELECT pg_sleep(${seconds})`
    })).pipe(Effect.orDie, Effect.forkChild)
    yield* holding.await
    return fiber
  })

/** How long `effect` took in real time (ms), with its result. */
const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const began = yield* Time.liveNow
    const result = yield* effect
    return { result, ms: (yield* Time.liveNow) - began }
  })

const cancelled = { _tag: "Failed", error: { type: "cancelled", message: "cancelled", next: "" }, writesNotBefore: null } as const

layer(services, { timeout: 60_000 })("rows held by another session (PostgreSQL)", (it) => {
  it.effect.skipIf(TestDatabase.backend !== "postgresql")("every connection carries the lock, statement and idle-transaction timeouts", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ lock: string; statement: string; idle: string }>`
        SELECT current_setting('lock_timeout') AS lock, current_setting('statement_timeout') AS statement,
               current_setting('idle_in_transaction_session_timeout') AS idle`
      assert.deepStrictEqual(row, {
        lock: sessionSettings["lock_timeout"],
        statement: sessionSettings["statement_timeout"],
        idle: sessionSettings["idle_in_transaction_session_timeout"]
      })
    }).pipe(Effect.orDie))

  it.effect.skipIf(TestDatabase.backend !== "postgresql")(
    "a batch of finishes goes on without a held job, which is finished on its own once its row is free",
    () =>
      Effect.gen(function*() {
        const { held, other } = yield* twoWaitingWrites
        const endings = yield* JobEndings
        const hold = yield* holdRow(held.id, 3)
        const heldFinish = yield* Effect.forkChild(timed(endings.finish(held, cancelled, ["awaiting_approval"])))
        const otherFinish = yield* timed(endings.finish(other, cancelled, ["awaiting_approval"]))
        assert.strictEqual(otherFinish.result?.status, "cancelled")
        assert.isBelow(otherFinish.ms, 1000, "the other job of the batch waited for the held row")
        yield* Fiber.join(hold)
        const late = yield* Fiber.join(heldFinish)
        assert.strictEqual(late.result?.status, "cancelled", "the held job is finished once its row is free")
        assert.isAtLeast(late.ms, 1500)
      }))

  it.effect.skipIf(TestDatabase.backend !== "postgresql")(
    "a statement waiting for a held row holds up no other request's statements",
    () =>
      Effect.gen(function*() {
        const { held, other, workspaceId } = yield* twoWaitingWrites
        const store = yield* JobStore
        const hold = yield* holdRow(held.id, 3)
        // A plain statement (no transaction) that must wait for the row...
        const waiting = yield* Effect.forkChild(timed(store.release(held.id, held.input)))
        // ...while other requests read and write other rows, each at once.
        const others = yield* Effect.forEach(Array.from({ length: 40 }, (_, i) => i), (i) =>
          timed(i % 2 === 0 ? store.get(workspaceId, other.id) : store.setWaiting(crypto.randomUUID(), "queue", null)), {
          concurrency: "unbounded"
        })
        const slowest = Math.max(...others.map((one) => one.ms))
        assert.isBelow(slowest, 1000, `the slowest unrelated statement took ${slowest} ms`)
        yield* Fiber.join(hold)
        assert.isAtLeast((yield* Fiber.join(waiting)).ms, 1500, "the release waited for the held row")
      }))

  it.effect.skipIf(TestDatabase.backend !== "postgresql")(
    "a statement gives up after the lock timeout, as a failure the service answers 503",
    () =>
      Effect.gen(function*() {
        const { held } = yield* twoWaitingWrites
        const sql = yield* SqlClient.SqlClient
        const hold = yield* holdRow(held.id, 7)
        const given = yield* timed(Effect.exit(sql`UPDATE jobs SET input = input WHERE id = ${held.id}`))
        yield* Fiber.join(hold)
        assert.isTrue(given.result._tag === "Failure" && isDatabaseBusy(given.result.cause), String(given.result))
        assert.isAtLeast(given.ms, 4500)
        assert.isBelow(given.ms, 6900)
      }))
})
