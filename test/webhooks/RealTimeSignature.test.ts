/**
 * Webhook signatures carry real time, even when the service runs on the
 * sandbox's test clock (`OUTREACH_CLOCK=test`): after that clock was moved a
 * day on, a receiver checking the timestamp against its own clock (as the
 * receiver's kit does, within five minutes) still accepts the deliveries.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Time from "../../src/domain/Time.ts"
import { verifyWebhook } from "../../src/webhooks/Signature.ts"
import { call, newWorkspace } from "../support/TestServer.ts"
import { eventually, on, receiver, serverLayer } from "./support.ts"

layer(serverLayer({ allowPrivateWebhooks: true, clock: "test" }))("webhook signatures on the sandbox's test clock", (it) => {
  it.effect("a receiver accepts signatures after the test clock was moved a day on", () =>
    Effect.gen(function*() {
      const hook = yield* receiver
      const { keyValue: token } = yield* newWorkspace()
      const registered = yield* call("POST", "/v1/webhooks", { token, body: { url: `${hook.base}/events` } })
      assert.strictEqual(registered.status, 201, JSON.stringify(registered.body))
      const secret: string = registered.body.secret
      const moved = yield* call("POST", "/v1/sandbox/clock", { token, body: { advanceSeconds: 86_400 } })
      assert.strictEqual(moved.status, 200, JSON.stringify(moved.body))
      const sandboxNow = Date.parse(String(moved.body.now))

      const created = yield* call("POST", "/v1/accounts/connect", { token, body: { label: "Ada" } })
      yield* call("POST", `/v1/sandbox/accounts/${created.body.account.id}/complete-connection`, { token, body: { tier: "premium" } })
      const [delivery] = yield* eventually("a delivery", Effect.sync(() => on(hook.received, "/events")), (r) => r.length >= 1)

      const realSeconds = Math.floor((yield* Time.liveNow) / 1000)
      const signedAt = Number(delivery.headers["svc-signature-timestamp"])
      assert.isAtMost(Math.abs(signedAt - realSeconds), 60, "signed with the real time")
      assert.isAbove(sandboxNow / 1000 - signedAt, 80_000, "not with the sandbox's time")
      // The receiver's own clock, as the kit checks by default.
      assert.isTrue(verifyWebhook(secret, delivery.headers, delivery.body, { nowSeconds: realSeconds }).ok)
      // The event itself is dated in the sandbox's time.
      assert.isAbove(Date.parse(JSON.parse(delivery.body).createdAt), sandboxNow - 60_000)
    }))
})
