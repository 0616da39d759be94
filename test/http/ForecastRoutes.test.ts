/**
 * The forecast route's contract, fast: the service's own handlers (`http/ForecastHandlers.ts`)
 * behind the contract's middleware, called with the typed client in memory (`HttpApiTest`), on the
 * in-memory `Forecasts` and `Jobs` (held to the stored ones by `test/jobs/ForecastsContract.ts`
 * and `test/jobs/JobsSpec.ts`). Each test checks status codes, the envelope and error types as the
 * spec states them, bad input included. The test clock starts on Thursday 1970-01-01 00:00 UTC;
 * the accounts work every day but Thursday, so their writes wait for Friday's opening.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { HttpApiTest } from "effect/http-api"
import { Api } from "../../src/api/Api.ts"
import * as ApprovalsMemory from "../../src/approvals/ApprovalsMemory.ts"
import { ForecastHandlers } from "../../src/http/ForecastHandlers.ts"
import { EXPECTED_GAP_MS } from "../../src/jobs/Forecast.ts"
import * as ForecastsMemory from "../../src/jobs/ForecastsMemory.ts"
import { Jobs } from "../../src/jobs/Jobs.ts"
import { Notices } from "../../src/platform/Notices.ts"
import { callerWorkspaceId } from "../support/AnyCaller.ts"
import { assertEnvelope, inMemory, read, sending } from "../support/RouteCalls.ts"

const foreignWorkspaceId = "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f"

const services = inMemory(ForecastHandlers.pipe(
  Layer.provideMerge(ForecastsMemory.withJobs),
  Layer.provide(ApprovalsMemory.tableLayer),
  Layer.provide(Notices.layer)
))

const client = HttpApiTest.groups(Api, ["forecast"])

/** Friday 1970-01-02 00:00 UTC, the accounts' next opening. */
const OPENS = Date.UTC(1970, 0, 2)

/** A new account of the workspace (the caller's unless told), working every day but Thursday. */
const account = (workspaceId = callerWorkspaceId) =>
  Effect.gen(function*() {
    const accountId = crypto.randomUUID()
    yield* (yield* ForecastsMemory.ForecastAccountsMemory).add({
      workspaceId,
      accountId,
      mode: "autopilot",
      workingHours: { days: [1, 2, 3, 5, 6, 7], from: "00:00", to: "23:59", timezone: "UTC" },
      offHoursPolicy: "queue"
    })
    return accountId
  })

const connect = (accountId: string, person: string) =>
  Effect.gen(function*() {
    return (yield* (yield* Jobs).create({ workspaceId: callerWorkspaceId, accountId, command: "connect", input: { person } })).id
  }).pipe(Effect.orDie)

layer(services)("the forecast route in memory", (it) => {
  it.effect("GET forecast answers 200 with the writes in order, a page at a time, and assumed writes apart", () =>
    Effect.gen(function*() {
      const api = yield* client
      const accountId = yield* account()
      const first = yield* connect(accountId, "ada-lovelace")
      const second = yield* connect(accountId, "grace-hopper")
      const [answer, response] = yield* api.forecast.forecast({
        params: { id: accountId },
        query: { limit: 1, assume: "connect:2" },
        responseMode: "decoded-and-response"
      })
      assert.strictEqual(response.status, 200)
      assert.isTrue(answer.ok)
      const { forecast } = answer
      assert.strictEqual(forecast.total, 2)
      assert.deepStrictEqual(forecast.writes.map((write) => [write.jobId, write.expectedStart, write.waitsFor]), [
        [first, new Date(OPENS).toISOString(), "working_hours"]
      ])
      assert.deepStrictEqual(forecast.assumed.map((line) => [line.command, line.count, line.firstStart, line.lastStart]), [
        ["connect", 2, new Date(OPENS + 2 * EXPECTED_GAP_MS).toISOString(), new Date(OPENS + 3 * EXPECTED_GAP_MS).toISOString()]
      ])
      assert.isString(forecast.nextCursor)
      const next = yield* api.forecast.forecast({ params: { id: accountId }, query: { limit: 1, cursor: forecast.nextCursor ?? "" } })
      assert.deepStrictEqual(next.forecast.writes.map((write) => [write.jobId, write.ahead]), [[second, 1]])
      assert.strictEqual(next.forecast.nextCursor, null)
    }))

  it.effect("an unknown account, or another workspace's, is 404 notFound", () =>
    Effect.gen(function*() {
      const api = yield* client
      const elsewhere = yield* account(foreignWorkspaceId)
      for (const id of [crypto.randomUUID(), elsewhere]) {
        const response = yield* api.forecast.forecast({ params: { id }, query: {}, responseMode: "response-only" })
        const error = assertEnvelope(yield* read(response), 404, "notFound")
        assert.strictEqual(error.message, `No account ${id} in this workspace.`)
        assert.strictEqual(error.next, "List the workspace's accounts with GET /v1/accounts.")
      }
      const typed = yield* Effect.flip(api.forecast.forecast({ params: { id: elsewhere }, query: {} }))
      assert.strictEqual(typed._tag, "NotFound")
    }))

  it.effect("an assumption of reads or of too many writes, or a cursor of another listing, is 422 unprocessable", () =>
    Effect.gen(function*() {
      const api = yield* client
      const id = yield* account()
      const call = (query: { readonly assume?: string; readonly cursor?: string }) =>
        Effect.flatMap(api.forecast.forecast({ params: { id }, query, responseMode: "response-only" }), read)
      const reads = assertEnvelope(yield* call({ assume: "get_profile:3" }), 422, "unprocessable")
      assert.strictEqual(reads.message, "query.assume: get_profile is not a write command (reads do not queue behind writes)")
      assert.match(reads.next, /^Give write commands with a count, such as assume=connect:300,send_message:20 \(at most 5000 writes in all\)/)
      const many = assertEnvelope(yield* call({ assume: "connect:3000,send_message:3000" }), 422, "unprocessable")
      assert.strictEqual(many.message, "query.assume: 6000 writes in all, more than 5000")
      const cursor = assertEnvelope(yield* call({ cursor: "bm90LWEtY3Vyc29y" }), 422, "unprocessable")
      assert.strictEqual(cursor.message, "query.cursor: the cursor is not one this API gave out.")
      assert.strictEqual(cursor.next, "Pass the nextCursor of the previous page unchanged, or leave it out to start from the first write expected.")
      const typed = yield* Effect.flip(api.forecast.forecast({ params: { id }, query: { assume: "connect:0" } }))
      assert.strictEqual(typed._tag, "Unprocessable")
    }))

  it.effect("a malformed id or query is 400 badRequest naming what is wrong", () =>
    Effect.gen(function*() {
      const api = yield* client
      const id = yield* account()
      const forecast = api.forecast.forecast({ params: { id }, query: {}, responseMode: "response-only" })
      for (
        const [query, field] of [
          ["limit=0", "limit"],
          ["limit=1001", "limit"],
          ["limit=many", "limit"],
          ["assume=connect", "assume"],
          ["assume=connect:1;drop", "assume"],
          [`assume=${"connect:1,".repeat(50)}connect:1`, "assume"]
        ]
      ) {
        const answer = yield* read(yield* forecast.pipe(sending({ path: `/v1/accounts/${id}/forecast?${query}` })))
        assert.include(assertEnvelope(answer, 400, "badRequest").message, field, query)
      }
      const notUuid = yield* read(yield* forecast.pipe(sending({ path: "/v1/accounts/not-an-id/forecast" })))
      assert.include(assertEnvelope(notUuid, 400, "badRequest").message, "id")
    }))
})
