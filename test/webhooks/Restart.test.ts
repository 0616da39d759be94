import { assert, it } from "@effect/vitest"
import { Effect, Exit, Layer, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import type { NewEvent } from "../../src/domain/Events.ts"
import { Outbox } from "../../src/events/Outbox.ts"
import { DeliveryStore, fanOutSources } from "../../src/webhooks/DeliveryStore.ts"
import { EndpointTable } from "../../src/webhooks/EndpointTable.ts"
import { call, newWorkspace } from "../support/TestServer.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { emit, eventually, on, receiver, restartableServer } from "./support.ts"

/** The endpoint's deliveries, read from a new server over the database `open` opens once `done` says so. */
const onNewServer = (
  open: () => Layer.Layer<SqlClient.SqlClient>,
  label: string,
  token: string,
  hookId: string,
  done: (deliveries: Array<any>) => boolean
) =>
  Effect.gen(function*() {
    const scope = yield* Scope.make()
    const context = yield* Layer.build(restartableServer(open())).pipe(Scope.provide(scope))
    const deliveries = yield* eventually(
      label,
      Effect.map(call("GET", `/v1/webhooks/${hookId}/deliveries`, { token }), (reply): Array<any> => reply.body.deliveries),
      done,
      // A start on a busy machine (migrations checked, dispatcher started) can take seconds.
      30_000
    ).pipe(Effect.provideContext(context))
    yield* Scope.close(scope, Exit.void)
    return deliveries
  })

const paused: NewEvent = { type: "account.paused", data: { accountId: crypto.randomUUID(), reason: "crash test" } }

it.effect("a restart in the middle of the retry schedule resumes it from the database", () =>
  Effect.gen(function*() {
    const r = yield* receiver
    r.behave("/down", "fail500")
    const open = yield* TestDatabase.reopenable

    // First life: two failed attempts, then the server stops.
    const first = yield* Scope.make()
    const firstContext = yield* Layer.build(restartableServer(open())).pipe(Scope.provide(first))
    const { token, hookId, deliveryId, dueAt } = yield* Effect.gen(function*() {
      const { keyValue: token, workspace } = yield* newWorkspace()
      const created = yield* call("POST", "/v1/webhooks", { token, body: { url: `${r.base}/down` } })
      const hookId: string = created.body.webhook.id
      yield* emit(workspace.id, [{ type: "account.resumed", data: { accountId: crypto.randomUUID(), wasRestricted: false } }])
      const deliveries = (n: number) =>
        eventually(
          `attempt ${n}`,
          Effect.map(call("GET", `/v1/webhooks/${hookId}/deliveries`, { token }), (reply) => reply.body.deliveries),
          (d: Array<any>) => d[0]?.attemptCount === n,
          30_000
        )
      const [afterOne] = yield* deliveries(1)
      yield* TestClock.setTime(Date.parse(afterOne.nextAttemptAt))
      const [afterTwo] = yield* deliveries(2)
      return { token, hookId, deliveryId: String(afterTwo.id), dueAt: Date.parse(afterTwo.nextAttemptAt) }
    }).pipe(Effect.provideContext(firstContext))
    yield* Scope.close(first, Exit.void)
    assert.strictEqual(on(r.received, "/down").length, 2)

    // While it is down the third attempt falls due; the new server makes it.
    yield* TestClock.setTime(dueAt + 1000)
    r.behave("/down", "ok")
    const [resumed] = yield* onNewServer(open, "attempt 3 after restart", token, hookId, (d) => d[0]?.status === "succeeded")

    assert.strictEqual(resumed.id, deliveryId)
    assert.strictEqual(resumed.attemptCount, 3)
    assert.deepStrictEqual(resumed.attempts.map((a: any) => a.statusCode), [500, 500, 204])
    const got = on(r.received, "/down")
    assert.strictEqual(got.length, 3)
    assert.deepStrictEqual(new Set(got.map((g) => g.headers["svc-delivery"])), new Set([deliveryId]))
  }), { timeout: 60_000 })

it.effect("a server that died holding a fan-out's deliveries: once its claim lapses, the next server writes and sends them, same ids", () =>
  Effect.gen(function*() {
    const r = yield* receiver
    const open = yield* TestDatabase.reopenable

    // First life: an endpoint, then a clean stop.
    const first = yield* Scope.make()
    const firstContext = yield* Layer.build(restartableServer(open())).pipe(Scope.provide(first))
    const { token, hookId, workspaceId } = yield* Effect.gen(function*() {
      const { keyValue: token, workspace } = yield* newWorkspace()
      const created = yield* call("POST", "/v1/webhooks", { token, body: { url: `${r.base}/late` } })
      return { token, hookId: String(created.body.webhook.id), workspaceId: workspace.id }
    }).pipe(Effect.provideContext(firstContext))
    yield* Scope.close(first, Exit.void)

    // What a server leaves when it dies right after a fan-out: the cursor past the event and a claim
    // on it, the delivery it held never written.
    const held = yield* Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const outbox = yield* Outbox
      yield* sql.withTransaction(outbox.append(workspaceId, [paused]))
      return yield* sql.withTransaction(Effect.gen(function*() {
        const [cursor] = yield* sql<{ readonly lastSeq: number }>`
          SELECT last_seq::int AS "lastSeq" FROM webhook_dispatch_cursor WHERE id = 1 FOR UPDATE`
        const events = yield* outbox.fanOutBatch(cursor?.lastSeq ?? 0, yield* outbox.writerHorizon, 10)
        const subscribers = yield* (yield* EndpointTable).subscribers([workspaceId])
        const kept = yield* (yield* DeliveryStore).fanOut(
          fanOutSources(events, subscribers),
          subscribers,
          "1970-01-01T00:00:00.000Z",
          { claimId: crypto.randomUUID(), untilIso: "1970-01-01T00:01:10.000Z", capOf: () => 10 }
        )
        yield* sql`UPDATE webhook_dispatch_cursor SET last_seq = ${events[events.length - 1].seq} WHERE id = 1`
        return kept
      }))
    }).pipe(Effect.provide(Layer.mergeAll(DeliveryStore.layer, Outbox.layer, EndpointTable.layer).pipe(Layer.provideMerge(open()))))
    assert.strictEqual(held.length, 1)

    // The claim lapses (70 s); the next server writes the delivery and sends it.
    yield* TestClock.setTime(71_000)
    const [delivered] = yield* onNewServer(
      open,
      "the held delivery sent by the next server",
      token,
      hookId,
      (d) => d[0]?.status === "succeeded"
    )

    assert.strictEqual(delivered.id, held[0].id)
    assert.deepStrictEqual(on(r.received, "/late").map((got) => got.headers["svc-delivery"]), [held[0].id])
  }), { timeout: 60_000 })
