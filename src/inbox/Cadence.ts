/**
 * When the inbox syncs: the cadence of one account's syncs on the service's
 * clock, and how often the background loop looks for accounts that are due.
 *
 * The cadence is an Effect `Schedule` defined once (`syncCadence`). The inbox
 * keeps each account's next sync in PostgreSQL, so a restart, another server
 * or a jump of the sandbox's test clock finds it there: `nextSyncAt` steps
 * the schedule to turn an attempt into that instant.
 */
import { Context, Duration, Effect, Pull, Schedule } from "effect"

/** How often an account is synced while its status, hours and budget allow (service clock). */
export const SYNC_INTERVAL = Duration.minutes(10)
export const SYNC_INTERVAL_MS = Duration.toMillis(SYNC_INTERVAL)

/** What the cadence needs to know of one attempt to sync an account. */
export interface SyncAttempt {
  /**
   * Epoch ms until which the account's working hours or `list_polls` budget
   * hold its syncs (the next opening, the budget's refill); null when
   * neither did.
   */
  readonly heldUntil: number | null
}

/**
 * The cadence of one account's syncs: the next one {@link SYNC_INTERVAL}
 * after each attempt (synced, refused by the network, or skipped for a status
 * that allows no reads), or the very instant its hours open or its budget
 * refills when those held it.
 */
export const syncCadence: Schedule.Schedule<number, SyncAttempt> = Schedule.modifyDelay(
  Schedule.spaced(SYNC_INTERVAL),
  ({ duration, input, now }: Schedule.Metadata<number, SyncAttempt>) =>
    Effect.succeed(input.heldUntil === null ? duration : Duration.millis(Math.max(0, input.heldUntil - now)))
)

/** When an account attempted at `nowMs` is next due, by {@link syncCadence}. */
export const nextSyncAt = (attempt: SyncAttempt, nowMs: number): Effect.Effect<number> =>
  Schedule.toStep(syncCadence).pipe(
    Effect.flatMap((step) => step(nowMs, attempt)),
    Effect.map(([, delay]) => nowMs + Duration.toMillis(delay)),
    // The cadence never ends; were it to, the account would still be synced at the interval.
    Pull.catchDone(() => Effect.succeed(nowMs + SYNC_INTERVAL_MS))
  )

/** Tuning of the background loop; override with `Layer.succeed(InboxSettings, {...})`. */
export interface InboxSettings {
  /** How often, in real time, the loop looks for accounts whose next sync is due. */
  readonly pollEvery: Duration.Duration
  /** The most accounts one look syncs (the rest are due at the next look). */
  readonly batch: number
}

export const InboxSettings = Context.Reference<InboxSettings>("outreach/InboxSettings", {
  defaultValue: () => ({ pollEvery: Duration.seconds(1), batch: 100 })
})

/**
 * The loop's schedule: a look every `pollEvery` of real time. It runs on the
 * real clock, whatever the service's clock: under the sandbox's test clock a
 * jump of days then syncs each account once (its next sync is simply due),
 * not once for every interval jumped over.
 */
export const dueScan = (settings: InboxSettings): Schedule.Schedule<number> => Schedule.spaced(settings.pollEvery)
