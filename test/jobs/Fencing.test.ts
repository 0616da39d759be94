/**
 * Fenced write attempts in the job store (issue #29): an account's owner epoch
 * only grows, and a claim, an attempt's record, an ending or a requeue made
 * under an older epoch is refused once a newer owner took the account.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as App from "../../src/App.ts"
import { Accounts } from "../../src/accounts/Accounts.ts"
import { JobEndings } from "../../src/jobs/Endings.ts"
import { JobStore } from "../../src/jobs/JobStore.ts"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import * as ServiceClock from "../../src/platform/ServiceClock.ts"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import * as TestDatabase from "../support/TestDatabase.ts"

const core = App.core.pipe(
  Layer.provideMerge(ServiceClock.layer),
  Layer.provideMerge(TestDatabase.layer),
  Layer.provideMerge(AppConfig.layerWith({ inboxSync: false }))
)

/** A write of a new account, straight in the store (no owner is told of it). */
const aWrite = Effect.gen(function*() {
  const { workspace } = yield* (yield* Workspaces).create({ name: "Fenced" })
  const { account } = yield* (yield* Accounts).connect({ workspaceId: workspace.id, baseUrl: "http://127.0.0.1" })
  const store = yield* JobStore
  const job = yield* store.create({
    workspaceId: workspace.id,
    accountId: account.id,
    kind: "create_post",
    isWrite: true,
    input: { text: "Fenced." },
    origin: "api",
    approval: null
  })
  return { store, job, accountId: account.id }
}).pipe(Effect.orDie)

const completed = { _tag: "Completed", result: {}, spend: null, writesNotBefore: null } as const

layer(core)(`fenced attempts in the job store (${TestDatabase.backend})`, (it) => {
  it.effect("the owner epoch only grows, and a write is claimed only under the current one", () =>
    Effect.gen(function*() {
      const { accountId, job, store } = yield* aWrite
      const first = yield* store.takeAccount(accountId, "runner-a")
      const second = yield* store.takeAccount(accountId, "runner-b")
      assert.isAbove(second, first)
      assert.isFalse(yield* store.claim(job, first), "an older owner's claim is refused")
      assert.isFalse(yield* store.claim(job, null), "a write's claim carries a token")
      assert.isTrue(yield* store.claim(job, second))
      const running = yield* store.byId(job.id)
      assert.strictEqual(running?.status, "running")
      assert.strictEqual(running?.fence, second)
      assert.strictEqual(running?.attempt, 0)
    }))

  it.effect("an attempt is recorded under its owner's token, once, and refused once a newer owner exists", () =>
    Effect.gen(function*() {
      const { accountId, job, store } = yield* aWrite
      const epoch = yield* store.takeAccount(accountId, "runner-a")
      assert.isTrue(yield* store.claim(job, epoch))
      assert.isTrue(yield* store.recordAttempt(job, epoch, 1))
      // Run again after a lost answer: the same record answers true, and counts once.
      assert.isTrue(yield* store.recordAttempt(job, epoch, 1))
      assert.strictEqual((yield* store.byId(job.id))?.attempt, 1)
      yield* store.takeAccount(accountId, "runner-b")
      assert.isFalse(yield* store.recordAttempt(job, epoch, 2), "a newer owner exists")
      assert.strictEqual((yield* store.byId(job.id))?.attempt, 1)
    }))

  it.effect("an ending or a requeue under another attempt's fence changes nothing", () =>
    Effect.gen(function*() {
      const { accountId, job, store } = yield* aWrite
      const old = yield* store.takeAccount(accountId, "runner-a")
      assert.isTrue(yield* store.claim(job, old))
      const claimed = yield* store.byId(job.id)
      if (claimed === undefined) return assert.fail("the job")
      // A successor settles the job (it had not reached the network) and runs it again under its own epoch.
      const successor = yield* store.takeAccount(accountId, "runner-b")
      yield* store.requeue(job.id, successor)
      assert.strictEqual((yield* store.byId(job.id))?.status, "running", "a requeue guarded by another fence")
      yield* store.requeue(job.id, claimed.fence)
      assert.strictEqual((yield* store.byId(job.id))?.status, "queued")
      assert.isTrue(yield* store.claim(job, successor))
      // The old owner wakes and records its ending: refused.
      assert.isUndefined(yield* (yield* JobEndings).finish(claimed, completed, ["running"], old))
      assert.strictEqual((yield* store.byId(job.id))?.status, "running")
      assert.strictEqual((yield* (yield* JobEndings).finish(claimed, completed, ["running"], successor))?.status, "completed")
    }))
})
