/**
 * The typed client drives a whole flow against the real server: connect an
 * account, run a command, approve it, read the result; and a typed error.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { HttpServer } from "effect/http"
import { TestClock } from "effect/testing"
import * as Client from "../../src/client/Client.ts"
import { alwaysOpen, DAY, strangers } from "../jobs/support.ts"
import { layer as serverLayer, newWorkspace } from "../support/TestServer.ts"

const baseUrl = Effect.map(HttpServer.HttpServer, (server) =>
  server.address._tag === "UnixPathAddress" ? "" : `http://127.0.0.1:${server.address.port}`)

layer(serverLayer())("the typed client", (it) => {
  it.effect("connect an account, run a command, approve it, read the result", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const client = yield* Client.make({ baseUrl: yield* baseUrl, apiKey: keyValue })
      const me = yield* client.identity.me()
      assert.strictEqual(me.kind, "key")

      const { account } = yield* client.accounts.connect({ payload: { label: "Ada" } })
      yield* client.sandbox.completeConnection({ params: { id: account.id }, payload: { tier: "premium" } })
      yield* TestClock.adjust(14 * DAY)
      yield* client.accounts.update({ params: { id: account.id }, payload: { workingHours: alwaysOpen, minInviteQuality: 0 } })

      // A job-creating answer carries its `idempotent-replayed` header beside the body.
      const { body: created, headers } = yield* client.jobs.create({
        headers: {},
        // Someone the sandbox does not make a connection of this (random) account: one in 25 people is.
        payload: { account: account.id, command: "connect", input: { person: strangers(account.id, 1)[0] } }
      })
      assert.isUndefined(headers["idempotent-replayed"])
      assert.strictEqual(created.job.status, "awaiting_approval")
      // Optional query fields have their defaults: status `pending`, limit 50.
      const { approvals } = yield* client.approvals.list({ query: {} })
      const approval = approvals.find((a) => a.jobId === created.job.id)
      assert.isDefined(approval)
      yield* client.approvals.approve({ params: { id: approval?.id ?? "" }, payload: {} })

      let job = (yield* client.jobs.get({ params: { id: created.job.id }, query: {} })).job
      for (let i = 0; i < 50 && job.status !== "completed" && job.status !== "failed"; i++) {
        yield* TestClock.adjust("2 minutes")
        job = (yield* client.jobs.get({ params: { id: created.job.id }, query: {} })).job
      }
      assert.strictEqual(job.status, "completed", JSON.stringify(job))

      // Errors are typed: the unknown id is a NotFound with the envelope's words.
      const unknownId = crypto.randomUUID()
      const missing = yield* Effect.flip(client.accounts.get({ params: { id: unknownId } }))
      assert.strictEqual(missing._tag, "NotFound")
      if (missing._tag !== "NotFound") return
      // Its own message is the envelope's (what a log or a thrown error shows), its type the envelope's type.
      assert.include(missing.error.message, unknownId)
      assert.strictEqual(missing.message, missing.error.message)
      assert.propertyVal(missing, "type", "notFound")
      assert.include(String(missing), unknownId)
    }))

  it.effect("a revoked or wrong key fails as Unauthorized", () =>
    Effect.gen(function*() {
      const client = yield* Client.make({ baseUrl: yield* baseUrl, apiKey: "svc_" + "A".repeat(43) })
      const failure = yield* Effect.flip(client.identity.me())
      assert.strictEqual(failure._tag, "Unauthorized")
    }))

  it.effect("the Promise API: await a method; a failure rejects with the envelope's message and type", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const client = Client.makePromise({ baseUrl: yield* baseUrl, apiKey: keyValue })
      const me = yield* Effect.promise(() => client.identity.me())
      assert.strictEqual(me.kind, "key")
      const { account } = yield* Effect.promise(() => client.accounts.connect({ payload: { label: "Promise" } }))
      const { accounts } = yield* Effect.promise(() => client.accounts.list())
      assert.deepStrictEqual(accounts.map((a) => a.id), [account.id])
      const id = crypto.randomUUID()
      const missing = yield* Effect.promise(() => client.accounts.get({ params: { id } }).then(() => undefined, (error: unknown) => error))
      assert.instanceOf(missing, Client.OutreachError)
      assert.strictEqual(missing instanceof Client.OutreachError ? missing.type : "", "notFound")
      assert.include(missing instanceof Error ? missing.message : "", id)
      const wrongKey = Client.makePromise({ baseUrl: yield* baseUrl, apiKey: "svc_" + "A".repeat(43) })
      const refused = yield* Effect.promise(() => wrongKey.identity.me().then(() => undefined, (error: unknown) => error))
      assert.strictEqual(refused instanceof Client.OutreachError ? refused.type : "", "unauthorized")
      assert.match(refused instanceof Error ? refused.message : "", /unknown or revoked/)
    }))
})
