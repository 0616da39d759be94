/**
 * A restart in the middle of an account's queue: no job is lost, and a write
 * left in flight by the dead process is settled by asking the network whether
 * it happened: completed with its result if it did, run again if it surely did
 * not, failed `interrupted` only when the driver cannot tell. Never sent twice.
 */
import { assert, describe, it } from "@effect/vitest"
import { Clock, Effect, Exit, Layer, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { PACING_MAX_MS } from "../../src/domain/Job.ts"
import { Jobs } from "../../src/jobs/Jobs.ts"
import { NetworkDriver } from "../../src/network/NetworkDriver.ts"
import * as SandboxDriver from "../../src/sandbox/SandboxDriver.ts"
import { eventually } from "../support/Eventually.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { restartableServer } from "../webhooks/support.ts"
import { endedMovingClock, jobAfter, jobNow, workspaceWithAccount } from "./support.ts"

const post = (text: string) => ({ text })

/** A reaction to a post the network does not have: it refuses it (`notFound`). */
const missingPostReaction = { post: "urn:li:activity:9528731723694092345", reaction: "like" as const }

/** How many attempts of a job reached the network (stale ones, refused before anything, left out). */
const attemptsOf = (key: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(sql<{ n: number }>`SELECT count(*)::int AS n FROM sandbox_writes WHERE key = ${key} AND NOT refused`, (rows) => rows[0].n))

/** The sandbox as a driver that cannot tell whether a write happened (no `outcomeOf`). */
const forgetfulSandbox = Layer.effect(
  NetworkDriver,
  Effect.gen(function*() {
    const { outcomeOf: _, ...rest } = yield* NetworkDriver
    return NetworkDriver.of(rest)
  })
).pipe(Layer.provide(SandboxDriver.layer))

/**
 * First life: `a` done, `b` waiting for its pacing gap (unless `alone`), `c` in flight when the
 * process dies (its attempt recorded; with `reached`, its post already on the network). Then down
 * long enough for the attempt to be clearly dead, and a second life on `driver`.
 */
const restartWithWriteInFlight = (options: {
  readonly reached: boolean
  readonly driver: Layer.Layer<NetworkDriver, never, SqlClient.SqlClient>
  /** `c` is the account's only open work: nothing queued wakes its actor once the lease rule lets it settle `c`. */
  readonly alone?: boolean
  /** `c` is a reaction to a post that does not exist: it reached the network, which refused it by its rules. */
  readonly refused?: boolean
}) =>
  Effect.gen(function*() {
    const open = yield* TestDatabase.reopenable
    const first = yield* Scope.make()
    const firstContext = yield* Layer.build(restartableServer(open(), options.driver)).pipe(Scope.provide(first))
    const ids = yield* Effect.gen(function*() {
      const { workspaceId, accountId } = yield* workspaceWithAccount()
      const jobs = yield* Jobs
      const a = yield* jobs.create({ workspaceId, accountId, command: "create_post", input: post("a") })
      assert.strictEqual((yield* jobAfter(workspaceId, a.id)).status, "completed")
      const b = options.alone === true
        ? undefined
        : yield* jobs.create({ workspaceId, accountId, command: "create_post", input: post("b") })
      const c = options.refused === true
        ? yield* jobs.create({ workspaceId, accountId, command: "react", input: missingPostReaction })
        : yield* jobs.create({ workspaceId, accountId, command: "create_post", input: post("c") })
      const next = b ?? c
      yield* eventually("the next write to wait for its pacing gap", jobNow(workspaceId, next.id), (job) => job.waitingFor?.reason === "pacing", 20_000)
      const sql = yield* SqlClient.SqlClient
      // Sent as this life's owner of the account (its epoch, taken for `a`).
      const [owner] = yield* sql<{ epoch: string }>`SELECT epoch FROM account_fences WHERE account_id = ${accountId}`
      const attempt = { key: c.id, fence: Number(owner.epoch) }
      if (options.refused === true) yield* Effect.flip((yield* NetworkDriver).write(accountId, "react", missingPostReaction, attempt))
      const sent = options.reached && options.refused !== true
        ? yield* (yield* NetworkDriver).write(accountId, "create_post", post("c"), attempt)
        : undefined
      const now = new Date(yield* Clock.currentTimeMillis).toISOString()
      yield* sql`UPDATE jobs SET status = 'running', started_at = ${now}::timestamptz,
                   attempt_started_at = ${now}::timestamptz WHERE id = ${c.id}`
      return { workspaceId, a: a.id, b: b?.id ?? "", c: c.id, sentPostId: sent?.post.id }
    }).pipe(Effect.provideContext(firstContext))
    yield* Scope.close(first, Exit.void)

    yield* TestClock.adjust(PACING_MAX_MS + 180_000)
    const second = yield* Scope.make()
    const secondContext = yield* Layer.build(restartableServer(open(), options.driver)).pipe(Scope.provide(second))
    // The new process takes the account over once it holds its shard, and settles `c` first thing.
    yield* eventually("the write left in flight to be settled", jobNow(ids.workspaceId, ids.c), (job) => job.status !== "running", 20_000).pipe(
      Effect.provideContext(secondContext)
    )
    return { ids, second, secondContext }
  })

/** The job once it ended, moving the clock a day at a time past the budget it may wait for (a post a day while warming). */
const completedEventually = (workspaceId: string, id: string) => endedMovingClock(workspaceId, id, 86_400_000, 4)

/** How many times the network saw a post with this text. */
const postsWithText = (text: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ n: number }>`
      SELECT count(*)::int AS n FROM sandbox_actions WHERE kind = 'create_post' AND detail->>'text' = ${text}`
    return rows[0].n
  })

const spentBy = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const spent = yield* sql<{ jobId: string }>`SELECT job_id::text AS "jobId" FROM budget_spend ORDER BY spent_at, job_id`
  return spent.map((row) => row.jobId)
})

describe("a restart with a write in flight", () => {
  it.effect("that never reached the network: it runs once, after the restart", () =>
    Effect.gen(function*() {
      const { ids, second, secondContext } = yield* restartWithWriteInFlight({ reached: false, driver: SandboxDriver.layer })
      yield* Effect.gen(function*() {
        assert.strictEqual((yield* completedEventually(ids.workspaceId, ids.b)).status, "completed")
        const c = yield* completedEventually(ids.workspaceId, ids.c)
        assert.strictEqual(c.status, "completed", JSON.stringify(c))
        assert.strictEqual(yield* postsWithText("c"), 1)
        assert.sameMembers([...(yield* spentBy)], [ids.a, ids.b, ids.c])
      }).pipe(Effect.provideContext(secondContext))
      yield* Scope.close(second, Exit.void)
    }), { timeout: 60_000 })

  it.effect("that reached the network: it completes with what the network did, and is not sent again", () =>
    Effect.gen(function*() {
      const { ids, second, secondContext } = yield* restartWithWriteInFlight({ reached: true, driver: SandboxDriver.layer })
      yield* Effect.gen(function*() {
        const c = yield* jobNow(ids.workspaceId, ids.c)
        assert.strictEqual(c.status, "completed", JSON.stringify(c))
        assert.isDefined(ids.sentPostId)
        assert.include(JSON.stringify(c.result), `"id":"${ids.sentPostId}"`)
        assert.strictEqual((yield* completedEventually(ids.workspaceId, ids.b)).status, "completed")
        assert.strictEqual(yield* postsWithText("c"), 1)
        assert.sameMembers([...(yield* spentBy)], [ids.a, ids.b, ids.c])
      }).pipe(Effect.provideContext(secondContext))
      yield* Scope.close(second, Exit.void)
    }), { timeout: 60_000 })

  it.effect("that is the account's only open work: settled once the lease rule allows, with nothing queued to wake it", () =>
    Effect.gen(function*() {
      const { ids, second, secondContext } = yield* restartWithWriteInFlight({ reached: true, driver: SandboxDriver.layer, alone: true })
      yield* Effect.gen(function*() {
        const c = yield* jobNow(ids.workspaceId, ids.c)
        assert.strictEqual(c.status, "completed", JSON.stringify(c))
        assert.strictEqual(yield* postsWithText("c"), 1)
      }).pipe(Effect.provideContext(secondContext))
      yield* Scope.close(second, Exit.void)
    }), { timeout: 60_000 })

  it.effect("that the network refused by its rules: it fails with the network's error and is not sent again", () =>
    Effect.gen(function*() {
      const { ids, second, secondContext } = yield* restartWithWriteInFlight({ reached: true, driver: SandboxDriver.layer, refused: true })
      yield* Effect.gen(function*() {
        const c = yield* jobNow(ids.workspaceId, ids.c)
        assert.strictEqual(c.status, "failed", JSON.stringify(c))
        assert.propertyVal(c.error, "type", "notFound")
        assert.strictEqual(yield* attemptsOf(ids.c), 1)
      }).pipe(Effect.provideContext(secondContext))
      yield* Scope.close(second, Exit.void)
    }), { timeout: 60_000 })

  it.effect("on a driver that cannot tell: it fails `interrupted` and is never tried again", () =>
    Effect.gen(function*() {
      const { ids, second, secondContext } = yield* restartWithWriteInFlight({ reached: true, driver: forgetfulSandbox })
      yield* Effect.gen(function*() {
        assert.strictEqual((yield* jobAfter(ids.workspaceId, ids.b, 10)).status, "completed")
        const c = yield* jobNow(ids.workspaceId, ids.c)
        assert.strictEqual(c.status, "failed", JSON.stringify(c))
        assert.propertyVal(c.error, "type", "interrupted")
        assert.strictEqual(yield* postsWithText("c"), 1)
        assert.sameMembers([...(yield* spentBy)], [ids.a, ids.b])
      }).pipe(Effect.provideContext(secondContext))
      yield* Scope.close(second, Exit.void)
    }), { timeout: 60_000 })
})
