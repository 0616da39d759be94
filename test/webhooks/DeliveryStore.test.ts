/**
 * How deliveries and attempts are stored: a fan-out holds some deliveries
 * unwritten under a claim, each written once with its first outcome, and
 * a lapsed claim's fanned out again with the same ids (migrations/0190); an
 * automatic attempt that succeeded is kept on its delivery's row
 * (migrations/0180), every other attempt as an attempt row, and the history
 * shows them all, oldest first.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import {
  type AttemptOutcome,
  DeliveryStore,
  type FanOutHold,
  type FanOutSource
} from "../../src/webhooks/DeliveryStore.ts"
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

/** `count` events of the workspace, written by a transaction after the endpoint's: events it subscribes to. */
const newEvents = (workspaceId: string, count: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [writer] = yield* sql<{ readonly xid: string }>`SELECT pg_current_xact_id()::text AS xid`.pipe(Effect.orDie)
    return Array.from({ length: count }, (_, i): FanOutSource => ({
      seq: i + 1,
      id: crypto.randomUUID(),
      workspaceId,
      type: "account.paused",
      createdAt: "2026-01-01T00:00:01.000Z",
      writerXid: writer.xid,
      bodies: { fat: `{"n":${i}}`, thin: "{}" }
    }))
  })

/** `events` fanned out, holding as `hold` says; the deliveries held. */
const fanOut = (events: ReadonlyArray<FanOutSource>, hold: FanOutHold) =>
  Effect.gen(function*() {
    const workspaceIds = [...new Set(events.map((event) => event.workspaceId))]
    return yield* (yield* DeliveryStore).fanOut(
      events,
      yield* (yield* EndpointTable).subscribers(workspaceIds),
      "2026-01-01T00:00:01.000Z",
      hold
    )
  })

/** `count` events of the workspace fanned out, holding as `hold` says; the deliveries held. */
const fanOutEvents = (workspaceId: string, count: number, hold: FanOutHold) =>
  Effect.flatMap(newEvents(workspaceId, count), (events) => fanOut(events, hold))

const noHold: FanOutHold = { claimId: crypto.randomUUID(), untilIso: "2026-01-01T00:00:01.000Z", capOf: () => 0 }

/** The ids among `ids` of the claims lapsed by `atIso` (other tests' share the database). */
const lapsedAmong = (atIso: string, ids: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const claims = yield* (yield* DeliveryStore).lapsedClaims(atIso, 1000)
    return claims.filter((claim) => ids.includes(claim.id))
  })

/** The ids among `ids` of the deliveries due at `atIso`. */
const dueAmong = (atIso: string, ids: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const rows = yield* (yield* DeliveryStore).due(atIso, 1000, [])
    return rows.map((row) => row.id).filter((id) => ids.includes(id)).sort()
  })

/** One pending delivery of one event to a new endpoint; its endpoint's and its own id. */
const oneDelivery = Effect.gen(function*() {
  const { endpointId, workspaceId } = yield* newEndpoint
  yield* fanOutEvents(workspaceId, 1, noHold)
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

/** An automatic attempt at 00:00:02 answered 500, to be retried at 00:00:32. */
const failedOnce = (deliveryId: string): AttemptOutcome => ({
  attempt: {
    deliveryId,
    trigger: "automatic",
    atIso: "2026-01-01T00:00:02.000Z",
    statusCode: 500,
    error: "The endpoint answered 500.",
    durationMs: 5,
    response: "upstream \u00e9rror",
    succeeded: false
  },
  change: { _tag: "retry", attemptCount: 1, atIso: "2026-01-01T00:00:32.000Z" }
})

const succeeded = (deliveryId: string, atIso: string, trigger: "automatic" | "manual"): AttemptOutcome => ({
  attempt: { deliveryId, trigger, atIso, statusCode: 204, error: null, durationMs: 3, response: `ok ${trigger}`, succeeded: true },
  change: { _tag: "succeeded", counted: trigger === "automatic" }
})

layer(services)("webhook delivery storage", (it) => {
  it.effect("the fan-out holds the first of an endpoint's deliveries unwritten, up to its cap, under a claim; the rest are due", () =>
    Effect.gen(function*() {
      const store = yield* DeliveryStore
      const { endpointId, workspaceId } = yield* newEndpoint
      const claimId = crypto.randomUUID()
      const held = yield* fanOutEvents(workspaceId, 5, { claimId, untilIso: "2026-01-01T00:01:11.000Z", capOf: () => 3 })
      assert.deepStrictEqual(held.map((delivery) => [delivery.endpointId, delivery.body, delivery.attemptCount]), [
        [endpointId, `{"n":0}`, 0],
        [endpointId, `{"n":1}`, 0],
        [endpointId, `{"n":2}`, 0]
      ])
      // The two beyond the cap are written, due for any server; the held ones are not written.
      const written = (yield* store.history(endpointId, 10)).map((delivery) => delivery.id)
      assert.strictEqual(written.length, 2)
      assert.isFalse(written.some((id) => held.some((delivery) => delivery.id === id)))
      assert.deepStrictEqual(yield* dueAmong("2026-01-01T00:00:02.000Z", written), [...written].sort())
      // The claim lapses with its lease, not before.
      assert.deepStrictEqual(yield* lapsedAmong("2026-01-01T00:01:10.000Z", [claimId]), [])
      assert.deepStrictEqual((yield* lapsedAmong("2026-01-01T00:01:11.000Z", [claimId])).map((claim) => claim.id), [claimId])
    }))

  it.effect("a held delivery is written once, in the state its first outcome gives it", () =>
    Effect.gen(function*() {
      const store = yield* DeliveryStore
      const { endpointId, workspaceId } = yield* newEndpoint
      const [ok, failing] = yield* fanOutEvents(workspaceId, 2, { claimId: crypto.randomUUID(), untilIso: "2026-01-01T00:01:11.000Z", capOf: () => 2 })
      yield* store.record([
        { ...succeeded(ok.id, "2026-01-01T00:00:02.000Z", "automatic"), fresh: ok },
        { ...failedOnce(failing.id), fresh: failing }
      ])
      const delivered = yield* store.ofEndpoint(endpointId, ok.id)
      assert.deepStrictEqual([delivered?.status, delivered?.attemptCount, delivered?.createdAt], ["succeeded", 1, "2026-01-01T00:00:01.000Z"])
      assert.deepStrictEqual(delivered?.attempts, [
        { at: "2026-01-01T00:00:02.000Z", trigger: "automatic", statusCode: 204, error: null, durationMs: 3, response: "ok automatic" }
      ])
      assert.strictEqual(yield* attemptRows(ok.id), 0)
      const retried = yield* store.ofEndpoint(endpointId, failing.id)
      assert.deepStrictEqual([retried?.status, retried?.attemptCount, retried?.nextAttemptAt], ["pending", 1, "2026-01-01T00:00:32.000Z"])
      assert.strictEqual(yield* attemptRows(failing.id), 1)
      // Due at its retry, for any server.
      assert.deepStrictEqual(yield* dueAmong("2026-01-01T00:00:32.000Z", [ok.id, failing.id]), [failing.id])
    }))

  it.effect("a lapsed claim's events fanned out again: what was not written is, with the ids it was held with", () =>
    Effect.gen(function*() {
      const store = yield* DeliveryStore
      const { endpointId, workspaceId } = yield* newEndpoint
      const events = yield* newEvents(workspaceId, 3)
      const claimId = crypto.randomUUID()
      const held = yield* fanOut(events, { claimId, untilIso: "2026-01-01T00:01:11.000Z", capOf: () => 3 })
      // The server wrote one with its outcome, then died.
      yield* store.record([{ ...succeeded(held[0].id, "2026-01-01T00:00:02.000Z", "automatic"), fresh: held[0] }])
      const [lapsed] = yield* lapsedAmong("2026-01-01T00:02:00.000Z", [claimId])
      assert.deepStrictEqual([lapsed?.id, lapsed?.firstSeq, lapsed?.lastSeq], [claimId, 1, 3])
      assert.deepStrictEqual(yield* fanOut(events, { ...noHold, claimId }), [])
      yield* store.endClaims([claimId])
      const history = yield* store.history(endpointId, 10)
      assert.sameMembers(history.map((delivery) => delivery.id), held.map((delivery) => delivery.id))
      assert.deepStrictEqual(
        history.map((delivery) => [delivery.id, delivery.status]).sort(),
        [[held[0].id, "succeeded"], [held[1].id, "pending"], [held[2].id, "pending"]].sort()
      )
      assert.deepStrictEqual(yield* lapsedAmong("2026-01-01T00:02:00.000Z", [claimId]), [])
    }))

  it.effect("held deliveries written pending, leased or not; none for an endpoint deleted meanwhile", () =>
    Effect.gen(function*() {
      const store = yield* DeliveryStore
      const kept = yield* newEndpoint
      const gone = yield* newEndpoint
      const hold = { claimId: crypto.randomUUID(), untilIso: "2026-01-01T00:01:11.000Z", capOf: () => 1 }
      const [leased] = yield* fanOutEvents(kept.workspaceId, 1, hold)
      const [free] = yield* fanOutEvents(kept.workspaceId, 1, { ...hold, claimId: crypto.randomUUID() })
      const [orphan] = yield* fanOutEvents(gone.workspaceId, 1, { ...hold, claimId: crypto.randomUUID() })
      assert.isTrue(yield* (yield* EndpointTable).remove(gone.workspaceId, gone.endpointId))
      yield* store.write([leased], "2026-01-01T00:01:11.000Z")
      yield* store.write([free, orphan], null)
      assert.deepStrictEqual(yield* dueAmong("2026-01-01T00:00:02.000Z", [free.id, leased.id]), [free.id])
      assert.deepStrictEqual(yield* dueAmong("2026-01-01T00:01:11.000Z", [free.id, leased.id]), [free.id, leased.id].sort())
      assert.deepStrictEqual(yield* store.history(gone.endpointId, 10), [])
    }))

  it.effect("a failure then a success: both attempts shown, oldest first; the success kept on the delivery's row", () =>
    Effect.gen(function*() {
      const store = yield* DeliveryStore
      const { deliveryId, endpointId } = yield* oneDelivery
      yield* store.record([failedOnce(deliveryId)])
      yield* store.record([succeeded(deliveryId, "2026-01-01T00:00:33.000Z", "automatic")])
      const delivery = yield* store.ofEndpoint(endpointId, deliveryId)
      assert.strictEqual(delivery?.status, "succeeded")
      assert.strictEqual(delivery?.attemptCount, 2)
      assert.strictEqual(delivery?.nextAttemptAt, null)
      assert.deepStrictEqual(delivery?.attempts, [
        { at: "2026-01-01T00:00:02.000Z", trigger: "automatic", statusCode: 500, error: "The endpoint answered 500.", durationMs: 5, response: "upstream \u00e9rror" },
        { at: "2026-01-01T00:00:33.000Z", trigger: "automatic", statusCode: 204, error: null, durationMs: 3, response: "ok automatic" }
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
