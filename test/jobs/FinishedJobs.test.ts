/**
 * `GET /v1/jobs/{id}` answers a finished job from memory (`jobs/FinishedJobs.ts`). That is exact only
 * because a finished job's row never changes: every statement of `JobStore` that changes a job is
 * tried here on a finished one and must leave it as it was (each is guarded by the open statuses it
 * moves from); and an open job is read afresh each time.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as App from "../../src/App.ts"
import { Accounts } from "../../src/accounts/Accounts.ts"
import { Missing } from "../../src/domain/Failures.ts"
import { isFinished, jobStatuses } from "../../src/domain/Job.ts"
import * as FinishedJobs from "../../src/jobs/FinishedJobs.ts"
import { Jobs } from "../../src/jobs/Jobs.ts"
import type { JobRecord } from "../../src/jobs/JobRow.ts"
import { JobEndings } from "../../src/jobs/Endings.ts"
import { JobStore } from "../../src/jobs/JobStore.ts"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import * as ServiceClock from "../../src/platform/ServiceClock.ts"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import * as TestDatabase from "../support/TestDatabase.ts"

const connect = { command: "connect", input: { person: "maria-garcia", note: "Hello" } } as const
const failure = { type: "cancelled", message: "tried on a finished job", next: "none" } as const

const record = (id: string, status: JobRecord["status"]): JobRecord => ({
  id,
  accountId: "a",
  kind: "ssi",
  status,
  input: {},
  result: null,
  error: null,
  eta: null,
  waitingFor: null,
  approvalId: null,
  createdAt: "2026-11-26T00:00:00.000Z",
  startedAt: null,
  finishedAt: null
})

describe("FinishedJobs", () => {
  it("keeps finished jobs only, for their own workspace, the oldest going first", () => {
    const finished = FinishedJobs.make(2)
    finished.keep("w", record("queued", "queued"))
    finished.keep("w", record("running", "running"))
    assert.isUndefined(finished.get("w", "queued"))
    assert.isUndefined(finished.get("w", "running"))
    finished.keep("w", record("first", "completed"))
    assert.strictEqual(finished.get("w", "first")?.status, "completed")
    assert.isUndefined(finished.get("other", "first"))
    finished.keep("w", record("second", "failed"))
    finished.keep("w", record("third", "cancelled"))
    assert.isUndefined(finished.get("w", "first"))
    assert.strictEqual(finished.get("w", "second")?.status, "failed")
    assert.strictEqual(finished.get("w", "third")?.status, "cancelled")
  })
})

const core = App.core.pipe(
  Layer.provideMerge(ServiceClock.layer),
  Layer.provideMerge(TestDatabase.layer),
  Layer.provideMerge(AppConfig.layerWith({ inboxSync: false }))
)

const fixture = Effect.gen(function*() {
  const workspaces = yield* Workspaces
  const { workspace } = yield* workspaces.create({ name: "Finished" })
  const other = yield* workspaces.create({ name: "Elsewhere" })
  const { account } = yield* (yield* Accounts).connect({ workspaceId: workspace.id, baseUrl: "http://127.0.0.1" })
  return { workspaceId: workspace.id, accountId: account.id, otherWorkspaceId: other.workspace.id }
}).pipe(Effect.orDie)

layer(core)(`a finished job (${TestDatabase.backend})`, (it) => {
  it.effect("no statement of JobStore or JobEndings changes it", () =>
    Effect.gen(function*() {
      const { workspaceId, accountId } = yield* fixture
      const jobs = yield* Jobs
      const store = yield* JobStore
      const endings = yield* JobEndings
      const created = yield* jobs.create({ workspaceId, accountId, ...connect })
      yield* jobs.cancel(workspaceId, created.id)
      const before = yield* store.byId(created.id)
      assert.strictEqual(before?.status, "cancelled")
      if (before === undefined) return
      yield* store.setWaiting(created.id, "pacing", null)
      yield* store.setWaiting(created.id, "pacing", Date.parse("2100-01-01T00:00:00Z"))
      assert.isFalse(yield* store.claim(before, null))
      // Callers finish a job from the open statuses it may be in, never from a finished one.
      for (const status of jobStatuses.filter((status) => !isFinished(status))) {
        assert.isUndefined(yield* endings.finish(before, { _tag: "Completed", result: {}, spend: null, writesNotBefore: null }, [status]))
        assert.isUndefined(yield* endings.finish(before, { _tag: "Failed", error: failure, writesNotBefore: null }, [status]))
      }
      assert.isUndefined(yield* endings.cancel(workspaceId, created.id, failure))
      assert.deepStrictEqual(yield* endings.cancelOpenOf(accountId, failure), [])
      yield* store.requeue(created.id)
      yield* store.release(created.id, connect.input)
      assert.deepStrictEqual(yield* store.byId(created.id), before)
    }))

  it.effect("is read as it is at each read while open, then kept for its own workspace only", () =>
    Effect.gen(function*() {
      const { workspaceId, accountId, otherWorkspaceId } = yield* fixture
      const jobs = yield* Jobs
      const created = yield* jobs.create({ workspaceId, accountId, ...connect })
      assert.strictEqual((yield* jobs.get(workspaceId, created.id)).status, "awaiting_approval")
      assert.strictEqual((yield* jobs.get(workspaceId, created.id)).status, "awaiting_approval")
      const cancelled = yield* jobs.cancel(workspaceId, created.id)
      assert.deepStrictEqual(yield* jobs.get(workspaceId, created.id), cancelled)
      assert.deepStrictEqual(yield* jobs.get(workspaceId, created.id), cancelled)
      assert.instanceOf(yield* Effect.flip(jobs.get(otherWorkspaceId, created.id)), Missing)
    }))
})
