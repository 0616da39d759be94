/**
 * The instant sandbox: an event the service learns of by syncing shows in the
 * brief and at the webhook receiver within a second, on a test clock that
 * does not move; POST /v1/sandbox/accounts/{id}/sync syncs on request.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { connectedAccount } from "../../jobs/support.ts"
import { call, newWorkspace } from "../../support/TestServer.ts"
import { eventually, on, receiver, serverLayer } from "../../webhooks/support.ts"

layer(serverLayer({ allowPrivateWebhooks: true, inboxSync: true }))("the instant sandbox", (it) => {
  it.effect("a message from a person is in the brief and at the receiver at once", () =>
    Effect.gen(function*() {
      const r = yield* receiver
      const { keyValue: token } = yield* newWorkspace()
      const accountId = yield* connectedAccount(token)
      const hook = yield* call("POST", "/v1/webhooks", { token, body: { url: `${r.base}/hook`, events: ["message.received"] } })
      assert.strictEqual(hook.status, 201, JSON.stringify(hook.body))
      const event = yield* call("POST", `/v1/sandbox/accounts/${accountId}/events`, {
        token,
        body: { type: "message_received", person: "maria-garcia-3a9f02c1b", text: "Sounds interesting, can we talk Tuesday?" }
      })
      assert.strictEqual(event.status, 200, JSON.stringify(event.body))
      // No clock moved: the brief shows the reply as the event returns.
      const brief = yield* call("GET", `/v1/accounts/${accountId}/brief`, { token })
      assert.include(JSON.stringify(brief.body.brief.replies), "Sounds interesting")
      // Typically about 0.1 s (the dispatcher polls every 0.5 s in production, 20 ms here); the bound
      // is generous so a loaded machine does not fail it: what matters is that no clock had to move.
      // The sync may also bring replies of the sandbox's own (seeded by the account): look for this one.
      const ours = (l: ReadonlyArray<{ readonly body: string }>) => l.filter((x) => x.body.includes("Sounds interesting"))
      const delivered = yield* eventually("the webhook", Effect.sync(() => ours(on(r.received, "/hook"))), (l) => l.length === 1, 5000)
      assert.strictEqual(JSON.parse(delivered[0].body).type, "message.received")
    }))

  it.effect("POST .../sync syncs on request and says what it found", () =>
    Effect.gen(function*() {
      const { keyValue: token } = yield* newWorkspace()
      const accountId = yield* connectedAccount(token)
      const synced = yield* call("POST", `/v1/sandbox/accounts/${accountId}/sync`, { token })
      assert.strictEqual(synced.status, 200, JSON.stringify(synced.body))
      assert.strictEqual(synced.body.sync.synced, true)
      assert.isNull(synced.body.sync.skipped)
      const created = yield* call("POST", "/v1/accounts/connect", { token, body: { label: "Not yet" } })
      const early = yield* call("POST", `/v1/sandbox/accounts/${created.body.account.id}/sync`, { token })
      assert.strictEqual(early.status, 409)
    }))
})
