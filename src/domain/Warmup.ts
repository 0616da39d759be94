/**
 * Warm-up: a new account's budgets ramp from 20% on day 1 to 100% on day 14
 * (`warmup.of`), and a restriction by the network restarts the ramp at half the
 * level it had reached.
 *
 * The model: a warm-up is a start instant and the ramp day the account is on at
 * that instant's local date (`startDay`; 1 for a new account). Each local
 * calendar day in the account's time zone moves one ramp day further, so the
 * ramp day is `startDay + local days since the start`, at most 14. The factor of
 * a ramp day comes from one table ({@link rampPercentByDay}). Recovering from a
 * restriction starts a new warm-up when the reads-only week ends, at the highest
 * ramp day whose factor is at most half the factor reached when restricted
 * ({@link rampDayAtMostLevel}), so a second restriction halves again: the state
 * composes without remembering history.
 */
import { Schema } from "effect"
import { addDays, civilDateAt, daysBetween, formatCivilDate } from "./WorkingHours.ts"

/** Length of the ramp in days (`warmup.of`). */
export const WARMUP_DAYS = 14

/**
 * Budget percentage for ramp days 1 to 14: linear from 20 to 100, rounded to whole
 * percents so that budgets are exact integers (20 + 80 x (day - 1) / 13).
 */
export const rampPercentByDay: ReadonlyArray<number> = [20, 26, 32, 38, 45, 51, 57, 63, 69, 75, 82, 88, 94, 100]

/** How long a restricted account may only read before the ramp restarts. */
export const RESTRICTION_READS_ONLY_MS = 7 * 86_400_000

/** A warm-up in progress (or finished): when it started and on which ramp day. */
export const Warmup = Schema.Struct({
  startedAt: Schema.Int.annotate({ description: "Epoch milliseconds when this ramp started" }),
  startDay: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: WARMUP_DAYS })).annotate({
    description: "Ramp day on the local date of `startedAt`; 1 for a new account"
  })
}).annotate({ identifier: "WarmupState" })
export type Warmup = typeof Warmup.Type

/** The `warmup` object of an account: `{day, of}`. */
export const WarmupView = Schema.Struct({
  day: Schema.Int.annotate({ description: "Ramp day, 1 to `of`; stays at `of` once the ramp is complete" }),
  of: Schema.Int.annotate({ description: "Length of the ramp in days" })
}).annotate({ identifier: "Warmup", examples: [{ day: 3, of: WARMUP_DAYS }] })
export type WarmupView = typeof WarmupView.Type

/** A new account's warm-up, starting at `startedAt` (epoch ms) on ramp day 1. */
export const startWarmup = (startedAt: number): Warmup => ({ startedAt, startDay: 1 })

const clampDay = (day: number): number => Math.min(WARMUP_DAYS, Math.max(1, Math.floor(day)))

/**
 * The budget factor of a ramp day: 0.2 on day 1 up to 1.0 on day 14 and after.
 * Days below 1 count as day 1.
 */
export const rampFactor = (day: number): number => rampPercentByDay[clampDay(day) - 1] / 100

/**
 * The ramp day at `nowMs`: `startDay` plus the local calendar days (in `timezone`)
 * since `startedAt`, between 1 and 14. A `nowMs` before the start counts as the start day.
 */
export const warmupDay = (warmup: Warmup, timezone: string, nowMs: number): number => {
  const elapsed = daysBetween(civilDateAt(timezone, warmup.startedAt), civilDateAt(timezone, nowMs))
  return clampDay(warmup.startDay + Math.max(0, elapsed))
}

/** The warm-up factor that scales budgets at `nowMs`. */
export const warmupFactor = (warmup: Warmup, timezone: string, nowMs: number): number =>
  rampFactor(warmupDay(warmup, timezone, nowMs))

/** Whether the ramp is still under way at `nowMs` (the account is `warming`). */
export const isWarming = (warmup: Warmup, timezone: string, nowMs: number): boolean =>
  warmupDay(warmup, timezone, nowMs) < WARMUP_DAYS

/** The account's `warmup` field at `nowMs`. */
export const toWarmupView = (warmup: Warmup, timezone: string, nowMs: number): WarmupView => ({
  day: warmupDay(warmup, timezone, nowMs),
  of: WARMUP_DAYS
})

/** The local date (`YYYY-MM-DD`) on which the ramp reaches day 14, for the health report's `finishesOn`. */
export const warmupFinishesOn = (warmup: Warmup, timezone: string): string =>
  formatCivilDate(addDays(civilDateAt(timezone, warmup.startedAt), WARMUP_DAYS - warmup.startDay))

/**
 * The highest ramp day whose factor is at most `level` (day 1 when even day 1 is
 * above it): restarting there never exceeds the level asked for.
 */
export const rampDayAtMostLevel = (level: number): number => {
  let day = 1
  for (let candidate = 1; candidate <= WARMUP_DAYS; candidate++) {
    // The tolerance absorbs binary error, so that a level of 0.51 still matches 51%.
    if (rampPercentByDay[candidate - 1] <= level * 100 + 1e-9) day = candidate
  }
  return day
}

/** What a restriction does to an account's warm-up. */
export interface RestrictionRecovery {
  /** Until then only reads run (the account's `health.readsOnlyUntil`). */
  readonly readsOnlyUntil: number
  /** The ramp that takes over at `readsOnlyUntil`, at half the level reached when restricted. */
  readonly warmup: Warmup
}

/**
 * Recovery from a restriction at `restrictedAt`: reads only for 7 days, then the
 * warm-up restarts at half the factor it had reached at `restrictedAt` (a finished
 * ramp, factor 1, restarts on day 5 at 45%).
 */
export const recoverFromRestriction = (warmup: Warmup, timezone: string, restrictedAt: number): RestrictionRecovery => {
  const readsOnlyUntil = restrictedAt + RESTRICTION_READS_ONLY_MS
  const reached = warmupFactor(warmup, timezone, restrictedAt)
  return { readsOnlyUntil, warmup: { startedAt: readsOnlyUntil, startDay: rampDayAtMostLevel(reached / 2) } }
}
