import { assert, it } from "@effect/vitest"
import { Clock, Effect, Exit, Layer, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { PACING_MAX_MS } from "../../src/domain/Job.ts"
import { Jobs } from "../../src/jobs/Jobs.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { restartableServer } from "../webhooks/support.ts"
import { jobAfter, jobNow, settle, workspaceWithAccount } from "./support.ts"

const post = (text: string) => ({ text })

it.effect("a restart in the middle of a queue loses no job and runs no write twice", () =>
  Effect.gen(function*() {
    const open = yield* TestDatabase.reopenable

    // First life: one write done, one waiting for its pacing gap, one "in flight" when the process dies.
    const first = yield* Scope.make()
    const firstContext = yield* Layer.build(restartableServer(open())).pipe(Scope.provide(first))
    const ids = yield* Effect.gen(function*() {
      const { workspaceId, accountId } = yield* workspaceWithAccount()
      const jobs = yield* Jobs
      const a = yield* jobs.create({ workspaceId, accountId, command: "create_post", input: post("a") })
      assert.strictEqual((yield* jobAfter(workspaceId, a.id)).status, "completed")
      const b = yield* jobs.create({ workspaceId, accountId, command: "create_post", input: post("b") })
      const c = yield* jobs.create({ workspaceId, accountId, command: "create_post", input: post("c") })
      yield* settle
      assert.strictEqual((yield* jobNow(workspaceId, b.id)).waitingFor?.reason, "pacing")
      // As if the process died while `c` was on the network: its attempt is recorded, nothing else.
      const sql = yield* SqlClient.SqlClient
      const now = new Date(yield* Clock.currentTimeMillis).toISOString()
      yield* sql`UPDATE jobs SET status = 'running', started_at = ${now}::timestamptz,
                   attempt_started_at = ${now}::timestamptz WHERE id = ${c.id}`
      return { workspaceId, a: a.id, b: b.id, c: c.id }
    }).pipe(Effect.provideContext(firstContext))
    yield* Scope.close(first, Exit.void)

    // Down for a while: the pacing gap passes and the in-flight attempt is clearly dead.
    yield* TestClock.adjust(PACING_MAX_MS + 180_000)
    const second = yield* Scope.make()
    const secondContext = yield* Layer.build(restartableServer(open())).pipe(Scope.provide(second))
    yield* Effect.gen(function*() {
      const b = yield* jobAfter(ids.workspaceId, ids.b, 10)
      assert.strictEqual(b.status, "completed", JSON.stringify(b))
      const c = yield* jobNow(ids.workspaceId, ids.c)
      assert.strictEqual(c.status, "failed", JSON.stringify(c))
      assert.strictEqual((c.error as { type: string }).type, "interrupted")
      const sql = yield* SqlClient.SqlClient
      const spent = yield* sql<{ jobId: string }>`SELECT job_id::text AS "jobId" FROM budget_spend ORDER BY spent_at`
      assert.deepStrictEqual(spent.map((row) => row.jobId), [ids.a, ids.b])
      const completed = yield* sql<{ id: string }>`SELECT id::text AS id FROM jobs WHERE status = 'completed' ORDER BY seq`
      assert.deepStrictEqual(completed.map((row) => row.id), [ids.a, ids.b])
    }).pipe(Effect.provideContext(secondContext))
    yield* Scope.close(second, Exit.void)
  }), { timeout: 60_000 })
