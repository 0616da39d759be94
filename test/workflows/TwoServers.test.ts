import { assert, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { strangers, workspaceWithAccount } from "../jobs/support.ts"
import { freePort, serverOn } from "../support/Runners.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { startWorkflow, workflowUntil } from "./support.ts"

it.effect.skipIf(TestDatabase.backend !== "postgresql")("two servers on one database run workflows started on either", () =>
  Effect.gen(function*() {
    const open = yield* TestDatabase.reopenable
    const a = yield* Layer.build(serverOn(open(), yield* freePort))
    const b = yield* Layer.build(serverOn(open(), yield* freePort))
    const { token, accountId } = yield* workspaceWithAccount().pipe(Effect.provideContext(a))
    const people = strangers(accountId, 4, "two-servers")
    const steps = [{ type: "command", command: "get_profile" }, { type: "wait", seconds: 60 }, { type: "command", command: "get_profile" }]
    const ids: Array<[string, typeof a]> = []
    for (const [i, person] of people.entries()) {
      const context = i % 2 === 0 ? a : b
      const started = yield* startWorkflow(token, { account: accountId, person, steps }).pipe(Effect.provideContext(context))
      ids.push([started.id, context])
    }
    for (const [id, context] of ids) {
      const done = yield* workflowUntil(token, id, (w) => w.status === "completed", { movePacing: true }).pipe(
        Effect.provideContext(context)
      )
      assert.strictEqual(done.jobs.length, 2)
    }
  }).pipe(Effect.scoped), { timeout: 120_000 })
