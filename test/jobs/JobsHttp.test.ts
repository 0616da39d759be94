import { assert, layer } from "@effect/vitest"
import { Clock, Effect, Layer } from "effect"
import type { Reply } from "../support/TestServer.ts"
import { call, layer as serverLayer } from "../support/TestServer.ts"
import { strangers, workspaceWithAccount } from "./support.ts"

/** Real time, for a test that waits on a concurrent request. */
const liveClock = Layer.succeed(Clock.Clock, Clock.Clock.defaultValue())

const assertError = (reply: Reply, status: number, type: string) => {
  assert.strictEqual(reply.status, status, JSON.stringify(reply.body))
  assert.strictEqual(reply.body.ok, false)
  assert.strictEqual(reply.body.error.type, type)
  assert.isString(reply.body.error.message)
  assert.isString(reply.body.error.next)
}

layer(serverLayer())("jobs over HTTP", (it) => {
  it.effect("a command answers 202 with the job at once; ?wait= returns it finished", () =>
    Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount()
      const created = yield* call("POST", `/v1/accounts/${accountId}/create_post`, { token, body: { text: "Hello" } })
      assert.strictEqual(created.status, 202, JSON.stringify(created.body))
      assert.strictEqual(created.body.ok, true)
      assert.strictEqual(created.body.job.kind, "create_post")
      assert.deepStrictEqual(created.body.job.input, { text: "Hello" })
      assert.isDefined(created.headers["ratelimit-remaining"])
      const done = yield* call("GET", `/v1/jobs/${created.body.job.id}?wait=10`, { token })
      assert.strictEqual(done.status, 200)
      assert.strictEqual(done.body.job.status, "completed", JSON.stringify(done.body))
      assert.isString(done.body.job.result.postId ?? done.body.job.result.id ?? "")
      const listed = yield* call("GET", `/v1/jobs?account=${accountId}&kind=create_post`, { token })
      assert.deepStrictEqual(listed.body.jobs.map((j: { id: string }) => j.id), [created.body.job.id])
    }))

  it.effect("POST /v1/jobs takes {account, command, input} and names a bad input field", () =>
    Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount()
      const ok = yield* call("POST", "/v1/jobs", { token, body: { account: accountId, command: "ssi", input: {} } })
      assert.strictEqual(ok.status, 202, JSON.stringify(ok.body))
      assert.strictEqual(ok.body.job.kind, "ssi")
      const bad = yield* call("POST", "/v1/jobs", { token, body: { account: accountId, command: "connect", input: {} } })
      assertError(bad, 400, "badRequest")
      assert.include(bad.body.error.message, "input.person")
      const unknown = yield* call("POST", "/v1/jobs", { token, body: { account: accountId, command: "hack", input: {} } })
      assertError(unknown, 400, "badRequest")
    }))

  it.effect("bad inputs get the envelope: unknown account, bad id, bad wait, bad cursor, oversized note", () =>
    Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount()
      assertError(
        yield* call("POST", `/v1/accounts/00000000-0000-4000-8000-000000000000/ssi`, { token, body: {} }),
        404,
        "notFound"
      )
      assertError(yield* call("POST", `/v1/accounts/not-a-uuid/ssi`, { token, body: {} }), 400, "badRequest")
      assertError(yield* call("GET", `/v1/jobs/00000000-0000-4000-8000-000000000000`, { token }), 404, "notFound")
      const job = yield* call("POST", `/v1/accounts/${accountId}/ssi`, { token, body: {} })
      assertError(yield* call("GET", `/v1/jobs/${job.body.job.id}?wait=61`, { token }), 400, "badRequest")
      assertError(yield* call("GET", `/v1/jobs?cursor=bm9wZQ`, { token }), 422, "unprocessable")
      assertError(
        yield* call("POST", `/v1/accounts/${accountId}/connect`, {
          token,
          body: { person: strangers(accountId, 1)[0], note: "x".repeat(301) }
        }),
        400,
        "badRequest"
      )
    }))

  it.effect("a finished job reads as the answer that finished it, every time (kept in memory); elsewhere 404", () =>
    Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount({ mode: "approve" })
      const stranger = yield* workspaceWithAccount()
      const [person] = strangers(accountId, 1)
      const created = yield* call("POST", `/v1/accounts/${accountId}/connect`, { token, body: { person } })
      assert.strictEqual(created.status, 202, JSON.stringify(created.body))
      const id = created.body.job.id
      assert.strictEqual((yield* call("GET", `/v1/jobs/${id}`, { token })).body.job.status, "awaiting_approval")
      const cancelled = yield* call("POST", `/v1/jobs/${id}/cancel`, { token })
      assert.strictEqual(cancelled.body.job.status, "cancelled", JSON.stringify(cancelled.body))
      for (const _ of [1, 2, 3]) {
        const read = yield* call("GET", `/v1/jobs/${id}`, { token })
        assert.strictEqual(read.status, 200)
        assert.deepStrictEqual(read.body, cancelled.body)
        assert.strictEqual(read.headers["content-type"], cancelled.headers["content-type"])
        assert.strictEqual(read.headers["content-length"], cancelled.headers["content-length"])
        assert.isDefined(read.headers["ratelimit-remaining"])
      }
      assertError(yield* call("GET", `/v1/jobs/${id}`, { token: stranger.token }), 404, "notFound")
    }))

  it.effect("long-poll times out with the job as it is", () =>
    Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount({ mode: "approve" })
      const [person] = strangers(accountId, 1)
      const created = yield* call("POST", `/v1/accounts/${accountId}/connect`, { token, body: { person } })
      assert.strictEqual(created.body.job.status, "awaiting_approval")
      const started = Date.now()
      const polled = yield* call("GET", `/v1/jobs/${created.body.job.id}?wait=1`, { token })
      assert.isAtLeast(Date.now() - started, 900)
      assert.strictEqual(polled.body.job.status, "awaiting_approval")
    }))

  it.effect("long-poll returns early, the moment the job finishes", () =>
    Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount({ mode: "approve" })
      const [person] = strangers(accountId, 1)
      const created = yield* call("POST", `/v1/accounts/${accountId}/connect`, { token, body: { person } })
      const approvalId: string = created.body.job.approvalId
      const started = Date.now()
      const [polled] = yield* Effect.all([
        call("GET", `/v1/jobs/${created.body.job.id}?wait=30`, { token }),
        Effect.andThen(Effect.sleep("200 millis"), call("POST", `/v1/approvals/${approvalId}/reject`, { token }))
      ], { concurrency: 2 }).pipe(Effect.provide(liveClock))
      assert.isBelow(Date.now() - started, 10_000)
      assert.strictEqual(polled.body.job.status, "failed")
      assert.strictEqual(polled.body.job.error.type, "approvalRejected")
    }))

  it.effect("Idempotency-Key: same body replays, different body 422, concurrent repeats one job", () =>
    Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount()
      const send = (key: string, text: string) =>
        call("POST", `/v1/accounts/${accountId}/create_post`, {
          token,
          body: { text },
          headers: { "idempotency-key": key }
        })
      const first = yield* send("k-1", "Hello")
      assert.strictEqual(first.status, 202)
      assert.isUndefined(first.headers["idempotent-replayed"])
      const again = yield* send("k-1", "Hello")
      assert.strictEqual(again.status, 202)
      assert.strictEqual(again.headers["idempotent-replayed"], "true")
      assert.strictEqual(again.body.job.id, first.body.job.id)
      assertError(yield* send("k-1", "Different"), 422, "unprocessable")
      assertError(
        yield* call("POST", `/v1/accounts/${accountId}/create_post`, {
          token,
          body: { text: "x" },
          headers: { "idempotency-key": "bad key with spaces" }
        }),
        400,
        "badRequest"
      )
      const racing = yield* Effect.all([1, 2, 3, 4, 5].map(() => send("k-race", "Race")), { concurrency: 5 })
      const accepted = racing.filter((r) => r.status === 202)
      assert.isAtLeast(accepted.length, 1)
      for (const reply of racing) assert.include([202, 409], reply.status, JSON.stringify(reply.body))
      assert.strictEqual(new Set(accepted.map((r) => r.body.job.id)).size, 1)
      const listed = yield* call("GET", `/v1/jobs?account=${accountId}&kind=create_post&limit=200`, { token })
      const texts = listed.body.jobs.map((j: { input: { text: string } }) => j.input.text)
      assert.strictEqual(texts.filter((t: string) => t === "Race").length, 1)
    }))

  it.effect("approvals over HTTP: list with target and text, approve with new text, cancel rules", () =>
    Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount({ mode: "approve" })
      const [a, b] = strangers(accountId, 2)
      const first = yield* call("POST", `/v1/accounts/${accountId}/connect`, { token, body: { person: a, note: "Hi" } })
      const second = yield* call("POST", `/v1/accounts/${accountId}/connect`, { token, body: { person: b } })
      const listed = yield* call("GET", "/v1/approvals", { token })
      assert.strictEqual(listed.status, 200, JSON.stringify(listed.body))
      const mine = listed.body.approvals.find((x: { jobId: string }) => x.jobId === first.body.job.id)
      assert.strictEqual(mine.target, a)
      assert.strictEqual(mine.text, "Hi")
      assert.strictEqual(mine.status, "pending")
      assertError(
        yield* call("POST", `/v1/approvals/${mine.id}/approve`, { token, body: { text: "y".repeat(301) } }),
        422,
        "unprocessable"
      )
      const approved = yield* call("POST", `/v1/approvals/${mine.id}/approve`, { token, body: { text: "Hello!" } })
      assert.strictEqual(approved.status, 200, JSON.stringify(approved.body))
      assert.strictEqual(approved.body.approval.status, "approved")
      const done = yield* call("GET", `/v1/jobs/${first.body.job.id}?wait=10`, { token })
      assert.strictEqual(done.body.job.status, "completed", JSON.stringify(done.body))
      assert.strictEqual(done.body.job.result.note, "Hello!")
      assertError(yield* call("POST", `/v1/jobs/${first.body.job.id}/cancel`, { token }), 409, "conflict")
      const cancelled = yield* call("POST", `/v1/jobs/${second.body.job.id}/cancel`, { token })
      assert.strictEqual(cancelled.body.job.status, "cancelled")
      assert.strictEqual(cancelled.body.job.error.type, "cancelled")
      assertError(yield* call("POST", `/v1/approvals/${second.body.job.approvalId}/approve`, { token }), 409, "conflict")
    }))
})
