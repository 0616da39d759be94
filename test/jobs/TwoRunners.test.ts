/**
 * Two servers on one PostgreSQL database are two runners of one cluster: each
 * account is owned by one of them, a job created on either reaches its owner
 * by an entity message over HTTP, a long-poll on the other server answers as
 * soon as it finishes, and when the owner stops, the other takes its accounts
 * over. (The same with `kill -9` of real processes: `test/chaos/`.)
 */
import { assert, it } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { EntityId, Sharding } from "effect/cluster"
import { Jobs } from "../../src/jobs/Jobs.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { eventually } from "../support/Eventually.ts"
import { freePort, serverOn } from "../support/Runners.ts"
import { jobAfter, strangers, workspaceWithAccount } from "./support.ts"

/** Whether the server of `context` owns the account. */
const owns = (context: Context.Context<Sharding.Sharding>, accountId: string) => {
  const sharding = Context.get(context, Sharding.Sharding)
  return sharding.hasShardId(sharding.getShardId(EntityId.make(accountId), "default"))
}

it.effect.skipIf(TestDatabase.backend !== "postgresql")("two servers: a job reaches its account's owner, and the other takes over when it stops", () =>
  Effect.gen(function*() {
    const open = yield* TestDatabase.reopenable
    const scopeA = yield* Scope.make()
    const scopeB = yield* Scope.make()
    const a = yield* Layer.build(serverOn(open(), yield* freePort)).pipe(Scope.provide(scopeA))
    const b = yield* Layer.build(serverOn(open(), yield* freePort)).pipe(Scope.provide(scopeB))
    // Both runners hold shards once B has joined and the shards are split between them.
    const shardsOf = (context: Context.Context<Sharding.Sharding>) =>
      Effect.sync(() => Array.from({ length: 300 }, (_, i) => owns(context, `probe-${i}`)).filter(Boolean).length)
    yield* eventually("the shards to be split between both", Effect.zip(shardsOf(a), shardsOf(b)), ([x, y]) => x > 0 && y > 0, 60_000, 200)

    // Accounts until one is owned by B; its jobs are then created on A.
    const { workspaceId, accountId } = yield* Effect.gen(function*() {
      for (let tries = 0;; tries++) {
        const made = yield* workspaceWithAccount().pipe(Effect.provideContext(a))
        if (owns(b, made.accountId) || tries > 20) return made
      }
    })
    assert.isTrue(owns(b, accountId), "an account owned by B")
    assert.isFalse(owns(a, accountId))
    const [first, second] = strangers(accountId, 2, "two-runners")

    const create = (person: string) =>
      Jobs.use((jobs) => jobs.create({ workspaceId, accountId, command: "get_profile", input: { person } })).pipe(
        Effect.provideContext(a)
      )
    const created = yield* create(first)
    // A long-poll on A answers when B has run it.
    const done = yield* jobAfter(workspaceId, created.id, 20).pipe(Effect.provideContext(a))
    assert.strictEqual(done.status, "completed", JSON.stringify(done))

    // B stops; A takes its shards, and B's account with them.
    yield* Scope.close(scopeB, Exit.void)
    yield* eventually("A to own B's account", Effect.sync(() => owns(a, accountId)), (mine) => mine, 60_000, 200)
    const later = yield* create(second)
    const laterDone = yield* jobAfter(workspaceId, later.id, 20).pipe(Effect.provideContext(a))
    assert.strictEqual(laterDone.status, "completed", JSON.stringify(laterDone))
    yield* Scope.close(scopeA, Exit.void)
  }), { timeout: 180_000 })
