/**
 * What an account's actor (`AccountActor.ts`) holds on this runner, and its making when the account
 * comes to life here.
 */
import { Effect, FiberSet, Queue, Semaphore } from "effect"
import type { LoadedFacts } from "./AccountFacts.ts"
import type { JobRow } from "./JobRow.ts"

/**
 * An account's actor on this runner: its wake-ups, the fibers of its reads, and what it knows of its
 * queue. The owner is the only runner that starts the account's jobs, so after one look at the
 * database it keeps its writes in memory, and looks again only when told its queue changed.
 */
export interface Actor {
  readonly accountId: string
  readonly mailbox: Queue.Queue<true>
  /** The fibers of its reads waiting for an instant (a budget's next day, say). */
  readonly fibers: FiberSet.FiberSet
  /** Its reads queued, running or waiting for an instant. */
  reads: number
  /** Its writes not started (queued or scheduled), oldest first, as last read. */
  writes: Array<JobRow>
  /** The queue changed since it was read (a new write, an approval, a cancellation). */
  stale: boolean
  /** Reads waiting for the account to change, with no end of their own. */
  readonly parked: Set<string>
  /**
   * Whether its entity is kept in memory (it has open work); undefined until it first says. A new actor may have
   * been brought to life by a keep-alive its account's previous life left unanswered (the cluster persists them and
   * hands them to the next owner), which holds it in memory until it says it may leave: the first say is always sent.
   */
  kept: boolean | undefined
  /** What it read of its account for planning, and until when (real time, epoch ms) it goes by it. */
  facts: { readonly loaded: LoadedFacts; readonly until: number } | undefined
  /** One read of its facts at a time: its other reads wait for that one instead of reading the account again. */
  readonly reading: Semaphore.Semaphore
  /** How often the account changed (`changed`): facts read while it changed are not kept. */
  changes: number
  /** While it sleeps between its writes: until when (epoch ms on the Clock), null without an end; else undefined. */
  sleepingUntil: number | null | undefined
  /**
   * Its owner epoch of the account: the fencing token of its writes (`JobStore.takeAccount`). Undefined until it
   * first needs one, and again once this runner may have lost the account: taken anew before the next write.
   */
  epoch: number | undefined
  /** When (monotonic real time, ms) it took the account under `epoch`. */
  takenAt: number
  /** When (monotonic real time, ms) the lease rule lets it settle writes a previous owner left running; null: none wait. */
  settleAt: number | null
}

/** The account's actor as it comes to life, in the caller's scope: nothing read of its account or queue yet. */
export const make = (accountId: string) =>
  Effect.gen(function*() {
    const actor: Actor = {
      accountId,
      mailbox: yield* Queue.sliding<true>(1),
      fibers: yield* FiberSet.make(),
      reads: 0,
      writes: [],
      stale: false,
      parked: new Set(),
      kept: undefined,
      facts: undefined,
      reading: yield* Semaphore.make(1),
      changes: 0,
      sleepingUntil: undefined,
      epoch: undefined,
      takenAt: 0,
      settleAt: null
    }
    return actor
  })
