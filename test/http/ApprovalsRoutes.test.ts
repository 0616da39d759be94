/**
 * The approval routes' contract, fast: the service's own handlers (`http/ApprovalsHandlers.ts`)
 * behind the contract's middleware, called with the typed client in memory (`HttpApiTest`), on the
 * in-memory `Approvals` and `Jobs` (held to the stored ones by `test/approvals/ApprovalsContract.ts`
 * and `test/jobs/JobsSpec.ts`). Each test checks status codes, the envelope and error types as the
 * spec states them, bad input included. The caller is a stand-in owner key; which roles may decide
 * is the gate's, tested with the whole service (`test/http/Roles.test.ts`).
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { HttpApiTest } from "effect/http-api"
import { TestClock } from "effect/testing"
import * as ActivityMemory from "../../src/activity/ActivityMemory.ts"
import { Api } from "../../src/api/Api.ts"
import * as ApprovalsMemory from "../../src/approvals/ApprovalsMemory.ts"
import { ApprovalsHandlers } from "../../src/http/ApprovalsHandlers.ts"
import { Jobs } from "../../src/jobs/Jobs.ts"
import { Notices } from "../../src/platform/Notices.ts"
import { callerWorkspaceId } from "../support/AnyCaller.ts"
import { assertEnvelope, inMemory, read, sending } from "../support/RouteCalls.ts"

/** The caller's account (in `approve` mode), and an account of another workspace (in `assist` mode, which asks for approvals too). */
const accountId = "0b7c6a1e-3f4d-4e2a-9b8c-7d6e5f4a3b2c"
const foreignWorkspaceId = "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f"
const foreignAccountId = "7f1e2d3c-4b5a-4697-8a8b-9c0d1e2f3a4b"

const services = inMemory(ApprovalsHandlers.pipe(
  Layer.provideMerge(ApprovalsMemory.withJobs([
    { workspaceId: callerWorkspaceId, accountId, mode: "approve" },
    { workspaceId: foreignWorkspaceId, accountId: foreignAccountId, mode: "assist" }
  ])),
  Layer.provideMerge(ActivityMemory.layer),
  Layer.provide(Notices.layer)
))

const client = HttpApiTest.groups(Api, ["approvals"])

/** A connect awaiting its approval, of the caller's account unless told: its approval's id and its job's. */
const awaiting = (person: string, workspaceId = callerWorkspaceId, account = accountId) =>
  Effect.gen(function*() {
    const job = yield* (yield* Jobs).create({ workspaceId, accountId: account, command: "connect", input: { person, note: "Hello" } })
    assert.isString(job.approvalId)
    return { id: job.approvalId ?? "", jobId: job.id }
  })

layer(services)("the approval routes in memory", (it) => {
  it.effect("GET /v1/approvals answers 200 with the pending approvals, oldest first, a page at a time", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const first = yield* awaiting("list-first")
      yield* TestClock.adjust("1 second")
      const second = yield* awaiting("list-second")
      const [page, response] = yield* api.approvals.list({ query: { limit: 1 }, responseMode: "decoded-and-response" })
      assert.strictEqual(response.status, 200)
      assert.isTrue(page.ok)
      assert.strictEqual(page.approvals.length, 1)
      const pending = yield* api.approvals.list({ query: { account: accountId, limit: 100 } })
      const ours = pending.approvals.filter((approval) => approval.id === first.id || approval.id === second.id)
      assert.deepStrictEqual(ours.map((approval) => [approval.id, approval.status, approval.target, approval.text]), [
        [first.id, "pending", "list-first", "Hello"],
        [second.id, "pending", "list-second", "Hello"]
      ])
      assert.isString(page.nextCursor)
      const next = yield* api.approvals.list({ query: { limit: 1, cursor: page.nextCursor ?? "" } })
      assert.notStrictEqual(next.approvals[0]?.id, page.approvals[0]?.id)
      const approved = yield* api.approvals.list({ query: { status: "approved", account: foreignAccountId } })
      assert.deepStrictEqual(approved, { ok: true, approvals: [], nextCursor: null })
    })))

  it.effect("POST approve answers 200 with the approval and its job, queued with the text; a second decision is 409 conflict", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const { id, jobId } = yield* awaiting("approve-me")
      const [decision, response] = yield* api.approvals.approve({
        params: { id },
        payload: { text: "Hi, glad to connect." },
        responseMode: "decoded-and-response"
      })
      assert.strictEqual(response.status, 200)
      assert.strictEqual(decision.approval.status, "approved")
      assert.strictEqual(decision.approval.text, "Hi, glad to connect.")
      assert.strictEqual(decision.job.id, jobId)
      assert.strictEqual(decision.job.status, "queued")
      assert.deepStrictEqual(decision.job.input, { person: "approve-me", note: "Hi, glad to connect." })
      const again = assertEnvelope(
        yield* read(yield* api.approvals.approve({ params: { id }, payload: undefined, responseMode: "response-only" })),
        409,
        "conflict"
      )
      assert.strictEqual(again.message, "The approval is already approved.")
      assert.strictEqual(again.next, `Read its job with GET /v1/jobs/${jobId}.`)
      const typed = yield* Effect.flip(api.approvals.reject({ params: { id }, payload: undefined }))
      assert.strictEqual(typed._tag, "Conflict")
      // Without a body, a write is approved as it is.
      const plain = yield* awaiting("approve-as-is")
      const asIs = yield* api.approvals.approve({ params: { id: plain.id }, payload: undefined })
      assert.strictEqual(asIs.approval.text, "Hello")
    })))

  it.effect("POST reject answers 200 with the job failed for the reason, or for none without a body", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const { id } = yield* awaiting("reject-me")
      const [decision, response] = yield* api.approvals.reject({
        params: { id },
        payload: { reason: "Wrong person." },
        responseMode: "decoded-and-response"
      })
      assert.strictEqual(response.status, 200)
      assert.deepStrictEqual({ status: decision.approval.status, reason: decision.approval.reason }, {
        status: "rejected",
        reason: "Wrong person."
      })
      assert.strictEqual(decision.job.status, "failed")
      assert.strictEqual(decision.job.error?.type, "approvalRejected")
      const plain = yield* awaiting("reject-plainly")
      const bare = yield* api.approvals.reject({ params: { id: plain.id }, payload: undefined })
      assert.strictEqual(bare.job.error?.message, "A person rejected this write; it was not sent.")
    })))

  it.effect("an unknown approval, or another workspace's, is 404 notFound", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const unknown = yield* api.approvals.approve({ params: { id: crypto.randomUUID() }, payload: undefined, responseMode: "response-only" })
      assert.strictEqual(assertEnvelope(yield* read(unknown), 404, "notFound").next, "List pending approvals with GET /v1/approvals.")
      const foreign = yield* awaiting("elsewhere", foreignWorkspaceId, foreignAccountId)
      const elsewhere = yield* api.approvals.reject({ params: { id: foreign.id }, payload: undefined, responseMode: "response-only" })
      assertEnvelope(yield* read(elsewhere), 404, "notFound")
      const [still] = (yield* (yield* Jobs).list(foreignWorkspaceId, { limit: 1 })).jobs
      assert.strictEqual(still?.status, "awaiting_approval")
    })))

  it.effect("72 hours on, approving is 422 approvalExpired and the job has failed", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const { id, jobId } = yield* awaiting("too-late")
      yield* TestClock.adjust("72 hours")
      const late = yield* api.approvals.approve({ params: { id }, payload: undefined, responseMode: "response-only" })
      const error = assertEnvelope(yield* read(late), 422, "approvalExpired")
      assert.include(error.message, "72 hours after it was asked for")
      assert.strictEqual(error.next, "Create the connect job again if it should still go out.")
      assert.strictEqual(Object((yield* (yield* Jobs).get(callerWorkspaceId, jobId)).error).type, "approvalExpired")
      assert.strictEqual((yield* Effect.flip(api.approvals.approve({ params: { id }, payload: undefined })))._tag, "ApprovalExpired")
    })))

  it.effect("text that does not fit the command is 422 unprocessable and decides nothing", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const { id } = yield* awaiting("too-long")
      const long = yield* api.approvals.approve({ params: { id }, payload: { text: "x".repeat(301) }, responseMode: "response-only" })
      const error = assertEnvelope(yield* read(long), 422, "unprocessable")
      assert.match(error.message, /^The edited text does not fit a connect: /)
      assert.strictEqual((yield* api.approvals.approve({ params: { id }, payload: undefined })).approval.status, "approved")
    })))

  it.effect("a malformed body, id or query is 400 badRequest naming what is wrong, and decides nothing", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const { id } = yield* awaiting("bad-input")
      const approve = api.approvals.approve({ params: { id }, payload: undefined, responseMode: "response-only" })
      for (const body of [{ text: "" }, { text: "   " }, { text: 42 }, { text: "x".repeat(8001) }]) {
        const error = assertEnvelope(yield* read(yield* approve.pipe(sending({ body }))), 400, "badRequest")
        assert.include(error.message, "text", JSON.stringify(body))
      }
      const reject = api.approvals.reject({ params: { id }, payload: undefined, responseMode: "response-only" })
      for (const body of [{ reason: "x".repeat(501) }, { reason: ["no"] }]) {
        const error = assertEnvelope(yield* read(yield* reject.pipe(sending({ body }))), 400, "badRequest")
        assert.include(error.message, "reason", JSON.stringify(body))
      }
      const notUuid = yield* approve.pipe(sending({ path: "/v1/approvals/not-an-id/approve" }))
      assert.include(assertEnvelope(yield* read(notUuid), 400, "badRequest").message, "id")
      const list = api.approvals.list({ query: {}, responseMode: "response-only" })
      for (const [query, field] of [["status=maybe", "status"], ["limit=0", "limit"], ["account=nobody", "account"]]) {
        const error = assertEnvelope(yield* read(yield* list.pipe(sending({ path: `/v1/approvals?${query}` }))), 400, "badRequest")
        assert.include(error.message, field, query)
      }
      const foreignCursor = yield* list.pipe(sending({ path: "/v1/approvals?cursor=bm90LWEtY3Vyc29y" }))
      assertEnvelope(yield* read(foreignCursor), 422, "unprocessable")
      const [still] = (yield* api.approvals.list({ query: { account: accountId, limit: 100 } })).approvals.filter((a) => a.id === id)
      assert.strictEqual(still?.status, "pending")
    })))
})
