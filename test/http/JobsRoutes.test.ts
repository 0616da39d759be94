/**
 * The job routes' contract, fast: the service's own handlers (`http/JobsHandlers.ts`, through
 * `JobIntake`) behind the contract's middleware, called with the typed client in memory
 * (`HttpApiTest`), on the in-memory `Jobs` and `Idempotency`. No database and no socket: each
 * test checks status codes, the envelope and error types as the spec states them. The caller's
 * key is a stand-in; the gate's own tests cover keys.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { HttpApiTest } from "effect/http-api"
import { Api } from "../../src/api/Api.ts"
import { Draining } from "../../src/http/Draining.ts"
import { JobsHandlers } from "../../src/http/JobsHandlers.ts"
import * as IdempotencyMemory from "../../src/idempotency/IdempotencyMemory.ts"
import * as ApprovalsMemory from "../../src/approvals/ApprovalsMemory.ts"
import * as JobsMemory from "../../src/jobs/JobsMemory.ts"
import { Notices } from "../../src/platform/Notices.ts"
import { callerWorkspaceId } from "../support/AnyCaller.ts"
import { assertEnvelope, inMemory, read } from "../support/RouteCalls.ts"

/** The caller's account (in `approve` mode), and an account of another workspace. */
const accountId = "0b7c6a1e-3f4d-4e2a-9b8c-7d6e5f4a3b2c"
const foreignAccountId = "7f1e2d3c-4b5a-4697-8a8b-9c0d1e2f3a4b"

const services = inMemory(JobsHandlers.pipe(
  Layer.provide([
    JobsMemory.layer([
      { workspaceId: callerWorkspaceId, accountId, mode: "approve" },
      { workspaceId: "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f", accountId: foreignAccountId, mode: "autopilot" }
    ]),
    IdempotencyMemory.layer,
    Draining.layer
  ]),
  Layer.provide([Notices.layer, ApprovalsMemory.tableLayer])
))

const client = HttpApiTest.groups(Api, ["jobs"])

const connect = (person: string, key?: string) => ({
  params: { id: accountId },
  payload: { person, note: "Hello" },
  headers: key === undefined ? {} : { "idempotency-key": key }
})

layer(services)("the job routes in memory", (it) => {
  it.effect("a command answers 202 with its job in the envelope; GET /v1/jobs/{id} reads it", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const [{ body: accepted, headers }, response] = yield* api.jobs.command_connect({
        ...connect("ada-lovelace"),
        responseMode: "decoded-and-response"
      })
      assert.strictEqual(response.status, 202)
      assert.isTrue(accepted.ok)
      assert.strictEqual(accepted.job.kind, "connect")
      assert.strictEqual(accepted.job.status, "awaiting_approval")
      assert.isUndefined(headers["idempotent-replayed"])
      const [read, readResponse] = yield* api.jobs.get({ params: { id: accepted.job.id }, query: {}, responseMode: "decoded-and-response" })
      assert.strictEqual(readResponse.status, 200)
      assert.deepStrictEqual(read.job, accepted.job)
    })))

  it.effect("an Idempotency-Key replays the first job; reused with another body it is 422", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const first = yield* api.jobs.command_connect(connect("grace-hopper", "key-1"))
      const [again, response] = yield* api.jobs.command_connect({ ...connect("grace-hopper", "key-1"), responseMode: "decoded-and-response" })
      assert.strictEqual(response.status, 202)
      assert.strictEqual(again.headers["idempotent-replayed"], "true")
      assert.deepStrictEqual(again.body.job, first.body.job)
      const other = yield* api.jobs.command_connect({ ...connect("alan-turing", "key-1"), responseMode: "response-only" })
      assertEnvelope(yield* read(other), 422, "unprocessable")
      const typed = yield* Effect.flip(api.jobs.command_connect(connect("alan-turing", "key-1")))
      assert.strictEqual(typed._tag, "Unprocessable")
    })))

  it.effect("an account of another workspace, or an unknown job, is 404 notFound", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const foreign = yield* api.jobs.create({
        payload: { account: foreignAccountId, command: "get_profile", input: { person: "ada-lovelace" } },
        headers: {},
        responseMode: "response-only"
      })
      assertEnvelope(yield* read(foreign), 404, "notFound")
      const unknown = yield* api.jobs.get({ params: { id: crypto.randomUUID() }, query: {}, responseMode: "response-only" })
      assertEnvelope(yield* read(unknown), 404, "notFound")
      assert.strictEqual((yield* Effect.flip(api.jobs.get({ params: { id: crypto.randomUUID() }, query: {} })))._tag, "NotFound")
    })))

  it.effect("GET /v1/jobs pages newest first; a cursor it did not give out is 422", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const older = yield* api.jobs.create({ payload: { account: accountId, command: "ssi", input: {} }, headers: {} })
      const newer = yield* api.jobs.create({ payload: { account: accountId, command: "ssi", input: {} }, headers: {} })
      const page = yield* api.jobs.list({ query: { kind: "ssi", limit: 1 } })
      assert.isTrue(page.ok)
      assert.deepStrictEqual(page.jobs.map((job) => job.id), [newer.body.job.id])
      assert.isString(page.nextCursor)
      const next = yield* api.jobs.list({ query: { kind: "ssi", limit: 1, cursor: page.nextCursor ?? "" } })
      assert.deepStrictEqual(next.jobs.map((job) => job.id), [older.body.job.id])
      const foreign = yield* api.jobs.list({ query: { cursor: "bm90LWEtY3Vyc29y", limit: 50 }, responseMode: "response-only" })
      assertEnvelope(yield* read(foreign), 422, "unprocessable")
    })))

  it.effect("cancelling a job that has not started answers it cancelled; cancelling it again is 409 conflict", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const created = yield* api.jobs.command_connect(connect("katherine-johnson"))
      const cancelled = yield* api.jobs.cancel({ params: { id: created.body.job.id } })
      assert.strictEqual(cancelled.job.status, "cancelled")
      assert.strictEqual(cancelled.job.error?.type, "cancelled")
      const again = yield* api.jobs.cancel({ params: { id: created.body.job.id }, responseMode: "response-only" })
      assertEnvelope(yield* read(again), 409, "conflict")
    })))
})
