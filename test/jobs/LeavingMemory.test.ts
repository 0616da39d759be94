/**
 * Accounts whose writes wait for an instant leave memory, and their durable
 * wake-up (the wait's end recorded on their jobs) brings them back at that
 * instant: on the runner that owns them then, through a restart, and never
 * early through a takeover (issue #36).
 */
import { assert, describe, it } from "@effect/vitest"
import { Clock, Deferred, Duration, Effect, Exit, Layer, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { Governor } from "../../src/jobs/Governor.ts"
import { GovernorSettings } from "../../src/jobs/GovernorSettings.ts"
import { Jobs } from "../../src/jobs/Jobs.ts"
import { JobStore } from "../../src/jobs/JobStore.ts"
import * as SandboxDriver from "../../src/sandbox/SandboxDriver.ts"
import { eventually } from "../support/Eventually.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { restartableServer } from "../webhooks/support.ts"
import { alwaysOpen, DAY, gatedWrites, jobNow, jobWhen, workspaceWithAccount } from "./support.ts"

const HOUR = 3_600_000
/** Accounts leave memory 5-10 s (real time) after they went idle. */
const quickToLeave = { accountIdleTime: Duration.seconds(5) }
/** The keep-alives the cluster holds (persisted) that no entity answered yet. */
const keepAlivesOpen = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ n: number }>`SELECT count(*)::int AS n FROM cluster_messages WHERE tag = 'Cluster/Entity/keepAlive' AND NOT processed`).pipe(
    Effect.map((rows) => rows[0]?.n ?? 0),
    Effect.orDie
  )
const nineToFive = { days: [1, 2, 3, 4, 5, 6, 7], from: "09:00", to: "17:00", timezone: "UTC" }

/**
 * An account open 09:00-17:00 UTC, the clock moved to 00:30 UTC, and two posts created: the first waits for
 * 09:00, the second behind it. Answers the ids and the opening.
 */
const postsWaitingForNine = Effect.gen(function*() {
  const { workspaceId, accountId } = yield* workspaceWithAccount({ workingHours: nineToFive })
  const now = yield* Clock.currentTimeMillis
  const halfPastMidnight = Math.ceil(now / DAY) * DAY + HOUR / 2
  yield* TestClock.adjust(halfPastMidnight - now)
  const jobs = yield* Jobs
  const first = yield* jobs.create({ workspaceId, accountId, command: "create_post", input: { text: "at nine" } })
  const second = yield* jobs.create({ workspaceId, accountId, command: "create_post", input: { text: "after it" } })
  const opening = halfPastMidnight + 8.5 * HOUR
  const waiting = yield* jobWhen(workspaceId, first.id, (job) => job.waitingFor?.reason === "working_hours")
  assert.strictEqual(waiting.eta, new Date(opening).toISOString())
  return { workspaceId, accountId, first: first.id, second: second.id, opening }
})

/** Moves the clock to `at` and waits (real time) until the job has run. */
const runsAt = (workspaceId: string, id: string, at: number) =>
  Effect.gen(function*() {
    yield* TestClock.adjust(at - (yield* Clock.currentTimeMillis))
    const done = yield* eventually(`job ${id} to complete`, jobNow(workspaceId, id), (job) => job.status === "completed", 30_000)
    assert.isAtLeast(Date.parse(done.startedAt ?? ""), at)
  })

/**
 * Runs `body` in one life of the service (a process, from start to stop) on the database `open` gives, on the
 * sandbox network or `driver`, with the Governor's default settings or `settings`.
 */
const inALife = <A, E>(
  open: Effect.Success<typeof TestDatabase.reopenable>,
  body: Effect.Effect<A, E, Layer.Success<ReturnType<typeof restartableServer>>>,
  driver: Parameters<typeof restartableServer>[1] = SandboxDriver.layer,
  settings: Partial<GovernorSettings> = {}
) =>
  Effect.gen(function*() {
    const scope = yield* Scope.make()
    const tuned = Layer.succeed(GovernorSettings, { ...GovernorSettings.defaultValue(), ...settings })
    const life = yield* Layer.build(restartableServer(open(), driver, quickToLeave).pipe(Layer.provide(tuned))).pipe(
      Scope.provide(scope)
    )
    return yield* body.pipe(Effect.provideContext(life), Effect.ensuring(Scope.close(scope, Exit.void)))
  })

describe("an account whose writes wait for an instant", () => {
  it.effect("leaves memory, the writes behind its head shown waiting behind it, and its wake-up brings it back", () =>
    Effect.gen(function*() {
      const open = yield* TestDatabase.reopenable
      yield* inALife(
        open,
        Effect.gen(function*() {
          const { workspaceId, accountId, first, second, opening } = yield* postsWaitingForNine
          const governor = yield* Governor
          yield* eventually("the account to leave memory", governor.resident(accountId), (resident) => !resident, 30_000)
          // The write behind the head is not "never looked at": nothing wakes the account before 09:00.
          assert.deepStrictEqual((yield* jobNow(workspaceId, second)).waitingFor, { reason: "queue", until: null })
          const store = yield* JobStore
          assert.notInclude((yield* store.unlooked(1_000)).map((job) => job.id), second)
          assert.notInclude(yield* store.dueAccounts(yield* Clock.currentTimeMillis), accountId)
          assert.notInclude(yield* store.wakeUpsDue(yield* Clock.currentTimeMillis, 1_000), accountId)
          assert.include(yield* store.wakeUpsDue(opening, 1_000), accountId)
          assert.isFalse(yield* governor.resident(accountId))

          yield* runsAt(workspaceId, first, opening)
          // The account goes on: the write behind waits for its pacing gap.
          yield* jobWhen(workspaceId, second, (job) => job.waitingFor?.reason === "pacing")
        })
      )
    }), { timeout: 120_000 })

  it.effect("is taken over at once when the write ahead ended and its owner died before it looked again", () =>
    Effect.gen(function*() {
      const open = yield* TestDatabase.reopenable
      const ids = yield* inALife(
        open,
        Effect.gen(function*() {
          const ids = yield* postsWaitingForNine
          const governor = yield* Governor
          yield* eventually("the account to leave memory", governor.resident(ids.accountId), (resident) => !resident, 30_000)
          // The first post ends (cancelled, say) as its owner dies: only the one shown behind it is left.
          const sql = yield* SqlClient.SqlClient
          yield* sql`UPDATE jobs SET status = 'cancelled', finished_at = now() WHERE id = ${ids.first}`.pipe(Effect.orDie)
          // What a takeover looks for: the post left waits behind nothing.
          assert.include(yield* (yield* JobStore).dueAccounts(yield* Clock.currentTimeMillis), ids.accountId)
          return ids
        })
      )
      // The next life's takeover brings the account back: it looks at the post, which waits for 09:00 itself.
      yield* inALife(open, jobWhen(ids.workspaceId, ids.second, (job) => job.waitingFor?.reason === "working_hours"))
    }), { timeout: 120_000 })

  it.effect("is woken at its instant after a restart, which does not bring it back any sooner", () =>
    Effect.gen(function*() {
      const open = yield* TestDatabase.reopenable
      const ids = yield* inALife(open, postsWaitingForNine)
      yield* inALife(
        open,
        Effect.gen(function*() {
          // The new life's takeover looks for accounts with work due now: this one's waits for 09:00.
          const store = yield* JobStore
          assert.notInclude(yield* store.dueAccounts(yield* Clock.currentTimeMillis), ids.accountId)
          // Nothing tells the new life about the account: its wake-up alone brings it back at 09:00.
          yield* runsAt(ids.workspaceId, ids.first, ids.opening)
        })
      )
    }), { timeout: 120_000 })

  it.effect("leaves memory after a restart that found its keep-alive, once it has nothing to do", () =>
    Effect.gen(function*() {
      const open = yield* TestDatabase.reopenable
      // A pacing gap shorter than this keeps the account in memory: a keep-alive, a message the cluster persists.
      const keptThroughPacing = { leaveMemoryAfter: Duration.hours(1) }
      const ids = yield* inALife(
        open,
        Effect.gen(function*() {
          const { workspaceId, accountId } = yield* workspaceWithAccount({ workingHours: alwaysOpen })
          const jobs = yield* Jobs
          const first = yield* jobs.create({ workspaceId, accountId, command: "create_post", input: { text: "first" } })
          const second = yield* jobs.create({ workspaceId, accountId, command: "create_post", input: { text: "second" } })
          yield* jobWhen(workspaceId, first.id, (job) => job.status === "completed")
          yield* jobWhen(workspaceId, second.id, (job) => job.waitingFor?.reason === "pacing")
          assert.isTrue(yield* (yield* Governor).resident(accountId))
          return { workspaceId, accountId, second: second.id }
        }),
        SandboxDriver.layer,
        keptThroughPacing
      )
      // The life ended with the account kept: its keep-alive is still to be answered, and the next life gets it.
      yield* Effect.gen(function*() {
        assert.isAtLeast(yield* keepAlivesOpen, 1)
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE jobs SET status = 'cancelled', finished_at = now() WHERE id = ${ids.second}`.pipe(Effect.orDie)
      }).pipe(Effect.provide(open()))
      yield* inALife(
        open,
        Effect.gen(function*() {
          const governor = yield* Governor
          // The keep-alive brings the account back with nothing to do: it answers it and leaves, not held for ever.
          yield* eventually(
            "the keep-alive answered and the account out of memory",
            Effect.zip(keepAlivesOpen, governor.resident(ids.accountId)),
            ([open, resident]) => open === 0 && !resident,
            30_000
          )
        }),
        SandboxDriver.layer,
        keptThroughPacing
      )
    }), { timeout: 120_000 })

  it.effect("is not woken while the runner's writes wait for a slot, nor when its work reads as unlooked, and is once they went out", () =>
    Effect.gen(function*() {
      const open = yield* TestDatabase.reopenable
      const gate = yield* Deferred.make<void>()
      const writes = { inFlight: 0, most: 0 }
      yield* inALife(
        open,
        Effect.gen(function*() {
          // Two other accounts, connected first: connecting one moves the clock past its warm-up.
          const others = yield* Effect.forEach([1, 2], () => workspaceWithAccount({ workingHours: alwaysOpen }))
          const { workspaceId, accountId, first, opening } = yield* postsWaitingForNine
          const governor = yield* Governor
          yield* eventually("the account to leave memory", governor.resident(accountId), (resident) => !resident, 30_000)
          // The others' posts: one holds the one write slot at the gate, the other waits for the slot.
          const jobs = yield* Jobs
          const busy = yield* Effect.forEach(others, (other, n) =>
            Effect.map(
              jobs.create({ workspaceId: other.workspaceId, accountId: other.accountId, command: "create_post", input: { text: `busy ${n}` } }),
              (job) => ({ workspaceId: other.workspaceId, id: job.id })
            ))
          yield* eventually(
            "one write in flight and one waiting for the slot",
            Effect.map(governor.writesWaiting, (waiting) => ({ waiting, inFlight: writes.inFlight })),
            ({ inFlight, waiting }) => inFlight === 1 && waiting === 1,
            30_000
          )
          // 09:00: the account's wake-up is due, but a write already waits for the slot: it stays out of memory
          // (the takeover looks each second).
          yield* TestClock.adjust(opening - (yield* Clock.currentTimeMillis))
          assert.include(yield* (yield* JobStore).wakeUpsDue(opening, 1_000), accountId)
          // Nor when its post reads as no actor looked at it (its message lost): the sweep for lost messages
          // (every half second here) hands it to the takeover, which holds it back too.
          const sql = yield* SqlClient.SqlClient
          yield* sql`UPDATE jobs SET status = 'queued', waiting_reason = NULL WHERE id = ${first}`
          assert.include((yield* (yield* JobStore).unlooked(1_000)).map((job) => job.id), first)
          yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 3_000)))
          assert.isFalse(yield* governor.resident(accountId))
          // Once the writes went out, the wake-up brings it back and its post goes out.
          yield* Deferred.succeed(gate, undefined)
          for (const job of busy) yield* jobWhen(job.workspaceId, job.id, (done) => done.status === "completed")
          const done = yield* eventually(`job ${first} to complete`, jobNow(workspaceId, first), (job) => job.status === "completed", 30_000)
          assert.isAtLeast(Date.parse(done.startedAt ?? ""), opening)
        }),
        gatedWrites(gate, writes),
        { writeConcurrency: 1, takeoverWritesWaiting: 1, unlookedEvery: Duration.millis(500) }
      )
    }), { timeout: 120_000 })
})
