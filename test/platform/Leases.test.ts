/**
 * A runner's shard leases as the Governor counts on them (issue #29): from
 * the locks its storage acquires and refreshes, lost at once when a refresh
 * no longer holds a shard, and all in doubt after the process did not run
 * for a while.
 */
import { assert, it } from "@effect/vitest"
import { Context, Duration, Effect, Fiber, Layer, Stream } from "effect"
import { RunnerAddress, RunnerStorage, ShardId, ShardingConfig } from "effect/cluster"
import * as Leases from "../../src/platform/Leases.ts"

const address = RunnerAddress.make("127.0.0.1", 1)
const one = ShardId.make("default", 1)
const two = ShardId.make("default", 2)

/** Storage whose refreshes hold only the shards in `holding`, and fail while `failing.now`. */
const storage = (holding: Set<string>, failing: { now: boolean }) =>
  Layer.effect(
    RunnerStorage.RunnerStorage,
    Effect.map(RunnerStorage.RunnerStorage, (memory) =>
      RunnerStorage.RunnerStorage.of({
        ...memory,
        acquire: (_, shards) => Effect.succeed([...shards]),
        refresh: (_, shards) =>
          failing.now
            ? Effect.die(new Error("the lock connection was closed"))
            : Effect.succeed([...shards].filter((shard) => holding.has(String(shard))))
      }))
  ).pipe(Layer.provide(RunnerStorage.layerMemory))

const tracked = (holding: Set<string>, failing: { now: boolean }) =>
  Leases.tracking.pipe(
    Layer.provide(storage(holding, failing)),
    Layer.provide(Layer.succeed(ShardingConfig.ShardingConfig, { ...ShardingConfig.defaults, shardLockExpiration: Duration.seconds(10) }))
  )

const realSleep = (ms: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

it.live("a lease counts from its lock, ends when a refresh fails or no longer holds it, and is doubted after a pause", () =>
  Effect.gen(function*() {
    const holding = new Set([String(one), String(two)])
    const failing = { now: false }
    const context = yield* Layer.build(tracked(holding, failing))
    const leases = Context.get(context, Leases.ShardLeases)
    const runner = Context.get(context, RunnerStorage.RunnerStorage)
    const losses = yield* Effect.forkChild(Stream.runCollect(Stream.take(leases.losses, 3)))
    yield* realSleep(20)

    assert.strictEqual(yield* leases.remaining(one), 0, "no lease before the lock")
    yield* runner.acquire(address, [one, two])
    const fresh = yield* leases.remaining(one)
    assert.isTrue(fresh > 9_000 && fresh <= 10_000, `${fresh} ms left`)

    holding.delete(String(two))
    assert.deepStrictEqual((yield* runner.refresh(address, [one, two])).map(String), [String(one)])
    assert.strictEqual(yield* leases.remaining(two), 0, "lost when a refresh no longer holds it")
    assert.isAbove(yield* leases.remaining(one), 9_000)

    // A refresh that fails: its locks are in doubt at once, until a refresh sent after it holds them.
    failing.now = true
    yield* Effect.exit(runner.refresh(address, [one]))
    assert.strictEqual(yield* leases.remaining(one), 0)
    failing.now = false
    yield* runner.refresh(address, [one])
    assert.isAbove(yield* leases.remaining(one), 9_000)

    // The process does not run for 2.6 s (as under SIGSTOP): every lease is in doubt.
    const until = Date.now() + 2_600
    while (Date.now() < until) {
      // busy: nothing else runs
    }
    const [first, failed, paused] = yield* Fiber.join(losses)
    assert.deepStrictEqual(first.shards === "all" ? "all" : [...first.shards], [String(two)])
    assert.deepStrictEqual(failed.shards === "all" ? "all" : [...failed.shards], [String(one)])
    assert.strictEqual(failed.reason, "a lock refresh failed")
    assert.strictEqual(paused.shards, "all")
    assert.match(paused.reason, /did not run for \d+ ms/)
    assert.strictEqual(yield* leases.remaining(one), 0)
    // A refresh sent after the doubt holds it again.
    yield* runner.refresh(address, [one])
    assert.isAbove(yield* leases.remaining(one), 9_000)
  }))
