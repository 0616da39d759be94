/**
 * How the Governor is tuned: its reads, its messages, its takeovers and how
 * long an actor plans from what it read.
 *
 * @since 1.0.0
 */
import { Context, Duration } from "effect"

/** Tuning of the Governor; override with `Layer.succeed(GovernorSettings, {...})`. */
export interface GovernorSettings {
  /** Reads running at once in this process, over all accounts. */
  readonly readConcurrency: number
  /** How long a message to an account's owner is retried (the owner may be moving) before it is left to the takeover. */
  readonly sendTimeout: Duration.Duration
  /** How often a runner looks for accounts of its shards with open work and no actor (real time). */
  readonly sweepEvery: Duration.Duration
  /** Accounts a takeover wakes a second, at most. */
  readonly takeoverBatch: number
  /** A takeover wakes no more accounts while this many are in memory on this runner. */
  readonly takeoverResident: number
  /**
   * How long (real time) an account's actor plans from what it read of the account, counting its own jobs'
   * spend into it, before reading it again; a change through the API is seen at once.
   */
  readonly factsFor: Duration.Duration
}

export const GovernorSettings = Context.Reference<GovernorSettings>("outreach/GovernorSettings", {
  defaultValue: () => ({
    readConcurrency: 16,
    sendTimeout: Duration.seconds(60),
    sweepEvery: Duration.seconds(30),
    takeoverBatch: 500,
    takeoverResident: 5_000,
    factsFor: Duration.seconds(2)
  })
})
