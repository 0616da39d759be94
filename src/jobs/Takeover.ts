/**
 * A runner bringing accounts of its shards into memory when they have work
 * that goes on now: those of shards it acquires (at start, and from a dead
 * runner), and those whose durable wake-up came (issue #36).
 *
 * - Shard ownership is looked at in memory every second; the database only
 *   when it grew. The accounts taken over are those with work due now (a job
 *   running, one no actor has looked at, a wait that ended): an account whose
 *   jobs all wait for a later instant stays out of memory until then.
 * - Each second, the wake-ups that came: an account that left memory while its
 *   writes wait for an instant is found by that instant, recorded on its jobs
 *   (their `eta`), on whichever runner owns its shard then.
 * - Every `sweepEvery`, a safety net: an account with work due whose actor is
 *   not here is woken too (its job was committed by a server that died before
 *   its message left).
 *
 * All of them are woken at most `takeoverBatch` a second, and none while
 * `takeoverResident` accounts are in memory here or `takeoverWritesWaiting`
 * writes wait for a write slot, so a takeover or an opening of many accounts
 * never brings them all into memory at once: only as many as the write slots
 * keep busy. The accounts taken over (and those the safety net found) go
 * first: their work was due before the wake-ups that came since, and a dead
 * runner's accounts must not wait behind a whole opening of the survivor's own.
 * Accounts the Governor finds with work no actor looked at (a lost message)
 * join that first line too (`takeOver`), under the same limits.
 */
import { Duration, Effect } from "effect"
import { EntityId, ShardId, Sharding, ShardingConfig } from "effect/cluster"
import * as Time from "../domain/Time.ts"
import { GovernorSettings } from "./GovernorSettings.ts"

/** Runs the takeover for the scope's lifetime; answers how to hand it an account to bring into memory. */
export const run = (options: {
  /** The accounts whose actor lives on this runner. */
  readonly residents: ReadonlyMap<string, unknown>
  /** Wakes an account: its owner (this runner, for an account taken over) looks at its work. */
  readonly wake: (accountId: string) => Effect.Effect<void>
  /** Every account with work due now (`JobStore.dueAccounts`). */
  readonly dueWork: Effect.Effect<ReadonlyArray<string>>
  /** Accounts whose wake-up came (`JobStore.wakeUpsDue`), the longest overdue first. */
  readonly wakeUpsDue: Effect.Effect<ReadonlyArray<string>>
  /** Writes of this runner waiting for a write slot. */
  readonly writesWaiting: Effect.Effect<number>
}) =>
  Effect.gen(function*() {
    const sharding = yield* Sharding.Sharding
    const cluster = yield* ShardingConfig.ShardingConfig
    const settings = yield* GovernorSettings
    const { residents } = options
    const owned = new Set<number>()
    /** Accounts taken over or found by the safety net, woken before the wake-ups. */
    const takenOver = new Set<string>()
    /** Accounts whose wake-up came. */
    const wakeUps = new Set<string>()
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
      /** Those of `accounts` on `shards` that are not in memory here, queued in `line` to be woken. */
      const queue = (line: Set<string>, accounts: ReadonlyArray<string>, shards: ReadonlySet<number>) => {
        const found = accounts.filter((accountId) =>
          !residents.has(accountId) && shards.has(sharding.getShardId(EntityId.make(accountId), "default").id)
        )
        for (const accountId of found) line.add(accountId)
        return found.length
      }
      if (acquired.length > 0 || sweep) {
        const accounts = queue(takenOver, yield* options.dueWork, new Set(sweep ? owned : acquired))
        if (accounts > 0) {
          yield* Effect.logInfo(acquired.length > 0 ? "governor took accounts over" : "governor woke accounts with work left alone").pipe(
            Effect.annotateLogs({ shards: acquired.length, accounts })
          )
        }
      }
      const woken = queue(wakeUps, yield* options.wakeUpsDue, owned)
      if (woken > 0) yield* Effect.logDebug("governor wakes accounts whose wake-up came").pipe(Effect.annotateLogs({ accounts: woken }))
      // At most `takeoverBatch` a second, and none while `takeoverResident` accounts are in memory here or
      // `takeoverWritesWaiting` writes wait for a slot: taking 30,000 accounts with work over at once brought them
      // all into memory together (2.5 GB a runner).
      const backlog = yield* options.writesWaiting
      let room = backlog >= settings.takeoverWritesWaiting
        ? 0
        : Math.max(0, Math.min(settings.takeoverBatch, settings.takeoverResident - residents.size))
      for (const line of [takenOver, wakeUps]) {
        for (const accountId of line) {
          if (room === 0) break
          line.delete(accountId)
          if (residents.has(accountId)) continue
          room--
          yield* options.wake(accountId)
        }
      }
    })

    yield* tick.pipe(
      Effect.andThen(Time.liveSleep(Duration.seconds(1))),
      Effect.catchCause((cause) => Effect.logError("governor takeover failed", cause)),
      Effect.forever,
      Effect.forkScoped
    )
    return {
      /** Queues an account of this runner, not in memory here, to be woken with those taken over. */
      takeOver: (accountId: string) => Effect.sync(() => takenOver.add(accountId)).pipe(Effect.asVoid)
    }
  })
