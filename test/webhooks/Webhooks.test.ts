import { createHmac } from "node:crypto"
import { assert, layer } from "@effect/vitest"
import { Duration, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import type { NewEvent } from "../../src/domain/Events.ts"
import { Outbox } from "../../src/events/Outbox.ts"
import { maxAttempts, nominalRetryDelayMs } from "../../src/webhooks/Backoff.ts"
import { DispatcherSettings } from "../../src/webhooks/Dispatcher.ts"
import { verifyWebhook } from "../../src/webhooks/Signature.ts"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import * as TestServer from "../support/TestServer.ts"
import { call, newWorkspace } from "../support/TestServer.ts"
import { emit, eventually, liveSleep, on, receiver, serverLayer, testTimeoutMs } from "./support.ts"

const accountId = "0b6c2a4e-1f3d-4c5b-8a9e-7d6f5e4c3b2a"
const jobId = "1c7d3b5f-2a4e-4d6c-9b0f-8e7a6f5d4c3b"

const messageReceived: NewEvent = {
  type: "message.received",
  data: {
    accountId,
    chatId: "chat-1",
    messageId: "msg-1",
    senderProviderId: "ACoAAB",
    text: "Sounds good, let's talk",
    sentAt: "2026-11-21T09:30:00.000Z",
    triage: { class: "interested", suggestedReply: "Great, when suits you?", confidence: 0.81, unsure: false }
  }
}
const jobCompleted: NewEvent = {
  type: "job.completed",
  data: { jobId, accountId, kind: "send_message", status: "completed", result: { messageId: "m" }, error: null }
}
const paused: NewEvent = { type: "account.paused", data: { accountId, reason: "paused by a person" } }

const hmac = (secret: string, timestamp: string, body: string) =>
  createHmac("sha256", Buffer.from(secret, "utf8")).update(Buffer.from(`${timestamp}.${body}`, "utf8")).digest("hex")

const register = (token: string, body: Record<string, unknown>) =>
  Effect.gen(function*() {
    const reply = yield* call("POST", "/v1/webhooks", { token, body })
    assert.strictEqual(reply.status, 201, JSON.stringify(reply.body))
    return { id: String(reply.body.webhook.id), secret: String(reply.body.secret) }
  })

const deliveriesOf = (token: string, id: string) =>
  Effect.map(call("GET", `/v1/webhooks/${id}/deliveries`, { token }), (reply) => reply.body.deliveries as Array<any>)

layer(serverLayer())("webhooks", (it) => {
  it.effect("manages endpoints: create shows the secret once, list, get, patch, delete", () =>
    Effect.gen(function*() {
      const { keyValue: token } = yield* newWorkspace()
      const created = yield* call("POST", "/v1/webhooks", {
        token,
        body: { url: "http://127.0.0.1:9/hook", events: ["job.completed"], mode: "thin" }
      })
      assert.strictEqual(created.status, 201)
      assert.match(created.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/)
      const webhook = created.body.webhook
      assert.deepStrictEqual(
        { url: webhook.url, events: webhook.events, mode: webhook.mode, enabled: webhook.enabled },
        { url: "http://127.0.0.1:9/hook", events: ["job.completed"], mode: "thin", enabled: true }
      )
      assert.notProperty(webhook, "secret")

      const defaults = yield* call("POST", "/v1/webhooks", { token, body: { url: "http://127.0.0.1:9/all" } })
      assert.deepStrictEqual([defaults.body.webhook.events, defaults.body.webhook.mode], [[], "fat"])

      const listed = yield* call("GET", "/v1/webhooks", { token })
      assert.strictEqual(listed.body.webhooks.length, 2)
      assert.notInclude(JSON.stringify(listed.body), created.body.secret)
      const got = yield* call("GET", `/v1/webhooks/${webhook.id}`, { token })
      assert.deepStrictEqual(got.body.webhook, webhook)

      const patched = yield* call("PATCH", `/v1/webhooks/${webhook.id}`, {
        token,
        body: { enabled: false, mode: "fat", events: [] }
      })
      assert.strictEqual(patched.status, 200)
      assert.deepStrictEqual([patched.body.webhook.enabled, patched.body.webhook.mode, patched.body.webhook.events], [
        false,
        "fat",
        []
      ])

      const deleted = yield* call("DELETE", `/v1/webhooks/${webhook.id}`, { token })
      assert.deepStrictEqual(deleted.body, { ok: true, id: webhook.id, deleted: true })
      const gone = yield* call("GET", `/v1/webhooks/${webhook.id}`, { token })
      assert.strictEqual(gone.status, 404)
      assert.strictEqual(gone.body.error.type, "notFound")

      const other = yield* newWorkspace("Other")
      const foreign = yield* call("GET", `/v1/webhooks/${defaults.body.webhook.id}`, { token: other.keyValue })
      assert.strictEqual(foreign.status, 404)
    }))

  it.effect("delivers a signed fat envelope with exactly the spec's headers", () =>
    Effect.gen(function*() {
      const r = yield* receiver
      const { keyValue: token, workspace } = yield* newWorkspace()
      const hook = yield* register(token, { url: `${r.base}/fat` })
      yield* TestClock.adjust("1 hour")
      yield* emit(workspace.id, [messageReceived])
      const [got] = yield* eventually("fat delivery", Effect.sync(() => on(r.received, "/fat")), (l) => l.length === 1)

      const h = got.headers
      assert.strictEqual(h["content-type"], "application/json")
      assert.strictEqual(h["user-agent"], "svc-Webhooks/1.0")
      assert.strictEqual(h["svc-event"], "message.received")
      assert.match(String(h["svc-delivery"]), /^[0-9a-f-]{36}$/)
      assert.strictEqual(h["svc-signature-timestamp"], "3600")
      assert.isUndefined(h["svc-signature-next"])
      // An independent HMAC: key = the whole secret, message = "<timestamp>.<raw body>".
      assert.strictEqual(h["svc-signature"], hmac(hook.secret, "3600", got.body))
      assert.match(String(h["svc-signature"]), /^[0-9a-f]{64}$/)
      assert.isTrue(verifyWebhook(hook.secret, h, got.body, { nowSeconds: 3600 }).ok)
      assert.isFalse(verifyWebhook(hook.secret, h, got.body.replace("talk", "walk"), { nowSeconds: 3600 }).ok)

      const body = JSON.parse(got.body)
      assert.deepStrictEqual(Object.keys(body), ["id", "type", "createdAt", "data"])
      assert.strictEqual(body.type, "message.received")
      assert.strictEqual(body.createdAt, "1970-01-01T01:00:00.000Z")
      assert.deepStrictEqual(body.data, messageReceived.data)

      const deliveries = yield* eventually(
        "recorded success",
        deliveriesOf(token, hook.id),
        (d) => d[0]?.status === "succeeded"
      )
      assert.strictEqual(deliveries.length, 1)
      assert.strictEqual(deliveries[0].id, h["svc-delivery"])
      assert.strictEqual(deliveries[0].eventId, body.id)
      assert.strictEqual(deliveries[0].attemptCount, 1)
      assert.deepStrictEqual(
        deliveries[0].attempts.map((a: any) => [a.trigger, a.statusCode, a.error]),
        [["automatic", 204, null]]
      )
    }))

  it.effect("thin endpoints get only ids, status and kind", () =>
    Effect.gen(function*() {
      const r = yield* receiver
      const { keyValue: token, workspace } = yield* newWorkspace()
      yield* register(token, { url: `${r.base}/thin`, mode: "thin" })
      yield* emit(workspace.id, [messageReceived, jobCompleted, paused])
      const got = yield* eventually("thin", Effect.sync(() => on(r.received, "/thin")), (l) => l.length === 3)
      const byType = Object.fromEntries(got.map((g) => [JSON.parse(g.body).type, JSON.parse(g.body).data]))
      assert.deepStrictEqual(byType["message.received"], {
        accountId,
        chatId: "chat-1",
        messageId: "msg-1",
        senderProviderId: "ACoAAB"
      })
      assert.deepStrictEqual(byType["job.completed"], { jobId, accountId, kind: "send_message", status: "completed" })
      assert.deepStrictEqual(byType["account.paused"], { accountId })
    }))

  it.effect("filters by event type, skips disabled endpoints, and gives each endpoint its own delivery", () =>
    Effect.gen(function*() {
      const r = yield* receiver
      const { keyValue: token, workspace } = yield* newWorkspace()
      yield* register(token, { url: `${r.base}/jobs`, events: ["job.completed"] })
      yield* register(token, { url: `${r.base}/all-a` })
      yield* register(token, { url: `${r.base}/all-b`, events: [] })
      const off = yield* register(token, { url: `${r.base}/off` })
      yield* call("PATCH", `/v1/webhooks/${off.id}`, { token, body: { enabled: false } })
      // Another workspace's endpoint never sees these events.
      const other = yield* newWorkspace("Other")
      yield* register(other.keyValue, { url: `${r.base}/foreign` })

      yield* emit(workspace.id, [messageReceived, jobCompleted])
      yield* eventually("fan-out", Effect.sync(() => r.received.length), (n) => n >= 5)
      yield* liveSleep(200)

      assert.deepStrictEqual(on(r.received, "/jobs").map((g) => g.headers["svc-event"]), ["job.completed"])
      assert.strictEqual(on(r.received, "/all-a").length, 2)
      assert.strictEqual(on(r.received, "/all-b").length, 2)
      assert.strictEqual(on(r.received, "/off").length, 0)
      assert.strictEqual(on(r.received, "/foreign").length, 0)

      const jobEvent = (path: string) => on(r.received, path).find((g) => g.headers["svc-event"] === "job.completed")
      const copies = ["/jobs", "/all-a", "/all-b"].map((path) => jobEvent(path))
      const eventIds = new Set(copies.map((g) => JSON.parse(g?.body ?? "{}").id))
      const deliveryIds = new Set(copies.map((g) => g?.headers["svc-delivery"]))
      assert.strictEqual(eventIds.size, 1)
      assert.strictEqual(deliveryIds.size, 3)
    }))

  const driveSchedule = (path: string, behaviour: "fail500" | "redirect302" | "hang", expectedError: RegExp) =>
    Effect.gen(function*() {
      const r = yield* receiver
      r.behave(path, behaviour)
      const { keyValue: token, workspace } = yield* newWorkspace()
      const hook = yield* register(token, { url: `${r.base}${path}` })
      yield* emit(workspace.id, [paused])
      const startedAt = yield* Effect.clockWith((clock) => clock.currentTimeMillis)

      let lastAttemptMs = startedAt
      for (let attempt = 1; attempt <= maxAttempts; attempt++) {
        yield* eventually(`attempt ${attempt}`, Effect.sync(() => on(r.received, path).length), (n) => n === attempt)
        const [delivery] = yield* eventually(
          `attempt ${attempt} recorded`,
          deliveriesOf(token, hook.id),
          (d) => d[0]?.attemptCount === attempt
        )
        assert.match(delivery.attempts[attempt - 1].error, expectedError)
        const signedAt = Number(on(r.received, path)[attempt - 1].headers["svc-signature-timestamp"]) * 1000
        assert.isAtLeast(signedAt, lastAttemptMs - 1000)
        lastAttemptMs = signedAt
        if (attempt === maxAttempts) {
          assert.strictEqual(delivery.status, "failed")
          assert.isNull(delivery.nextAttemptAt)
          break
        }
        assert.strictEqual(delivery.status, "pending")
        const waitMs = Date.parse(delivery.nextAttemptAt) - Date.parse(delivery.attempts[attempt - 1].at)
        const nominal = nominalRetryDelayMs(attempt)
        assert.isAtLeast(waitMs, Math.min(nominal * 0.8, 6 * 3600_000) - 1)
        assert.isAtMost(waitMs, Math.min(nominal * 1.2, 6 * 3600_000) + 1)
        // Just before the due time nothing happens; at it, the next attempt comes.
        const now = yield* Effect.clockWith((clock) => clock.currentTimeMillis)
        const due = Date.parse(delivery.nextAttemptAt)
        yield* TestClock.adjust(due - now - 1000)
        yield* liveSleep(100)
        assert.strictEqual(on(r.received, path).length, attempt)
        yield* TestClock.adjust(1000)
      }
      yield* liveSleep(150)
      assert.strictEqual(on(r.received, path).length, maxAttempts)
      const ids = new Set(on(r.received, path).map((g) => g.headers["svc-delivery"]))
      assert.strictEqual(ids.size, 1, "svc-delivery is stable across retries")
      const stamps = new Set(on(r.received, path).map((g) => g.headers["svc-signature-timestamp"]))
      assert.strictEqual(stamps.size, maxAttempts, "each attempt is signed with a fresh timestamp")
      return { token, hook, r }
    })

  it.effect("retries a 500 on the backoff schedule: 8 attempts, then failed", () =>
    Effect.asVoid(driveSchedule("/500", "fail500", /answered 500/)), { timeout: 30_000 })

  it.effect("retries a timeout on the backoff schedule: 8 attempts, then failed", () =>
    Effect.asVoid(driveSchedule("/slow", "hang", /No response within 300 ms/)), { timeout: 30_000 })

  it.effect("treats a 302 as a failure, never follows it, and retries: 8 attempts, then failed", () =>
    Effect.gen(function*() {
      const { r } = yield* driveSchedule("/moved", "redirect302", /302 \(a redirect, not followed\)/)
      assert.strictEqual(on(r.received, "/moved/followed").length, 0)
    }), { timeout: 30_000 })

  it.effect("resends a failed delivery by hand: same delivery id, a manual attempt", () =>
    Effect.gen(function*() {
      const r = yield* receiver
      r.behave("/flaky", "gone410")
      const { keyValue: token, workspace } = yield* newWorkspace()
      const hook = yield* register(token, { url: `${r.base}/flaky` })
      yield* emit(workspace.id, [paused])
      const [first] = yield* eventually("first attempt", deliveriesOf(token, hook.id), (d) => d[0]?.attemptCount === 1)
      assert.match(first.attempts[0].error, /answered 410/)
      r.behave("/flaky", "ok")
      const resent = yield* call("POST", `/v1/webhooks/${hook.id}/deliveries/${first.id}/resend`, { token })
      assert.strictEqual(resent.status, 200)
      assert.strictEqual(resent.body.delivery.id, first.id)
      assert.strictEqual(resent.body.delivery.status, "succeeded")
      assert.deepStrictEqual(resent.body.delivery.attempts.map((a: any) => [a.trigger, a.statusCode]), [
        ["automatic", 410],
        ["manual", 204]
      ])
      const got = on(r.received, "/flaky")
      assert.strictEqual(got.length, 2)
      assert.strictEqual(got[1].headers["svc-delivery"], first.id)
      assert.strictEqual(got[1].body, got[0].body)
      const unknown = yield* call(
        "POST",
        `/v1/webhooks/${hook.id}/deliveries/${crypto.randomUUID()}/resend`,
        { token }
      )
      assert.strictEqual(unknown.status, 404)
      assert.strictEqual(unknown.body.error.type, "notFound")
    }))

  it.effect("rotation: the old secret keeps signing svc-signature for 24 hours, the new one signs svc-signature-next", () =>
    Effect.gen(function*() {
      const r = yield* receiver
      const { keyValue: token, workspace } = yield* newWorkspace()
      const hook = yield* register(token, { url: `${r.base}/rot` })
      const rotated = yield* call("POST", `/v1/webhooks/${hook.id}/rotate-secret`, { token })
      assert.strictEqual(rotated.status, 200)
      const newSecret: string = rotated.body.secret
      assert.match(newSecret, /^whsec_/)
      assert.notStrictEqual(newSecret, hook.secret)
      assert.isString(rotated.body.webhook.previousSecretExpiresAt)

      yield* emit(workspace.id, [paused])
      const [during] = yield* eventually("during overlap", Effect.sync(() => on(r.received, "/rot")), (l) => l.length === 1)
      const ts = String(during.headers["svc-signature-timestamp"])
      assert.strictEqual(during.headers["svc-signature"], hmac(hook.secret, ts, during.body))
      assert.strictEqual(during.headers["svc-signature-next"], hmac(newSecret, ts, during.body))
      const now = Number(ts)
      assert.isTrue(verifyWebhook(hook.secret, during.headers, during.body, { nowSeconds: now }).ok)
      assert.isTrue(verifyWebhook(newSecret, during.headers, during.body, { nowSeconds: now }).ok)
      assert.isTrue(verifyWebhook([newSecret, hook.secret], during.headers, during.body, { nowSeconds: now }).ok)

      yield* TestClock.adjust("24 hours")
      yield* TestClock.adjust("1 second")
      yield* emit(workspace.id, [paused])
      const after = (yield* eventually("after overlap", Effect.sync(() => on(r.received, "/rot")), (l) => l.length === 2))[1]
      const ts2 = String(after.headers["svc-signature-timestamp"])
      assert.strictEqual(after.headers["svc-signature"], hmac(newSecret, ts2, after.body))
      assert.isUndefined(after.headers["svc-signature-next"])
      assert.isFalse(verifyWebhook(hook.secret, after.headers, after.body, { nowSeconds: Number(ts2) }).ok)
    }))

  it.effect("delivers to a host name through the resolver, pinned to the vetted address", () =>
    Effect.gen(function*() {
      const r = yield* receiver
      const { keyValue: token, workspace } = yield* newWorkspace()
      // receiver.test exists only in the test resolver: reaching it proves the connection used the vetted address.
      yield* register(token, { url: r.base.replace("127.0.0.1", "receiver.test") + "/named" })
      yield* emit(workspace.id, [paused])
      const [got] = yield* eventually("named", Effect.sync(() => on(r.received, "/named")), (l) => l.length === 1)
      assert.match(String(got.headers["host"]), /^receiver\.test:\d+$/)
    }))

  it.effect("answers bad inputs with the envelope", () =>
    Effect.gen(function*() {
      const { keyValue: token } = yield* newWorkspace()
      const cases: ReadonlyArray<readonly [string, string, unknown, number, string]> = [
        ["POST", "/v1/webhooks", { url: "http://127.0.0.1:9/x", events: ["no.such.event"] }, 400, "badRequest"],
        ["POST", "/v1/webhooks", { url: "http://127.0.0.1:9/x", mode: "medium" }, 400, "badRequest"],
        ["POST", "/v1/webhooks", {}, 400, "badRequest"],
        ["POST", "/v1/webhooks", { url: "not a url" }, 422, "unprocessable"],
        ["POST", "/v1/webhooks", { url: "ftp://127.0.0.1/x" }, 422, "unprocessable"],
        ["PATCH", "/v1/webhooks/not-a-uuid", { enabled: false }, 400, "badRequest"],
        ["PATCH", `/v1/webhooks/${crypto.randomUUID()}`, { enabled: false }, 404, "notFound"],
        ["GET", `/v1/webhooks/${crypto.randomUUID()}/deliveries`, undefined, 404, "notFound"]
      ]
      for (const [method, path, body, status, type] of cases) {
        const reply = yield* call(method as "POST", path, { token, body })
        assert.strictEqual(reply.status, status, `${method} ${path} ${JSON.stringify(body)}`)
        assert.strictEqual(reply.body.ok, false)
        assert.strictEqual(reply.body.error.type, type)
        assert.isString(reply.body.error.message)
        assert.isString(reply.body.error.next)
      }
      const badEvents = yield* call("POST", "/v1/webhooks", { token, body: { url: "http://127.0.0.1:9/x", events: [1] } })
      assert.include(badEvents.body.error.message, "body.events.0")
    }))

  it.effect("members may not manage webhooks: 403 notAllowed", () =>
    Effect.gen(function*() {
      const { keyValue: token, workspace } = yield* newWorkspace()
      const hook = yield* register(token, { url: "http://127.0.0.1:9/m" })
      const member = yield* (yield* Workspaces).createSession({
        workspaceId: workspace.id,
        email: "m@acme.test",
        name: "Member",
        role: "member"
      })
      const requests: ReadonlyArray<readonly ["GET" | "POST" | "PATCH" | "DELETE", string, unknown]> = [
        ["GET", "/v1/webhooks", undefined],
        ["POST", "/v1/webhooks", { url: "http://127.0.0.1:9/n" }],
        ["GET", `/v1/webhooks/${hook.id}`, undefined],
        ["PATCH", `/v1/webhooks/${hook.id}`, { enabled: false }],
        ["DELETE", `/v1/webhooks/${hook.id}`, undefined],
        ["POST", `/v1/webhooks/${hook.id}/rotate-secret`, undefined],
        ["GET", `/v1/webhooks/${hook.id}/deliveries`, undefined]
      ]
      for (const [method, path, body] of requests) {
        const reply = yield* call(method, path, { token: member.token, body })
        assert.strictEqual(reply.status, 403, `${method} ${path}`)
        assert.strictEqual(reply.body.error.type, "notAllowed")
      }
      const admin = yield* (yield* Workspaces).createSession({
        workspaceId: workspace.id,
        email: "a@acme.test",
        name: "Admin",
        role: "admin"
      })
      assert.strictEqual((yield* call("GET", "/v1/webhooks", { token: admin.token })).status, 200)
    }))
})

layer(serverLayer({ allowPrivateWebhooks: false }))("webhook URL safety (production settings)", (it) => {
  it.effect("refuses every non-public target with 422 naming the reason", () =>
    Effect.gen(function*() {
      const { keyValue: token } = yield* newWorkspace()
      const refused: ReadonlyArray<readonly [string, string]> = [
        ["http://public.test/hook", "httpsRequired"],
        ["https://127.0.0.1/hook", "forbiddenAddress"],
        ["https://localhost/hook", "localHostname"],
        ["https://10.1.2.3/hook", "forbiddenAddress"],
        ["https://172.16.0.1/hook", "forbiddenAddress"],
        ["https://192.168.1.1/hook", "forbiddenAddress"],
        ["https://169.254.169.254/latest/meta-data", "forbiddenAddress"],
        ["https://100.64.0.1/hook", "forbiddenAddress"],
        ["https://224.0.0.1/hook", "forbiddenAddress"],
        ["https://240.0.0.1/hook", "forbiddenAddress"],
        ["https://0.0.0.0/hook", "forbiddenAddress"],
        ["https://[::1]/hook", "forbiddenAddress"],
        ["https://[fd00::1]/hook", "forbiddenAddress"],
        ["https://[fe80::1]/hook", "forbiddenAddress"],
        ["https://[::ffff:127.0.0.1]/hook", "forbiddenAddress"],
        ["https://2130706433/hook", "forbiddenAddress"],
        ["https://0x7f000001/hook", "forbiddenAddress"],
        ["https://0177.0.0.1/hook", "forbiddenAddress"],
        ["https://127.1/hook", "forbiddenAddress"],
        ["https://rebind.test/hook", "forbiddenAddress"],
        ["https://mixed.test/hook", "forbiddenAddress"],
        ["https://mapped.test/hook", "forbiddenAddress"],
        ["https://nowhere.test/hook", "unresolvable"]
      ]
      // The setting that lets local and private receivers through is named where it would help.
      const fixedBySetting = new Set([
        "http://public.test/hook",
        "https://127.0.0.1/hook",
        "https://localhost/hook",
        "https://10.1.2.3/hook",
        "https://172.16.0.1/hook",
        "https://192.168.1.1/hook",
        "https://100.64.0.1/hook",
        "https://[::1]/hook",
        "https://[fd00::1]/hook",
        "https://[::ffff:127.0.0.1]/hook",
        "https://2130706433/hook",
        "https://0x7f000001/hook",
        "https://0177.0.0.1/hook",
        "https://127.1/hook",
        "https://rebind.test/hook",
        "https://mixed.test/hook",
        "https://mapped.test/hook"
      ])
      for (const [url, reason] of refused) {
        const reply = yield* call("POST", "/v1/webhooks", { token, body: { url } })
        assert.strictEqual(reply.status, 422, url)
        assert.strictEqual(reply.body.error.type, "unprocessable", url)
        assert.include(reply.body.error.message, `(${reason})`, url)
        assert.strictEqual(reply.body.error.next.includes("OUTREACH_ALLOW_PRIVATE_WEBHOOKS=true"), fixedBySetting.has(url), url)
      }
      const loopback = yield* call("POST", "/v1/webhooks", { token, body: { url: "https://127.0.0.1/hook" } })
      assert.include(loopback.body.error.message, "cannot be delivered to 127.0.0.1, a loopback address.")
      assert.include(loopback.body.error.next, "a restart is needed")
      const ok = yield* call("POST", "/v1/webhooks", { token, body: { url: "https://public.test/hook" } })
      assert.strictEqual(ok.status, 201)
      const patched = yield* call("PATCH", `/v1/webhooks/${ok.body.webhook.id}`, {
        token,
        body: { url: "https://rebind.test/other" }
      })
      assert.strictEqual(patched.status, 422)
      assert.include(patched.body.error.message, "127.0.0.1")
      const listed = yield* call("GET", "/v1/webhooks", { token })
      assert.strictEqual(listed.body.webhooks.length, 1)
      assert.strictEqual(listed.body.webhooks[0].url, "https://public.test/hook")
    }))
})

/** The dispatcher fans out only when woken, so an event can wait for it while an endpoint is created. */
const wokenOnly = TestServer.layer({ allowPrivateWebhooks: true }).pipe(
  Layer.provide(Layer.succeed(DispatcherSettings, {
    pollInterval: Duration.hours(1),
    concurrency: 16,
    perEndpoint: 4,
    timeoutMs: testTimeoutMs,
    fanOutBatch: 100
  }))
)

layer(wokenOnly)("webhook subscriptions", (it) => {
  it.effect("an endpoint receives only events committed after it was created, even in the same instant", () =>
    Effect.gen(function*() {
      const r = yield* receiver
      const { keyValue: token, workspace } = yield* newWorkspace()
      const outbox = yield* Outbox
      const sql = yield* SqlClient.SqlClient
      // Bring the dispatcher to rest: it has fanned out everything and sleeps until woken.
      const { workspace: elsewhere } = yield* newWorkspace("Elsewhere")
      yield* emit(elsewhere.id, [paused])
      yield* eventually(
        "the dispatcher at rest",
        sql<{ readonly caughtUp: boolean }>`
          SELECT (SELECT last_seq FROM webhook_dispatch_cursor) >= (SELECT MAX(seq) FROM outbox_events) AS "caughtUp"`
          .pipe(Effect.orDie),
        (rows) => rows[0]?.caughtUp === true
      )
      // The test clock stands still: the earlier event, the endpoint and the later event share one
      // instant, and the earlier event still waits to be fanned out when the endpoint is created.
      yield* sql.withTransaction(outbox.append(workspace.id, [paused])).pipe(Effect.orDie)
      yield* register(token, { url: `${r.base}/after` })
      yield* emit(workspace.id, [messageReceived])
      yield* eventually("the later event", Effect.sync(() => on(r.received, "/after")), (l) => l.length >= 1)
      // A third event, fanned out after the other two: by then any wrongly fanned-out delivery was made too.
      yield* emit(workspace.id, [jobCompleted])
      yield* eventually("the third event", Effect.sync(() => on(r.received, "/after")), (l) => l.length >= 2)
      assert.deepStrictEqual(on(r.received, "/after").map((x) => JSON.parse(x.body).type).sort(), ["job.completed", "message.received"])
    }))
})
