/**
 * A live write in flight when the process dies, on the Unipile double: the new process asks the
 * network (`outcomeOf`) and the write is neither lost nor sent twice. Each case leaves `c` running
 * with its attempt kept, as a process killed mid-write leaves it: once after the provider did it
 * (the answer lost), once before it reached the provider.
 */
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Clock, Effect, Exit, Layer, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { UnipileClient } from "unipile-node-sdk"
import { PACING_MAX_MS } from "../../../src/domain/Job.ts"
import { Jobs } from "../../../src/jobs/Jobs.ts"
import * as Store from "../../../src/network/unipile/Store.ts"
import { alwaysOpen, DAY, endedMovingClock, jobAfter, jobNow } from "../../jobs/support.ts"
import { eventually } from "../../support/Eventually.ts"
import * as TestDatabase from "../../support/TestDatabase.ts"
import { call, newWorkspace } from "../../support/TestServer.ts"
import { tomas } from "../../support/unipile/Directory.ts"
import * as LiveService from "../../support/unipile/LiveService.ts"
import { restartableServer } from "../../webhooks/support.ts"

const apiKey = "restart-key"
const live = await LiveService.start(apiKey, "restart-webhook-secret")
const { double, driver } = live
afterAll(() => double.close())

const message = (text: string) => ({ person: tomas.slug, text })

/** How many times the seat sent `text` on the network. */
const sentTimes = (username: string, text: string) =>
  [...double.accounts.values()].filter((one) => one.username === username)
    .flatMap((one) => one.chats.flatMap((chat) => chat.messages.filter((sent) => sent.fromMe && sent.text === text))).length

const restartWithWriteInFlight = (username: string, reached: boolean) =>
  Effect.gen(function*() {
    yield* live.follow
    const open = yield* TestDatabase.reopenable
    const first = yield* Scope.make()
    const firstContext = yield* Layer.build(restartableServer(open(), driver)).pipe(Scope.provide(first))
    const ids = yield* Effect.gen(function*() {
      const { keyValue: token, workspace } = yield* newWorkspace()
      const created = yield* call("POST", "/v1/accounts/connect", { token, body: { label: "Seat" } })
      assert.strictEqual(created.status, 201, JSON.stringify(created.body))
      const accountId: string = created.body.account.id
      const signedIn = yield* call("POST", `/v1/accounts/${accountId}/native-auth`, { token, body: { username, password: "pw" } })
      assert.strictEqual(signedIn.body.status, "connected", JSON.stringify(signedIn.body))
      yield* TestClock.adjust(14 * DAY)
      yield* call("PATCH", `/v1/accounts/${accountId}`, { token, body: { mode: "autopilot", minInviteQuality: 0, workingHours: alwaysOpen } })
      const jobs = yield* Jobs
      const workspaceId = workspace.id
      const a = yield* jobs.create({ workspaceId, accountId, command: "send_message", input: message("a") })
      assert.strictEqual((yield* jobAfter(workspaceId, a.id)).status, "completed")
      const b = yield* jobs.create({ workspaceId, accountId, command: "send_message", input: message("b") })
      const c = yield* jobs.create({ workspaceId, accountId, command: "send_message", input: message("c") })
      yield* eventually("b to wait for its pacing gap", jobNow(workspaceId, b.id), (job) => job.waitingFor?.reason === "pacing", 20_000)
      // The dead process had kept `c`'s attempt; with `reached`, the provider had sent it too.
      const store = yield* Store.make
      const providerAccount = (yield* store.providerAccountOf(accountId)) ?? ""
      yield* store.begin({ key: c.id, accountId, command: "send_message", target: tomas.providerId, body: "c", startedAtMs: yield* Clock.currentTimeMillis })
      if (reached) {
        yield* Effect.promise(() =>
          new UnipileClient(double.dsn, apiKey).messaging.startNewChat({ account_id: providerAccount, attendees_ids: [tomas.providerId], text: "c" })
        )
      }
      const sql = yield* SqlClient.SqlClient
      const now = new Date(yield* Clock.currentTimeMillis).toISOString()
      yield* sql`UPDATE jobs SET status = 'running', started_at = ${now}::timestamptz,
                   attempt_started_at = ${now}::timestamptz WHERE id = ${c.id}`
      return { workspaceId, b: b.id, c: c.id }
    }).pipe(Effect.provideContext(firstContext))
    yield* Scope.close(first, Exit.void)

    yield* TestClock.adjust(PACING_MAX_MS + 180_000)
    const second = yield* Scope.make()
    const secondContext = yield* Layer.build(restartableServer(open(), driver)).pipe(Scope.provide(second))
    const c = yield* eventually("the write left in flight to be settled", jobNow(ids.workspaceId, ids.c), (job) => job.status !== "running", 20_000).pipe(
      Effect.provideContext(secondContext)
    )
    return { ids, c, second, secondContext }
  })

/** The job once it ends, moving the clock past pacing gaps. */
const ended = (workspaceId: string, id: string) => endedMovingClock(workspaceId, id, PACING_MAX_MS, 6)

describe("a live write in flight when the process dies", () => {
  it.effect("that reached the network: completed with what the network shows, not sent again", () =>
    Effect.gen(function*() {
      const { c, ids, second, secondContext } = yield* restartWithWriteInFlight("restart-reached@x.io", true)
      assert.strictEqual(c.status, "completed", JSON.stringify(c))
      assert.deepInclude(c.result, { text: "c", recipientProviderId: tomas.providerId })
      yield* Effect.gen(function*() {
        assert.strictEqual((yield* ended(ids.workspaceId, ids.b)).status, "completed")
      }).pipe(Effect.provideContext(secondContext))
      assert.deepStrictEqual(["a", "b", "c"].map((text) => sentTimes("restart-reached@x.io", text)), [1, 1, 1])
      yield* Scope.close(second, Exit.void)
    }), { timeout: 90_000 })

  it.effect("that never reached the network: run once after the restart", () =>
    Effect.gen(function*() {
      const { ids, second, secondContext } = yield* restartWithWriteInFlight("restart-lost@x.io", false)
      yield* Effect.gen(function*() {
        assert.strictEqual((yield* ended(ids.workspaceId, ids.b)).status, "completed")
        assert.strictEqual((yield* ended(ids.workspaceId, ids.c)).status, "completed")
      }).pipe(Effect.provideContext(secondContext))
      assert.deepStrictEqual(["a", "b", "c"].map((text) => sentTimes("restart-lost@x.io", text)), [1, 1, 1])
      assert.deepStrictEqual(double.violations, [])
      yield* Scope.close(second, Exit.void)
    }), { timeout: 90_000 })
})
