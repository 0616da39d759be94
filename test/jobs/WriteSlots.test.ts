/**
 * A runner runs at most `writeConcurrency` writes at once over all its
 * accounts (each account one at a time): the others wait for a slot, and
 * each goes out once one frees.
 */
import { assert, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Layer, Scope } from "effect"
import { Governor } from "../../src/jobs/Governor.ts"
import { GovernorSettings } from "../../src/jobs/GovernorSettings.ts"
import { Jobs } from "../../src/jobs/Jobs.ts"
import { eventually } from "../support/Eventually.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { restartableServer } from "../webhooks/support.ts"
import { gatedWrites, jobWhen, workspaceWithAccount } from "./support.ts"

it.effect("three accounts' writes with two write slots: two at a time, the third once one frees", () =>
  Effect.gen(function*() {
    const gate = yield* Deferred.make<void>()
    const writes = { inFlight: 0, most: 0 }
    const gated = gatedWrites(gate, writes)
    const twoSlots = Layer.succeed(GovernorSettings, { ...GovernorSettings.defaultValue(), writeConcurrency: 2 })
    const open = yield* TestDatabase.reopenable
    const scope = yield* Scope.make()
    const server = yield* Layer.build(restartableServer(open(), gated).pipe(Layer.provide(twoSlots))).pipe(Scope.provide(scope))
    yield* Effect.gen(function*() {
      const jobs = yield* Jobs
      const governor = yield* Governor
      const created = yield* Effect.forEach([1, 2, 3], (n) =>
        Effect.gen(function*() {
          const { workspaceId, accountId } = yield* workspaceWithAccount()
          return { workspaceId, job: yield* jobs.create({ workspaceId, accountId, command: "create_post", input: { text: `post ${n}` } }) }
        }))
      // Two writes at the gate, and the third waiting for a slot.
      yield* eventually(
        "two writes in flight and one waiting for a slot",
        Effect.map(governor.writesWaiting, (waiting) => ({ waiting, inFlight: writes.inFlight })),
        ({ inFlight, waiting }) => inFlight === 2 && waiting === 1,
        20_000
      )
      yield* Deferred.succeed(gate, undefined)
      for (const { job, workspaceId } of created) yield* jobWhen(workspaceId, job.id, (done) => done.status === "completed")
      assert.strictEqual(writes.most, 2)
      assert.strictEqual(yield* governor.writesWaiting, 0)
    }).pipe(Effect.provideContext(server))
    yield* Scope.close(scope, Exit.void)
  }), { timeout: 60_000 })
