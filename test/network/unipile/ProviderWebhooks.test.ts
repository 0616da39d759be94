/**
 * Unipile's webhooks end to end on the provider double: registered with the deployment's secret,
 * a new message and a new relation go through the inbox's own sync (the same customer events as
 * the periodic sync: `message.received` with its triage, `invitation.accepted`), an account
 * status of `CREDENTIALS` signs the account out, and a forged webhook is refused.
 */
import { afterAll, assert, layer } from "@effect/vitest"
import { Clock, Effect, Layer, Option, Redacted, Schema } from "effect"
import { HttpServer } from "effect/http"
import { TestClock } from "effect/testing"
import { UnipileClient, untypedYetValidator } from "unipile-node-sdk"
import { PACING_MAX_MS } from "../../../src/domain/Job.ts"
import { Outbox } from "../../../src/events/Outbox.ts"
import { alwaysOpen, DAY, jobWhen } from "../../jobs/support.ts"
import { eventually } from "../../support/Eventually.ts"
import { call, layer as serverLayer, newWorkspace } from "../../support/TestServer.ts"
import { maria, tomas } from "../../support/unipile/Directory.ts"
import * as LiveService from "../../support/unipile/LiveService.ts"

const apiKey = "webhooks-e2e-key"
const decodeConnected = Schema.decodeUnknownSync(Schema.Struct({ reconnected: Schema.Boolean }))
const secret = "whs-unipile-0123456789abcdef"
const live = await LiveService.start(apiKey, secret)
const { core, double } = live
afterAll(() => double.close())

const settings = { unipileWebhookSecret: Option.some(Redacted.make(secret)) }

/** Registers the service's endpoint with the double, as an operator does once with Unipile. */
const register = (url: string) =>
  Effect.promise(() =>
    Promise.all(["messaging", "users", "account_status"].map((source) =>
      new UnipileClient(double.dsn, apiKey).request.send<unknown>({
        method: "POST",
        path: ["webhooks"],
        headers: { "Content-Type": "application/json" },
        body: { request_url: url, source, name: `outreach ${source}`, headers: [{ key: "Unipile-Auth", value: secret }] },
        validator: untypedYetValidator
      })
    ))
  )

layer(serverLayer(settings, Layer.empty, undefined, core), { timeout: 120_000 })("Unipile's webhooks", (it) => {
  it.effect("a message, a relation and an account status reach the service; a forged webhook is refused", () =>
    Effect.gen(function*() {
      yield* live.follow
      const server = yield* HttpServer.HttpServer
      const port = server.address._tag === "UnixPathAddress" ? 0 : server.address.port
      const url = `http://127.0.0.1:${port}/webhooks/unipile`
      yield* register(url)

      const { keyValue: token, workspace } = yield* newWorkspace()
      const created = yield* call("POST", "/v1/accounts/connect", { token, body: { label: "Live seat" } })
      const accountId: string = created.body.account.id
      const signedIn = yield* call("POST", `/v1/accounts/${accountId}/native-auth`, { token, body: { username: "hooks@x.io", password: "pw" } })
      assert.strictEqual(signedIn.body.status, "connected", JSON.stringify(signedIn.body))
      yield* TestClock.adjust(14 * DAY)
      yield* call("PATCH", `/v1/accounts/${accountId}`, { token, body: { mode: "autopilot", minInviteQuality: 0, workingHours: alwaysOpen } })
      const seat = [...double.accounts.values()].find((one) => one.username === "hooks@x.io")
      const providerAccount = seat?.id ?? ""

      // A forged webhook: no secret, or a wrong one.
      const forge = (headers: Record<string, string>) =>
        Effect.promise(() =>
          fetch(url, {
            method: "POST",
            headers: { "content-type": "application/json", ...headers },
            body: JSON.stringify({ AccountStatus: { account_id: providerAccount, message: "CREDENTIALS" } })
          }).then(async (response) => ({ status: response.status, body: JSON.parse(await response.text()) }))
        )
      const none = yield* forge({})
      assert.strictEqual(none.status, 401)
      assert.deepInclude(none.body, { ok: false })
      assert.strictEqual(none.body.error.type, "unauthorized")
      assert.strictEqual((yield* forge({ "Unipile-Auth": "whs-unipile-0123456789abcdeX" })).status, 401)
      const still = yield* call("GET", `/v1/accounts/${accountId}`, { token })
      assert.notStrictEqual(still.body.account.status, "reconnect_required")

      // An invitation sent through the service, then accepted on the network: new_relation.
      yield* TestClock.adjust(PACING_MAX_MS)
      const job = yield* call("POST", `/v1/accounts/${accountId}/connect`, { token, body: { person: maria.slug } })
      yield* jobWhen(workspace.id, job.body.job?.id ?? job.body.id, (one) => one.status === "completed")
      yield* TestClock.adjust(60_000)
      double.acceptInvitation(providerAccount, maria.providerId)
      const relation = yield* Effect.promise(() =>
        double.emit("users", {
          event: "new_relation",
          account_id: providerAccount,
          account_type: "LINKEDIN",
          webhook_name: "outreach users",
          user_full_name: "María García",
          user_provider_id: maria.providerId,
          user_public_identifier: maria.slug,
          user_profile_url: `https://www.linkedin.com/in/${maria.slug}`,
          user_picture_url: ""
        })
      )
      assert.deepStrictEqual(relation, [200])
      const outbox = yield* Outbox
      const accepted = yield* eventually("invitation.accepted", outbox.list(workspace.id, { type: "invitation.accepted" }), (events) => events.length === 1)
      assert.deepInclude(accepted[0].data, { accountId, providerId: maria.providerId })

      // A reply on the network: message_received.
      yield* TestClock.adjust(60_000)
      const received = double.receiveMessage(providerAccount, tomas.providerId, "Yes, interested! Can we talk on Tuesday?")
      const receivedAt = new Date(yield* Clock.currentTimeMillis).toISOString()
      const message = yield* Effect.promise(() =>
        double.emit("messaging", {
          account_id: providerAccount,
          account_type: "LINKEDIN",
          event: "message_received",
          chat_id: received.chatId,
          message_id: received.messageId,
          message: "Yes, interested! Can we talk on Tuesday?",
          sender: { attendee_provider_id: tomas.providerId, attendee_name: "Tomás Ruiz" },
          timestamp: receivedAt,
          webhook_name: "outreach messaging"
        })
      )
      assert.deepStrictEqual(message, [200])
      const replies = yield* eventually("message.received", outbox.list(workspace.id, { type: "message.received" }), (events) => events.length === 1)
      assert.deepInclude(replies[0].data, { accountId, messageId: received.messageId, text: "Yes, interested! Can we talk on Tuesday?" })

      // The network signs the seat out: account status CREDENTIALS.
      const status = yield* Effect.promise(() =>
        double.emit("account_status", { AccountStatus: { account_id: providerAccount, account_type: "LINKEDIN", message: "CREDENTIALS" } })
      )
      assert.deepStrictEqual(status, [200])
      const after = yield* call("GET", `/v1/accounts/${accountId}`, { token })
      assert.strictEqual(after.body.account.status, "reconnect_required")
      const signedOut = yield* outbox.list(workspace.id, { type: "account.reconnection_required" })
      assert.strictEqual(signedOut.length, 1)
      assert.deepStrictEqual(double.violations, [])
    }))

  it.effect("connectUrl is Unipile's hosted link; its callback makes the account warming with what the network says, and reconnects it", () =>
    Effect.gen(function*() {
      yield* live.follow
      const { keyValue: token, workspace } = yield* newWorkspace()
      const created = yield* call("POST", "/v1/accounts/connect", { token, body: { label: "Hosted seat" } })
      assert.strictEqual(created.status, 201, JSON.stringify(created.body))
      const accountId: string = created.body.account.id
      const connectUrl: string = created.body.connectUrl
      assert.isTrue(connectUrl.startsWith(`${double.dsn}/hosted/`), connectUrl)

      // A forged callback is refused and changes nothing.
      const server = yield* HttpServer.HttpServer
      const port = server.address._tag === "UnixPathAddress" ? 0 : server.address.port
      const forged = yield* Effect.promise(() =>
        fetch(`http://127.0.0.1:${port}/webhooks/unipile/auth?token=00`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ status: "CREATION_SUCCESS", account_id: "someone-else", name: `${workspace.id}:${accountId}` })
        }).then((response) => response.status)
      )
      assert.strictEqual(forged, 401)
      assert.strictEqual((yield* call("GET", `/v1/accounts/${accountId}`, { token })).body.account.status, "connecting")

      const done = yield* Effect.promise(() => double.completeHostedLink(connectUrl, "hosted-sales@x.io"))
      assert.strictEqual(done.notified, 200)
      const account = (yield* call("GET", `/v1/accounts/${accountId}`, { token })).body.account
      assert.deepInclude(account, { status: "warming", tier: "sales_nav", connections: 1 })
      assert.deepStrictEqual(account.products, ["sales_navigator"])

      // Signed out by the network, then reconnected through a reconnection link.
      yield* Effect.promise(() =>
        double.emit("account_status", { AccountStatus: { account_id: done.accountId, account_type: "LINKEDIN", message: "CREDENTIALS" } })
      )
      assert.strictEqual((yield* call("GET", `/v1/accounts/${accountId}`, { token })).body.account.status, "reconnect_required")
      const again = yield* call("POST", `/v1/accounts/${accountId}/reconnect`, { token })
      assert.strictEqual(again.status, 200, JSON.stringify(again.body))
      assert.isTrue(String(again.body.reconnectUrl).startsWith(`${double.dsn}/hosted/`))
      const reconnected = yield* Effect.promise(() => double.completeHostedLink(again.body.reconnectUrl, "hosted-sales@x.io"))
      assert.strictEqual(reconnected.accountId, done.accountId)
      assert.notStrictEqual((yield* call("GET", `/v1/accounts/${accountId}`, { token })).body.account.status, "reconnect_required")
      const outbox = yield* Outbox
      const connectedEvents = yield* outbox.list(workspace.id, { type: "account.connected" })
      assert.deepStrictEqual(connectedEvents.map((event) => decodeConnected(event.data).reconnected), [false, true])
      assert.deepStrictEqual(double.violations, [])
    }))
})
