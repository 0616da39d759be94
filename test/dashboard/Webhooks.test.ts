/**
 * Webhooks in the dashboard (issue #32): choose the events and the payload,
 * edit the URL, rotate the secret (shown once).
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { csrfTokenFor } from "../../src/http/dashboard/Session.ts"
import { cookie, ownerSession } from "../support/Teammates.ts"
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
})
