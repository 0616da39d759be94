import { assert, it } from "@effect/vitest"
import { Effect, Exit, Layer, Scope } from "effect"
import { TestClock } from "effect/testing"
import { DAY, nonAccepting, workspaceWithAccount } from "../jobs/support.ts"
import { call } from "../support/TestServer.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { restartableServer } from "../webhooks/support.ts"
import { startWorkflow, workflowUntil } from "./support.ts"

it.effect("a restart in the middle of a waiting workflow resumes it where it stopped, without repeating a step", () =>
  Effect.gen(function*() {
    const open = yield* TestDatabase.reopenable
    const first = yield* Scope.make()
    const firstContext = yield* Layer.build(restartableServer(open())).pipe(Scope.provide(first))
    const { id, token } = yield* Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount()
      const person = nonAccepting(accountId, "workflow-restart")
      const started = yield* startWorkflow(token, {
        account: accountId,
        person,
        steps: [
          { type: "command", command: "connect" },
          {
            type: "waitFor",
            condition: { type: "accepted" },
            timeoutSeconds: 5 * 86_400,
            then: [{ type: "command", command: "send_message", input: { text: "Thanks!" } }],
            else: [{ type: "command", command: "withdraw_invite" }]
          }
        ]
      })
      yield* workflowUntil(token, started.id, (w) => w.status === "waiting" && w.step?.startsWith("1:"))
      return { id: started.id as string, token }
    }).pipe(Effect.provideContext(firstContext))
    yield* Scope.close(first, Exit.void)

    // Two days pass while the service is down.
    yield* TestClock.adjust(2 * DAY)
    const second = yield* Scope.make()
    const secondContext = yield* Layer.build(restartableServer(open())).pipe(Scope.provide(second))
    yield* Effect.gen(function*() {
      const resumed = yield* workflowUntil(token, id, (w) => w.status === "waiting")
      assert.deepStrictEqual(resumed.jobs.map((job: any) => job.kind), ["connect"])
      yield* TestClock.adjust(3 * DAY + 60_000)
      const done = yield* workflowUntil(token, id, (w) => w.status === "completed", { movePacing: true })
      assert.deepStrictEqual(done.jobs.map((job: any) => `${job.kind}:${job.status}`), [
        "connect:completed",
        "withdraw_invite:completed"
      ])
      // The account's jobs: one connect, one withdrawal; nothing ran twice.
      const jobs = yield* call("GET", "/v1/jobs", { token })
      assert.deepStrictEqual(jobs.body.jobs.map((job: any) => job.kind).sort(), ["connect", "withdraw_invite"])
    }).pipe(Effect.provideContext(secondContext))
    yield* Scope.close(second, Exit.void)
  }), { timeout: 90_000 })
