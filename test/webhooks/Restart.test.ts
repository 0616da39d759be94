import { assert, it } from "@effect/vitest"
import { Effect, Exit, Layer, Scope } from "effect"
import { TestClock } from "effect/testing"
import { call, newWorkspace } from "../support/TestServer.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { emit, eventually, on, receiver, restartableServer } from "./support.ts"

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
    const second = yield* Scope.make()
    const secondContext = yield* Layer.build(restartableServer(open())).pipe(Scope.provide(second))
    const [resumed] = yield* eventually(
      "attempt 3 after restart",
      Effect.map(call("GET", `/v1/webhooks/${hookId}/deliveries`, { token }), (reply) => reply.body.deliveries),
      (d: Array<any>) => d[0]?.status === "succeeded",
      // A second start on a busy machine (migrations checked, dispatcher started) can take seconds.
      30_000
    ).pipe(Effect.provideContext(secondContext))
    yield* Scope.close(second, Exit.void)

    assert.strictEqual(resumed.id, deliveryId)
    assert.strictEqual(resumed.attemptCount, 3)
    assert.deepStrictEqual(resumed.attempts.map((a: any) => a.statusCode), [500, 500, 204])
    const got = on(r.received, "/down")
    assert.strictEqual(got.length, 3)
    assert.deepStrictEqual(new Set(got.map((g) => g.headers["svc-delivery"])), new Set([deliveryId]))
  }), { timeout: 60_000 })
