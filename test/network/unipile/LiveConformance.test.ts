/**
 * The service's promises on a live workspace, on the Unipile double (issue #30), beside the
 * commands `LiveCommands.test.ts` runs: a write in approve mode waits for a person and goes out
 * with the text they edited, once; its `job.*` events reach a signed webhook; and a write whose
 * answer the provider lost after doing it (a timeout that happened) completes from what the
 * network knows, never sent twice.
 */
import { afterAll, assert, layer } from "@effect/vitest"
import { Clock, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { PACING_MAX_MS } from "../../../src/domain/Job.ts"
import { verifyWebhook } from "../../../src/webhooks/Verify.ts"
import { alwaysOpen, DAY, jobWhen } from "../../jobs/support.ts"
import { eventually } from "../../support/Eventually.ts"
import { call, layer as serverLayer, newWorkspace } from "../../support/TestServer.ts"
import { maria, tomas } from "../../support/unipile/Directory.ts"
import * as LiveService from "../../support/unipile/LiveService.ts"
import { receiver } from "../../webhooks/support.ts"

const live = await LiveService.start("live-conformance-key", "live-conformance-webhook-secret")
const { core, double } = live
afterAll(() => double.close())

/** A live seat signed in through the provider, past warm-up, in `mode`, always in working hours. */
const liveSeat = (token: string, username: string, mode: "approve" | "autopilot") =>
  Effect.gen(function*() {
    const created = yield* call("POST", "/v1/accounts/connect", { token, body: { label: username } })
    assert.strictEqual(created.status, 201, JSON.stringify(created.body))
    const accountId: string = created.body.account.id
    const signIn = yield* call("POST", `/v1/accounts/${accountId}/native-auth`, { token, body: { username, password: "pw" } })
    assert.strictEqual(signIn.body.status, "connected", JSON.stringify(signIn.body))
    yield* TestClock.adjust(14 * DAY)
    const patched = yield* call("PATCH", `/v1/accounts/${accountId}`, { token, body: { mode, minInviteQuality: 0, workingHours: alwaysOpen } })
    assert.strictEqual(patched.status, 200, JSON.stringify(patched.body))
    return accountId
  })

const seatNamed = (username: string) => [...double.accounts.values()].find((one) => one.username === username)

layer(serverLayer({ allowPrivateWebhooks: true }, Layer.empty, undefined, core), { timeout: 120_000 })(
  "the service's promises on a live workspace (Unipile double)",
  (it) => {
    it.effect("approve mode: the connect waits for a person and goes out once with the edited note; its events reach a signed webhook", () =>
      Effect.gen(function*() {
        yield* live.follow
        const hooks = yield* receiver
        const { keyValue: token, workspace } = yield* newWorkspace("Live approvals")
        const endpoint = yield* call("POST", "/v1/webhooks", { token, body: { url: `${hooks.base}/live`, events: ["job.completed"] } })
        assert.strictEqual(endpoint.status, 201, JSON.stringify(endpoint.body))
        const secret: string = endpoint.body.secret
        const username = "decisions@x.io"
        const accountId = yield* liveSeat(token, username, "approve")

        const job = yield* call("POST", `/v1/accounts/${accountId}/connect`, { token, body: { person: maria.slug, note: "Hi María, first draft" } })
        assert.strictEqual(job.status, 202, JSON.stringify(job.body))
        const jobId: string = job.body.job.id
        const waiting = yield* jobWhen(workspace.id, jobId, (one) => one.status === "awaiting_approval")
        assert.strictEqual(waiting.status, "awaiting_approval")
        assert.strictEqual(seatNamed(username)?.sent.length ?? 0, 0, "nothing reaches the network before a person decides")

        const pending = yield* call("GET", "/v1/approvals", { token })
        const approval = pending.body.approvals.find((one: { jobId: string }) => one.jobId === jobId)
        assert.isDefined(approval, JSON.stringify(pending.body))
        const decided = yield* call("POST", `/v1/approvals/${approval.id}/approve`, { token, body: { text: "Hi María, edited by a person" } })
        assert.strictEqual(decided.status, 200, JSON.stringify(decided.body))

        const done = yield* jobWhen(workspace.id, jobId, (one) => one.status === "completed" || one.status === "failed")
        assert.strictEqual(done.status, "completed", JSON.stringify(done.error))
        const sent = seatNamed(username)?.sent ?? []
        assert.deepStrictEqual(sent.map((one) => one.text), ["Hi María, edited by a person"])

        const delivery = yield* eventually("the job.completed delivery", Effect.sync(() => hooks.received.find((one) => one.body.includes(jobId))), (one) => one !== undefined, 30_000)
        assert.isDefined(delivery)
        if (delivery === undefined) return
        const verified = verifyWebhook(secret, delivery.headers, delivery.body, { nowSeconds: Math.floor((yield* Clock.currentTimeMillis) / 1000) })
        assert.isTrue(verified.ok, JSON.stringify(verified))
        assert.include(delivery.body, "job.completed")
        assert.deepStrictEqual(double.violations, [])
      }))

    it.effect("a write whose answer the provider lost after doing it completes from the network's record, sent once", () =>
      Effect.gen(function*() {
        yield* live.follow
        const { keyValue: token, workspace } = yield* newWorkspace("Live lost answers")
        const username = "lost-answers@x.io"
        const accountId = yield* liveSeat(token, username, "autopilot")
        yield* TestClock.adjust(PACING_MAX_MS)

        const callsBefore = double.calls.length
        double.inject("chats.start", { kind: "lostReply" })
        const job = yield* call("POST", `/v1/accounts/${accountId}/send_message`, { token, body: { person: tomas.slug, text: "Sent once, answer lost" } })
        assert.strictEqual(job.status, 202, JSON.stringify(job.body))
        const done = yield* jobWhen(workspace.id, job.body.job.id, (one) => one.status === "completed" || one.status === "failed")
        assert.strictEqual(done.status, "completed", JSON.stringify(done.error))
        assert.deepInclude(done.result, { text: "Sent once, answer lost" })
        const chats = seatNamed(username)?.chats ?? []
        assert.deepStrictEqual(chats.flatMap((chat) => chat.messages.map((one) => one.text)), ["Sent once, answer lost"])
        // Sent once; what happened was then read from the chats (the answer was lost, so the result came from there).
        const routes = double.calls.slice(callsBefore).map((one) => one.route)
        assert.strictEqual(routes.filter((route) => route === "chats.start").length, 1)
        assert.includeMembers(routes.slice(routes.indexOf("chats.start") + 1), ["chats.list", "chats.messages"])
        assert.deepStrictEqual(double.violations, [])
      }))
  }
)
