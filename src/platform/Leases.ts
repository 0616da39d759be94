/**
 * This runner's leases of its shards, as a writer may count on them (issue
 * #29). `effect/cluster` keeps each shard's lock in PostgreSQL, refreshed
 * every 3 seconds and lapsing 10 seconds after its last refresh; a runner
 * that stops refreshing (it froze, it lost its database) loses its shards to
 * another. Before a write reaches the network, the Governor asks how long the
 * lease of the account's shard still holds, and sends only when it outlasts
 * the write's deadline.
 *
 * The leases are learnt by wrapping the cluster's `RunnerStorage`: a lock
 * acquired or refreshed counts from the moment its statement was sent (the
 * database stamps it later, so the lease really ends later); a lock a
 * refresh no longer returns, or whose refresh failed, is lost at once (a lock
 * session that ended took its locks with it); a late refresh lets the lease
 * run down. A heartbeat looks every 250 ms
 * of real time: a gap of more than 2 seconds (the process was stopped, a
 * frozen VM, a laptop lid), or a wall clock that moved apart from the
 * monotonic one (a clock jump, a suspend), puts every lease in doubt until a
 * refresh sent after it succeeds; each loss is told to `losses`, where the
 * Governor stops the writes that may still send before anything else.
 *
 * One process alone (embedded PGlite) owns its shards in memory and has no
 * peer to lose them to: its leases never end.
 */
import { Context, Duration, Effect, Layer, PubSub, Stream } from "effect"
import { RunnerStorage, type ShardId, ShardingConfig } from "effect/cluster"
import * as Time from "../domain/Time.ts"

/** Why this runner may no longer own shards. */
export interface LeaseLoss {
  /** The shards lost (their `ShardId` strings), or every shard. */
  readonly shards: ReadonlySet<string> | "all"
  readonly reason: string
}

export interface ShardLeases {
  /** How long (ms of real time) this runner may still count on owning the shard: 0 when lost or in doubt. */
  readonly remaining: (shard: ShardId.ShardId) => Effect.Effect<number>
  /** Each loss, as it is found. */
  readonly losses: Stream.Stream<LeaseLoss>
}

/** One process alone: leases that never end (the default, and embedded PGlite). */
export const ShardLeases = Context.Reference<ShardLeases>("outreach/ShardLeases", {
  defaultValue: () => ({ remaining: () => Effect.succeed(Number.POSITIVE_INFINITY), losses: Stream.never })
})

/** How often the heartbeat looks, and the gap (real time) that means the process was not running. */
const beat = Duration.millis(250)
const pauseMs = 2_000
/** How far the wall clock may drift from the monotonic one between two beats before it counts as a jump. */
const jumpMs = 1_000


interface Held {
  readonly monotonicUntil: number
  readonly wallUntil: number
}

/**
 * The leases of a runner whose shard locks are in the database: `ShardLeases` and the `RunnerStorage` that
 * feeds it, wrapping the one beneath (needs `ShardingConfig` and a real `Clock`).
 */
export const tracking = Layer.effectContext(Effect.gen(function*() {
  const storage = yield* RunnerStorage.RunnerStorage
  const config = yield* ShardingConfig.ShardingConfig
  const expirationMs = Duration.toMillis(Duration.fromInputUnsafe(config.shardLockExpiration))
  const held = new Map<string, Held>()
  /** The monotonic instant of the last loss of every lease: a refresh sent before it proves nothing. */
  let doubtedAt = Number.NEGATIVE_INFINITY
  const losses = yield* PubSub.unbounded<LeaseLoss>()

  const now = Effect.all({ monotonic: Time.monotonicMs, wall: Time.liveNow })

  const lose = (loss: LeaseLoss) =>
    Effect.gen(function*() {
      if (loss.shards === "all") held.clear()
      else for (const shard of loss.shards) held.delete(shard)
      // Told first: the Governor stops the calls in flight before anything else is done.
      yield* PubSub.publish(losses, loss)
      yield* Effect.logError(`shard lease lost: ${loss.reason}; stopping every write that may still reach the network`).pipe(
        Effect.annotateLogs({ shards: loss.shards === "all" ? "all" : [...loss.shards].join(",") })
      )
    })

  /** Records what a lock statement sent at `sent` found: the shards it holds, and those it asked for and lost. */
  const learn = (sent: { readonly monotonic: number; readonly wall: number }, asked: ReadonlyArray<string>, got: ReadonlyArray<ShardId.ShardId>) =>
    Effect.suspend(() => {
      const kept = new Set(got.map(String))
      if (sent.monotonic > doubtedAt) {
        for (const shard of kept) {
          held.set(shard, { monotonicUntil: sent.monotonic + expirationMs, wallUntil: sent.wall + expirationMs })
        }
      }
      const lost = new Set(asked.filter((shard) => !kept.has(shard) && held.has(shard)))
      return lost.size === 0 ? Effect.void : lose({ shards: lost, reason: "a lock refresh no longer holds them" })
    })

  const wrapped = RunnerStorage.RunnerStorage.of({
    ...storage,
    acquire: (address, shardIds) =>
      Effect.gen(function*() {
        const sent = yield* now
        const got = yield* storage.acquire(address, shardIds)
        yield* learn(sent, [], got)
        return got
      }),
    refresh: (address, shardIds) =>
      Effect.gen(function*() {
        const ids = Array.from(shardIds)
        const sent = yield* now
        // A refresh that fails leaves the locks in doubt (a lock session that ended lost them at once).
        const got = yield* storage.refresh(address, ids).pipe(Effect.onError(() => {
          const doubted = new Set(ids.map(String).filter((shard) => held.has(shard)))
          return doubted.size === 0 ? Effect.void : lose({ shards: doubted, reason: "a lock refresh failed" })
        }))
        yield* learn(sent, ids.map(String), got)
        return got
      }),
    release: (address, shardId) =>
      Effect.andThen(Effect.sync(() => held.delete(String(shardId))), storage.release(address, shardId)),
    releaseAll: (address) => Effect.andThen(Effect.sync(() => held.clear()), storage.releaseAll(address))
  })

  // The heartbeat: a gap in real time, or the wall clock leaving the monotonic one, puts every lease in doubt.
  const heartbeat = Effect.gen(function*() {
    let last = yield* now
    while (true) {
      yield* Time.liveSleep(beat)
      const current = yield* now
      const gap = current.monotonic - last.monotonic
      const drift = (current.wall - last.wall) - gap
      last = current
      if (gap <= pauseMs && Math.abs(drift) <= jumpMs) continue
      doubtedAt = current.monotonic
      yield* lose({
        shards: "all",
        reason: gap > pauseMs
          ? `this process did not run for ${Math.round(gap)} ms (stopped, frozen or starved)`
          : `the wall clock jumped ${Math.round(drift)} ms`
      })
    }
  })
  yield* Effect.forkScoped(heartbeat)

  const leases: ShardLeases = {
    remaining: (shard) =>
      Effect.map(now, (at) => {
        const lease = held.get(String(shard))
        return lease === undefined ? 0 : Math.max(0, Math.min(lease.monotonicUntil - at.monotonic, lease.wallUntil - at.wall))
      }),
    losses: Stream.fromPubSub(losses)
  }
  return Context.make(RunnerStorage.RunnerStorage, wrapped).pipe(Context.add(ShardLeases, leases))
}))
