import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Outbox } from "../../src/events/Outbox.ts"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import * as TestDatabase from "../support/TestDatabase.ts"

const services = Layer.mergeAll(Outbox.layer, Workspaces.layer).pipe(
  Layer.provide(AppConfig.layerWith({})),
  Layer.provideMerge(TestDatabase.layer)
)

layer(services)("outbox", (it) => {
  it.effect("records events in order, and only when their transaction commits", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const outbox = yield* Outbox
      const { workspace } = yield* (yield* Workspaces).create({ name: "W" })
      const accountId = crypto.randomUUID()
      yield* sql.withTransaction(outbox.append(workspace.id, [
        { type: "account.paused", data: { accountId, reason: "paused by a person" } },
        { type: "account.resumed", data: { accountId, wasRestricted: false } }
      ]))
      const rolledBack = sql.withTransaction(
        outbox.append(workspace.id, [{ type: "account.paused", data: { accountId, reason: "never" } }]).pipe(
          Effect.andThen(Effect.fail("abort"))
        )
      )
      assert.strictEqual(yield* Effect.flip(rolledBack), "abort")

      const events = yield* outbox.list(workspace.id)
      assert.deepStrictEqual(events.map((e) => e.type), ["account.paused", "account.resumed"])
      assert.deepStrictEqual(events[0].data, { accountId, reason: "paused by a person" })
      assert.deepStrictEqual(events[1].data, { accountId, wasRestricted: false })
      assert.match(events[0].id, /^[0-9a-f-]{36}$/)
      const paused = yield* outbox.list(workspace.id, { type: "account.resumed" })
      assert.strictEqual(paused.length, 1)
    }))
  it.effect("appends 12,000 events at once, in order, and none of them when the transaction fails", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const outbox = yield* Outbox
      const { workspace } = yield* (yield* Workspaces).create({ name: "Many" })
      const many = Array.from({ length: 12_000 }, (_, i) => ({
        type: "account.paused" as const,
        data: { accountId: crypto.randomUUID(), reason: `event ${i}` }
      }))
      const failing = sql.withTransaction(outbox.append(workspace.id, many).pipe(Effect.andThen(Effect.fail("abort"))))
      assert.strictEqual(yield* Effect.flip(failing), "abort")
      assert.strictEqual((yield* outbox.list(workspace.id)).length, 0)
      yield* sql.withTransaction(outbox.append(workspace.id, many))
      const events = yield* outbox.list(workspace.id)
      assert.deepStrictEqual(events.map((e) => e.data), many.map((e) => e.data))
    }), { timeout: 120_000 })
})
