/**
 * How attempts are stored: an automatic attempt that succeeded is kept on its
 * delivery's row (migrations/0180), every other attempt as an attempt row, and
 * the history shows them all, oldest first.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import { type AttemptOutcome, DeliveryStore, type FanOutLease } from "../../src/webhooks/DeliveryStore.ts"
import { EndpointTable } from "../../src/webhooks/EndpointTable.ts"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import * as TestDatabase from "../support/TestDatabase.ts"

const services = Layer.mergeAll(DeliveryStore.layer, EndpointTable.layer, Workspaces.layer).pipe(
  Layer.provide(AppConfig.layerWith({})),
  Layer.provideMerge(TestDatabase.layer)
)

/** A new endpoint subscribed to every event of a new workspace. */
const newEndpoint = Effect.gen(function*() {
  const { workspace } = yield* (yield* Workspaces).create({ name: "W" })
  const endpoint = yield* (yield* EndpointTable).insert({
    id: crypto.randomUUID(),
    workspaceId: workspace.id,
    url: "http://127.0.0.1:9/hook",
    events: [],
    mode: "fat",
    secret: "s",
    nowIso: "2026-01-01T00:00:00.000Z"
  })
  return { workspaceId: workspace.id, endpointId: endpoint.id }
})

/** `count` events of the workspace fanned out, with leases as `lease` says; the deliveries leased. */
const fanOutEvents = (workspaceId: string, count: number, lease: FanOutLease) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // A transaction after the endpoint's: the events are ones it subscribes to.
    const [writer] = yield* sql<{ readonly xid: string }>`SELECT pg_current_xact_id()::text AS xid`.pipe(Effect.orDie)
    return yield* (yield* DeliveryStore).fanOut(
      Array.from({ length: count }, (_, i) => ({
        seq: i + 1,
        id: crypto.randomUUID(),
        workspaceId,
        type: "account.paused",
        createdAt: "2026-01-01T00:00:01.000Z",
        writerXid: writer.xid,
        fatBody: `{"n":${i}}`,
        thinBody: "{}"
      })),
      yield* (yield* EndpointTable).subscribers([workspaceId]),
      "2026-01-01T00:00:01.000Z",
      lease
    )
  })

const noLease: FanOutLease = { untilIso: "2026-01-01T00:00:01.000Z", capOf: () => 0 }

/** One pending delivery of one event to a new endpoint; its endpoint's and its own id. */
const oneDelivery = Effect.gen(function*() {
  const { endpointId, workspaceId } = yield* newEndpoint
  yield* fanOutEvents(workspaceId, 1, noLease)
  const [delivery] = yield* (yield* DeliveryStore).history(endpointId, 10)
  assert.isDefined(delivery)
  return { endpointId, deliveryId: delivery.id }
})

const attemptRows = (deliveryId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ readonly n: number }>`
      SELECT count(*)::int AS n FROM webhook_attempts WHERE delivery_id = ${deliveryId}`.pipe(Effect.orDie)
    return rows[0]?.n
  })

const succeeded = (deliveryId: string, atIso: string, trigger: "automatic" | "manual"): AttemptOutcome => ({
  attempt: { deliveryId, trigger, atIso, statusCode: 204, error: null, durationMs: 3, succeeded: true },
  change: { _tag: "succeeded", counted: trigger === "automatic" }
})

layer(services)("webhook delivery storage", (it) => {
  it.effect("the fan-out writes the first of an endpoint's deliveries leased, up to its cap, and returns them oldest first", () =>
    Effect.gen(function*() {
      const store = yield* DeliveryStore
      const { endpointId, workspaceId } = yield* newEndpoint
      const leased = yield* fanOutEvents(workspaceId, 5, { untilIso: "2026-01-01T00:01:11.000Z", capOf: () => 3 })
      assert.deepStrictEqual(leased.map((delivery) => [delivery.endpointId, delivery.body, delivery.status]), [
        [endpointId, `{"n":0}`, "pending"],
        [endpointId, `{"n":1}`, "pending"],
        [endpointId, `{"n":2}`, "pending"]
      ])
      // The two beyond the cap are due for any server; the leased ones are not, until their lease ends.
      const due = yield* store.due("2026-01-01T00:00:02.000Z", 10, [])
      assert.strictEqual(due.length, 2)
      assert.isFalse(due.some((row) => leased.some((delivery) => delivery.id === row.id)))
      assert.strictEqual((yield* store.due("2026-01-01T00:01:11.000Z", 10, [])).length, 5)
    }))

  it.effect("a failure then a success: both attempts shown, oldest first; the success kept on the delivery's row", () =>
    Effect.gen(function*() {
      const store = yield* DeliveryStore
      const { deliveryId, endpointId } = yield* oneDelivery
      yield* store.record([{
        attempt: {
          deliveryId,
          trigger: "automatic",
          atIso: "2026-01-01T00:00:02.000Z",
          statusCode: 500,
          error: "The endpoint answered 500.",
          durationMs: 5,
          succeeded: false
        },
        change: { _tag: "retry", attemptCount: 1, atIso: "2026-01-01T00:00:32.000Z" }
      }])
      yield* store.record([succeeded(deliveryId, "2026-01-01T00:00:33.000Z", "automatic")])
      const delivery = yield* store.ofEndpoint(endpointId, deliveryId)
      assert.strictEqual(delivery?.status, "succeeded")
      assert.strictEqual(delivery?.attemptCount, 2)
      assert.strictEqual(delivery?.nextAttemptAt, null)
      assert.deepStrictEqual(delivery?.attempts, [
        { at: "2026-01-01T00:00:02.000Z", trigger: "automatic", statusCode: 500, error: "The endpoint answered 500.", durationMs: 5 },
        { at: "2026-01-01T00:00:33.000Z", trigger: "automatic", statusCode: 204, error: null, durationMs: 3 }
      ])
      // Only the failure is an attempt row.
      assert.strictEqual(yield* attemptRows(deliveryId), 1)
    }))

  it.effect("a second automatic success (after a lapsed lease) and a manual one are attempt rows: none is lost", () =>
    Effect.gen(function*() {
      const store = yield* DeliveryStore
      const { deliveryId, endpointId } = yield* oneDelivery
      yield* store.record([succeeded(deliveryId, "2026-01-01T00:00:02.000Z", "automatic")])
      assert.strictEqual(yield* attemptRows(deliveryId), 0)
      yield* store.record([succeeded(deliveryId, "2026-01-01T00:00:03.000Z", "automatic")])
      yield* store.record([succeeded(deliveryId, "2026-01-01T00:00:04.000Z", "manual")])
      const delivery = yield* store.ofEndpoint(endpointId, deliveryId)
      assert.deepStrictEqual(delivery?.attempts.map((a) => [a.at, a.trigger]), [
        ["2026-01-01T00:00:02.000Z", "automatic"],
        ["2026-01-01T00:00:03.000Z", "automatic"],
        ["2026-01-01T00:00:04.000Z", "manual"]
      ])
      assert.strictEqual(yield* attemptRows(deliveryId), 2)
      const [listed] = yield* store.history(endpointId, 10)
      assert.deepStrictEqual(listed, delivery)
    }))
})
