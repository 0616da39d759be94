/**
 * Webhooks in the dashboard (issue #32): choose the events and the payload,
 * edit the URL, rotate the secret (shown once), send a test event and see a
 * delivery's payload and the response.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { csrfTokenFor } from "../../src/http/SessionCookie.ts"
import { verifyWebhook } from "../../src/webhooks/Signature.ts"
import { cookie, ownerSession, teammate } from "../support/Teammates.ts"
import { receiver } from "../webhooks/support.ts"
import { call, layer as serverLayer } from "../support/TestServer.ts"

layer(serverLayer({ allowPrivateWebhooks: true }))("webhooks in the dashboard", (it) => {
  it.effect("an owner chooses the events and the payload, edits the URL and rotates the secret", () =>
    Effect.gen(function*() {
      const { key, token } = yield* ownerSession
      const made = yield* call("POST", "/v1/webhooks", { token: key, body: { url: "http://127.0.0.1:9/hook" } })
      const id: string = made.body.webhook.id
      const post = (path: string, fields: string) =>
        call("POST", path, {
          headers: cookie(token),
          raw: { text: `_csrf=${encodeURIComponent(csrfTokenFor(token))}&${fields}`, contentType: "application/x-www-form-urlencoded" }
        })
      const page = yield* call("GET", `/dashboard/webhooks/${id}`, { headers: cookie(token) })
      assert.include(page.body, "Rotate the secret")
      const saved = yield* post(`/dashboard/webhooks/${id}/settings`, "url=http%3A%2F%2F127.0.0.1%3A9%2Fother&events=job.completed&events=job.failed&mode=thin")
      assert.include(saved.body, "Saved")
      const after = (yield* call("GET", `/v1/webhooks/${id}`, { token: key })).body.webhook
      assert.strictEqual(after.url, "http://127.0.0.1:9/other")
      assert.strictEqual(after.mode, "thin")
      assert.deepStrictEqual([...after.events].sort(), ["job.completed", "job.failed"])
      const bad = yield* post(`/dashboard/webhooks/${id}/settings`, "url=http%3A%2F%2F127.0.0.1%3A9%2Fother&events=nope&mode=huge")
      assert.strictEqual(bad.status, 400)
      const refused = yield* post(`/dashboard/webhooks/${id}/settings`, "url=javascript%3Aalert(1)&mode=fat")
      assert.strictEqual(refused.status, 422)
      const rotated = yield* post(`/dashboard/webhooks/${id}/rotate`, "")
      assert.match(rotated.body, /id="secret-value">whsec_[A-Za-z0-9+/=]+</)
    }))

  it.effect("a test event goes through the delivery path to the one endpoint, whatever its events; the page shows the payload and the response", () =>
    Effect.gen(function*() {
      const { actor, key, token } = yield* ownerSession
      const { base, behave, received } = yield* receiver
      // The endpoint takes only invitation events: a test goes to it all the same.
      const made = yield* call("POST", "/v1/webhooks", { token: key, body: { url: `${base}/hook`, events: ["invitation.accepted"] } })
      const id: string = made.body.webhook.id
      const secret: string = made.body.secret
      const post = (path: string) =>
        call("POST", path, {
          headers: cookie(token),
          raw: { text: `_csrf=${encodeURIComponent(csrfTokenFor(token))}`, contentType: "application/x-www-form-urlencoded" }
        })
      const sent = yield* post(`/dashboard/webhooks/${id}/test`)
      assert.strictEqual(sent.status, 200)
      assert.include(sent.body, "Test event delivered: HTTP 204 in")
      assert.strictEqual(received.length, 1)
      const request = received[0]
      assert.strictEqual(request?.headers["svc-event"], "webhook.test")
      const nowSeconds = Number(request?.headers["svc-signature-timestamp"])
      assert.isTrue(verifyWebhook(secret, request?.headers ?? {}, request?.body ?? "", { nowSeconds }).ok)
      const event = JSON.parse(request?.body ?? "{}")
      assert.strictEqual(event.type, "webhook.test")
      assert.deepStrictEqual([event.data.webhookId, event.data.test], [id, true])
      assert.include(event.data.message, "Olivia")
      // The page shows it as a delivery, with the payload as sent.
      assert.include(sent.body, "Test event")
      assert.include(sent.body, "Payload and response")
      assert.include(sent.body, `&quot;webhookId&quot;: &quot;${id}&quot;`)
      assert.include(sent.body, "The response had no body.")
      // A failing receiver: the test fails, says why, is not retried, and its response shows.
      behave("/hook", "fail500")
      const failed = yield* call("POST", `/v1/webhooks/${id}/test`, { token: key })
      assert.strictEqual(failed.status, 200, JSON.stringify(failed.body))
      const delivery = failed.body.delivery
      assert.deepStrictEqual([delivery.eventType, delivery.status, delivery.attemptCount, delivery.nextAttemptAt], ["webhook.test", "failed", 0, null])
      assert.deepStrictEqual(delivery.attempts.map((a: { statusCode: number; response: string; trigger: string }) => [a.trigger, a.statusCode, a.response]), [["manual", 500, "boom"]])
      assert.strictEqual(JSON.parse(delivery.payload).data.webhookId, id)
      const page = yield* call("GET", `/dashboard/webhooks/${id}`, { headers: cookie(token) })
      assert.include(page.body, "HTTP 500 in")
      assert.match(page.body, /<pre class="quote response">boom<\/pre>/)
      const history = yield* call("GET", `/v1/webhooks/${id}/deliveries`, { token: key })
      assert.deepStrictEqual(history.body.deliveries.map((d: { status: string }) => d.status), ["failed", "succeeded"])
      // Members may not (manageWebhooks); an unknown endpoint is the 404 page.
      const member = yield* teammate(actor, "member")
      const byMember = yield* call("POST", `/dashboard/webhooks/${id}/test`, {
        headers: cookie(member.token),
        raw: { text: `_csrf=${encodeURIComponent(csrfTokenFor(member.token))}`, contentType: "application/x-www-form-urlencoded" }
      })
      assert.strictEqual(byMember.status, 403)
      assert.strictEqual((yield* post(`/dashboard/webhooks/${crypto.randomUUID()}/test`)).status, 404)
      assert.strictEqual((yield* call("POST", `/v1/webhooks/${crypto.randomUUID()}/test`, { token: key })).status, 404)
      assert.strictEqual(received.length, 2)
    }))
})
