/**
 * A runner taking accounts over: the accounts of shards it acquires (at start,
 * and from a dead runner) that have open work are woken, so each one's actor
 * settles what the previous owner left and goes on.
 *
 * Shard ownership is looked at in memory every second; the database only when
 * it grew. And every `sweepEvery`, a safety net: an account with open work
 * whose actor is not here is woken too (its job was committed by a server that
 * died before its message left).
 */
import { Duration, Effect } from "effect"
import { EntityId, ShardId, Sharding, ShardingConfig } from "effect/cluster"
import * as Time from "../domain/Time.ts"
import { GovernorSettings } from "./GovernorSettings.ts"

/** Runs the takeover for the scope's lifetime. */
export const run = (options: {
  /** The accounts whose actor lives on this runner. */
  readonly residents: ReadonlyMap<string, unknown>
  /** Wakes an account: its owner (this runner, for an account taken over) looks at its work. */
  readonly wake: (accountId: string) => Effect.Effect<void>
  /** Every account with work not finished. */
  readonly openWork: Effect.Effect<ReadonlyArray<string>>
}) =>
  Effect.gen(function*() {
    const sharding = yield* Sharding.Sharding
    const cluster = yield* ShardingConfig.ShardingConfig
    const settings = yield* GovernorSettings
    const { residents } = options
    const owned = new Set<number>()
    const toWake = new Set<string>()
    let ticks = 0

    const tick = Effect.gen(function*() {
      const acquired: Array<number> = []
      for (let id = 1; id <= cluster.shardsPerGroup; id++) {
        const mine = sharding.hasShardId(ShardId.make("default", id))
        if (mine && !owned.has(id)) acquired.push(id)
        if (mine) owned.add(id)
        else owned.delete(id)
      }
      // One look a second: the sweep's turn comes every `sweepEvery` seconds.
      const sweep = ticks++ % Math.max(1, Math.round(Duration.toSeconds(settings.sweepEvery))) === 0
      if (acquired.length > 0 || sweep) {
        const taken = new Set(sweep ? owned : acquired)
        const accounts = (yield* options.openWork).filter((accountId) =>
          !residents.has(accountId) && taken.has(sharding.getShardId(EntityId.make(accountId), "default").id)
        )
        for (const accountId of accounts) toWake.add(accountId)
        if (accounts.length > 0) {
          yield* Effect.logInfo(acquired.length > 0 ? "governor took accounts over" : "governor woke accounts with work left alone").pipe(
            Effect.annotateLogs({ shards: acquired.length, accounts: accounts.length })
          )
        }
      }
      // At most `takeoverBatch` a second, and none while `takeoverResident` accounts are in memory here: taking
      // 30,000 accounts with work over at once brought them all into memory together (2.5 GB a runner).
      let room = Math.max(0, Math.min(settings.takeoverBatch, settings.takeoverResident - residents.size))
      for (const accountId of toWake) {
        if (room === 0) break
        toWake.delete(accountId)
        if (residents.has(accountId)) continue
        room--
        yield* options.wake(accountId)
      }
    })

    yield* tick.pipe(
      Effect.andThen(Time.liveSleep(Duration.seconds(1))),
      Effect.catchCause((cause) => Effect.logError("governor takeover failed", cause)),
      Effect.forever,
      Effect.forkScoped
    )
  })
