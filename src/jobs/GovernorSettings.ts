/**
 * How the Governor is tuned: its reads, its messages, its takeovers and how
 * long an actor plans from what it read.
 */
import { Context, Duration } from "effect"

/** Tuning of the Governor; override with `Layer.succeed(GovernorSettings, {...})`. */
export interface GovernorSettings {
  /**
   * Reads running at once in this process, over all accounts. Reads wait on the network, not on this
   * process, so many run at once: at 16 a backlog of reads drained at 500-940 a second on PostgreSQL,
   * at 64 at 2,400 (`npm run bench:queue`), their claims and completions going in larger batches.
   */
  readonly readConcurrency: number
  /**
   * Writes running at once in this process, over all accounts (each account runs one at a time). With 100,000
   * accounts on three runners, a working-hours opening made thousands due together: all started at once, their
   * transactions held the pool and each other up, and a few writes a second went through (`npm run bench:scale`).
   */
  readonly writeConcurrency: number
  /** How long a message to an account's owner is retried (the owner may be moving) before it is left to the takeover. */
  readonly sendTimeout: Duration.Duration
  /** How often a runner looks for accounts of its shards with open work and no actor (real time). */
  readonly sweepEvery: Duration.Duration
  /** Accounts a takeover wakes a second, at most. */
  readonly takeoverBatch: number
  /** A takeover wakes no more accounts while this many are in memory on this runner. */
  readonly takeoverResident: number
  /**
   * A takeover wakes no more accounts while this many writes of this runner wait for a write slot: accounts woken
   * then would only wait in memory. At a working-hours opening of 100,000 accounts a runner held its 5,000 in
   * memory (60 KB each) for minutes while 32 wrote at a time (`npm run bench:scale`).
   */
  readonly takeoverWritesWaiting: number
  /**
   * How long (real time) an account's actor plans from what it read of the account, counting its own jobs'
   * spend into it, before reading it again; a change through the API is seen at once.
   */
  readonly factsFor: Duration.Duration
  /**
   * The longest a write's driver call may take, counted from the record of its attempt: a write is sent only
   * while the runner's lease of its account's shard outlasts it, and a runner that takes an account over
   * settles the writes the previous owner left running only once this much more has passed (issue #29).
   */
  readonly writeDeadline: Duration.Duration
  /** How often (real time) a runner looks for open jobs of its accounts that no actor has looked at (a lost message). */
  readonly unlookedEvery: Duration.Duration
  /**
   * An account whose writes wait at least this long (on the service's clock), or wait for a change to the
   * account, leaves memory once idle (`OUTREACH_ACCOUNT_IDLE_TIME`); the wait's end, recorded on its jobs, wakes
   * it on whichever runner owns it then (issue #36). Shorter waits keep it in memory.
   */
  readonly leaveMemoryAfter: Duration.Duration
  /** Wake-ups a runner reads in one look (each second), the longest overdue first. */
  readonly wakeUpsPerLook: number
}

export const GovernorSettings = Context.Reference<GovernorSettings>("outreach/GovernorSettings", {
  defaultValue: () => ({
    readConcurrency: 64,
    writeConcurrency: 32,
    sendTimeout: Duration.seconds(60),
    sweepEvery: Duration.seconds(30),
    takeoverBatch: 500,
    takeoverResident: 5_000,
    takeoverWritesWaiting: 128,
    factsFor: Duration.seconds(2),
    writeDeadline: Duration.seconds(5),
    unlookedEvery: Duration.seconds(2),
    leaveMemoryAfter: Duration.seconds(30),
    wakeUpsPerLook: 5_000
  })
})
