import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { verifyWebhook } from "../../src/webhooks/Signature.ts"
import { call, newWorkspace } from "../support/TestServer.ts"
import { eventually, on, receiver, serverLayer } from "./support.ts"

layer(serverLayer())("account events reach webhooks end to end", (it) => {
  it.effect("connecting, pausing and resuming an account are delivered, signed, ordered by createdAt", () =>
    Effect.gen(function*() {
      const hook = yield* receiver
      const { keyValue: token } = yield* newWorkspace()
      const registered = yield* call("POST", "/v1/webhooks", { token, body: { url: `${hook.base}/events` } })
      assert.strictEqual(registered.status, 201)
      const secret: string = registered.body.secret

      const created = yield* call("POST", "/v1/accounts/connect", { token, body: { label: "Ada" } })
      const id: string = created.body.account.id
      yield* call("POST", `/v1/sandbox/accounts/${id}/complete-connection`, { token, body: { tier: "premium" } })
      yield* call("POST", `/v1/accounts/${id}/pause`, { token })
      yield* call("POST", `/v1/accounts/${id}/resume`, { token })

      const received = yield* eventually("three deliveries", Effect.sync(() => on(hook.received, "/events")), (r) =>
        r.length >= 3)
      // Deliveries may arrive out of order (spec, Webhooks 4): receivers order by createdAt, so do we.
      const arrived = received.map((r) => JSON.parse(r.body))
      const byType = (type: string) => arrived.find((b) => b.type === type)
      const bodies = ["account.connected", "account.paused", "account.resumed"].map(byType)
      assert.deepStrictEqual(bodies.map((b) => b?.type), ["account.connected", "account.paused", "account.resumed"])
      assert.isTrue(bodies[0].createdAt <= bodies[1].createdAt && bodies[1].createdAt <= bodies[2].createdAt)
      assert.strictEqual(new Set(arrived.map((b) => b.id)).size, 3)
      assert.deepStrictEqual(bodies[0].data, { accountId: id, tier: "premium", products: [], reconnected: false })
      assert.deepStrictEqual(bodies[2].data, { accountId: id, wasRestricted: false })
      for (const r of received) {
        assert.strictEqual(r.headers["svc-event"], JSON.parse(r.body).type)
        // The service signs with its (test) clock; verify as of that instant.
        const nowSeconds = Number(r.headers["svc-signature-timestamp"])
        assert.isTrue(verifyWebhook(secret, r.headers, r.body, { nowSeconds }).ok)
        assert.isFalse(verifyWebhook(secret, r.headers, r.body + " ", { nowSeconds }).ok)
      }
    }))
})
