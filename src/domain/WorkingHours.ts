/**
 * An account's working hours and the calendar arithmetic in its IANA time zone:
 * when the account is open, when it opens next, and where local days, ISO weeks
 * and months begin (budgets reset on those). Pure: every function takes the
 * instant as epoch milliseconds, and time zones are resolved with
 * `Intl.DateTimeFormat` only, so DST changes follow the platform's tz database.
 * Zones must have been decoded with {@link TimeZone}: an unknown zone throws a
 * `RangeError` (a defect, not a domain error).
 */
import { Schema } from "effect"
import { describedOnly } from "./Rules.ts"
import { Text } from "./Text.ts"

const MINUTE_MS = 60_000
const DAY_MS = 86_400_000

// ---------------------------------------------------------------------------
// Schemas
// ---------------------------------------------------------------------------

/**
 * Whether `name` is a time zone `Intl` knows. UTC offsets such as `+01:00` are
 * accepted by recent `Intl` versions but are not IANA names, so they are refused.
 */
export const isValidTimeZone = (name: string): boolean => {
  if (name.length === 0 || name.startsWith("+") || name.startsWith("-")) return false
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name })
    return true
  } catch {
    return false
  }
}

/** The canonical IANA time zone names this runtime knows, `UTC` among them. */
const timeZoneNames = [...new Set(["UTC", ...Intl.supportedValuesOf("timeZone")])].sort()

/** An IANA time zone name (`Europe/Berlin`, `America/New_York`, `UTC`), checked against `Intl`. */
export const TimeZone = Text.check(
  Schema.makeFilter((name: string) => isValidTimeZone(name), {
    message: "must be an IANA time zone name such as Europe/Berlin or UTC",
    expected: "an IANA time zone name",
    // The document lists the names of this runtime's time zone database; the server also takes their aliases.
    toJsonSchema: () => ({ enum: timeZoneNames })
  })
).annotate({
  identifier: "TimeZone",
  description: "IANA time zone name",
  examples: ["Europe/Berlin", "America/New_York", "UTC"]
})

/** An ISO weekday: 1 = Monday ... 7 = Sunday. */
export const IsoWeekday = Schema.Int.check(
  Schema.isBetween({ minimum: 1, maximum: 7 }, { message: "must be an ISO weekday from 1 (Monday) to 7 (Sunday)" })
).annotate({ description: "ISO weekday, 1 = Monday ... 7 = Sunday" })

/** A 24-hour wall-clock time `HH:MM`, `00:00` to `23:59`. */
export const ClockTime = Text.check(
  Schema.isPattern(/^([01]\d|2[0-3]):[0-5]\d$/u, { message: "must be a 24-hour time HH:MM, 00:00 to 23:59" })
).annotate({ description: "24-hour wall-clock time HH:MM", examples: ["09:00", "18:00"] })

/** Minutes since local midnight of an `HH:MM` time (validated by {@link ClockTime}). */
export const minutesOfDay = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))

const workingHoursFields = {
  days: Schema.Array(IsoWeekday).check(
    Schema.isMinLength(1, { message: "must list at least one ISO weekday" }),
    Schema.isUnique({ message: "must not repeat a weekday" }),
    Schema.isMaxLength(7, { message: "lists at most the 7 ISO weekdays" })
  ).annotate({ description: "ISO weekdays the account works, 1 = Monday ... 7 = Sunday", examples: [[1, 2, 3, 4, 5]] }),
  from: ClockTime.annotate({ description: "Opening time (inclusive), local to `timezone`" }),
  to: ClockTime.annotate({ description: "Closing time (exclusive), local to `timezone`; after `from`" }),
  timezone: TimeZone
}

const fromBeforeTo = Schema.makeFilter(
  (hours: { readonly from: string; readonly to: string }) =>
    minutesOfDay(hours.from) < minutesOfDay(hours.to)
      ? undefined
      : { path: ["to"], issue: `must be after from (${hours.from}); windows stay within one local day` },
  { expected: "from before to", toJsonSchema: () => describedOnly }
)

/**
 * The input form of working hours (`POST /accounts/connect`, `PATCH /accounts/{id}`):
 * non-empty unique ISO weekdays, `from` < `to` as 24-hour `HH:MM`, and an IANA time zone.
 */
export const WorkingHours = Schema.Struct(workingHoursFields).check(fromBeforeTo).annotate({
  identifier: "WorkingHours",
  description: "When the account works: `days` at `from` (inclusive) to `to` (exclusive), in `timezone`",
  examples: [{ days: [1, 2, 3, 4, 5], from: "09:00", to: "18:00", timezone: "Europe/Berlin" }]
})
export type WorkingHours = typeof WorkingHours.Type

/**
 * The output form: the input fields plus `openNow`, and `nextOpening`, the start of
 * the next window when closed (ISO 8601, UTC) or null when open now.
 */
export const WorkingHoursView = Schema.Struct({
  ...workingHoursFields,
  openNow: Schema.Boolean,
  nextOpening: Schema.NullOr(
    Schema.String.annotate({ format: "date-time", description: "ISO 8601 date-time (UTC)" })
  ).annotate({ description: "Start of the next working window; null while the account is open" })
}).annotate({ identifier: "WorkingHoursView" })
export type WorkingHoursView = typeof WorkingHoursView.Type

/** Monday to Friday, 09:00 to 18:00, in the given zone (the account's timezone; `UTC` when none was given). */
export const defaultWorkingHours = (timezone = "UTC"): WorkingHours => ({
  days: [1, 2, 3, 4, 5],
  from: "09:00",
  to: "18:00",
  timezone
})

// ---------------------------------------------------------------------------
// Calendar arithmetic in a time zone
// ---------------------------------------------------------------------------

/** A calendar date without a zone. */
export interface CivilDate {
  readonly year: number
  readonly month: number
  readonly day: number
}

interface WallClock extends CivilDate {
  readonly hour: number
  readonly minute: number
  readonly second: number
}

// Building a formatter is by far the costliest step, and zones are few.
const formatters = new Map<string, Intl.DateTimeFormat>()
const formatterFor = (timezone: string): Intl.DateTimeFormat => {
  let formatter = formatters.get(timezone)
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: timezone,
      calendar: "gregory",
      numberingSystem: "latn",
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric"
    })
    formatters.set(timezone, formatter)
  }
  return formatter
}

const formattedWallClock = (timezone: string, ms: number): WallClock => {
  const fields = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 }
  for (const part of formatterFor(timezone).formatToParts(ms)) {
    switch (part.type) {
      case "year":
      case "month":
      case "day":
      case "hour":
      case "minute":
      case "second":
        fields[part.type] = Number(part.value)
        break
    }
  }
  return fields
}

// Date.UTC maps years 0..99 to 1900..1999; setUTCFullYear does not.
const utcOfWallClock = (wall: WallClock): number => {
  const date = new Date(0)
  date.setUTCFullYear(wall.year, wall.month - 1, wall.day)
  date.setUTCHours(wall.hour, wall.minute, wall.second, 0)
  return date.getTime()
}

const wholeSecondOf = (ms: number): number => ms - (((ms % 1000) + 1000) % 1000)

const measuredOffset = (timezone: string, ms: number): number =>
  utcOfWallClock(formattedWallClock(timezone, ms)) - wholeSecondOf(ms)

/**
 * Offsets known per zone and quarter of an hour (UTC). Zones change their offset at whole quarters of an
 * hour, and never twice within one: a quarter whose two ends show one offset has it throughout, and is
 * kept; one with a change inside is measured at each instant asked. Asking `Intl` is what costs (the
 * forecast asks thousands of times per answer), so the rules below ask it once per quarter at most.
 */
const QUARTER_HOUR_MS = 900_000
const knownOffsets = new Map<string, number>()

/** Local wall-clock time minus UTC at `ms`, in milliseconds (+3_600_000 for Berlin in winter). */
export const utcOffsetAt = (timezone: string, ms: number): number => {
  const quarter = Math.floor(ms / QUARTER_HOUR_MS)
  const key = `${timezone} ${quarter}`
  const known = knownOffsets.get(key)
  if (known !== undefined) return known
  const start = quarter * QUARTER_HOUR_MS
  const atStart = measuredOffset(timezone, start)
  if (measuredOffset(timezone, start + QUARTER_HOUR_MS - 1) !== atStart) return measuredOffset(timezone, ms)
  if (knownOffsets.size >= 20_000) knownOffsets.clear()
  knownOffsets.set(key, atStart)
  return atStart
}

const wallClockAt = (timezone: string, ms: number): WallClock => {
  const local = new Date(wholeSecondOf(ms) + utcOffsetAt(timezone, ms))
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds()
  }
}

/**
 * The instant at which the wall clock of `timezone` shows `minuteOfDay` on `date`.
 * An ambiguous time (clocks turned back) maps to its first occurrence; a time that
 * does not exist (clocks turned forward over it) maps to the first valid instant
 * after it, which is the instant of the change.
 */
export const instantOfLocalTime = (timezone: string, date: CivilDate, minuteOfDay: number): number => {
  const wall = utcOfWallClock({ ...date, hour: 0, minute: 0, second: 0 }) + minuteOfDay * MINUTE_MS
  // Offsets around the wall time; no zone changes its offset twice within two days.
  const offsets = [...new Set([wall - DAY_MS, wall, wall + DAY_MS].map((ms) => utcOffsetAt(timezone, ms)))]
  const matches = offsets
    .map((offset) => wall - offset)
    .filter((candidate) => candidate + utcOffsetAt(timezone, candidate) === wall)
  if (matches.length > 0) return Math.min(...matches)
  // Skipped time: search the change between the instants the two offsets point at.
  let before = wall - Math.max(...offsets)
  let after = wall - Math.min(...offsets)
  while (after - before > 1) {
    const middle = Math.floor((before + after) / 2)
    if (middle + utcOffsetAt(timezone, middle) < wall) before = middle
    else after = middle
  }
  return after
}

/** The local calendar date at `ms` in `timezone`. */
export const civilDateAt = (timezone: string, ms: number): CivilDate => {
  const { day, month, year } = wallClockAt(timezone, ms)
  return { year, month, day }
}

const civilDateOfUtc = (ms: number): CivilDate => {
  const date = new Date(ms)
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() }
}

const utcMidnightOf = (date: CivilDate): number => utcOfWallClock({ ...date, hour: 0, minute: 0, second: 0 })

/** `date` moved by `days` calendar days. */
export const addDays = (date: CivilDate, days: number): CivilDate => civilDateOfUtc(utcMidnightOf(date) + days * DAY_MS)

/** Calendar days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: CivilDate, to: CivilDate): number =>
  Math.round((utcMidnightOf(to) - utcMidnightOf(from)) / DAY_MS)

/** The ISO weekday of a calendar date: 1 = Monday ... 7 = Sunday. */
export const isoWeekdayOf = (date: CivilDate): number => {
  const sundayZero = new Date(utcMidnightOf(date)).getUTCDay()
  return sundayZero === 0 ? 7 : sundayZero
}

/** A calendar date as `YYYY-MM-DD`. */
export const formatCivilDate = (date: CivilDate): string =>
  `${String(date.year).padStart(4, "0")}-${String(date.month).padStart(2, "0")}-${String(date.day).padStart(2, "0")}`

/** The local date at `nowMs` in `timezone`, as `YYYY-MM-DD`. */
export const localDate = (timezone: string, nowMs: number): string => formatCivilDate(civilDateAt(timezone, nowMs))

/** The first instant of the local day containing `nowMs` (local midnight, or the first valid instant after it). */
export const startOfLocalDay = (timezone: string, nowMs: number): number =>
  instantOfLocalTime(timezone, civilDateAt(timezone, nowMs), 0)

/** The first instant of the local day after the one containing `nowMs`. */
export const startOfNextLocalDay = (timezone: string, nowMs: number): number =>
  instantOfLocalTime(timezone, addDays(civilDateAt(timezone, nowMs), 1), 0)

/** The first instant of the local ISO week (Monday 00:00) containing `nowMs`. */
export const startOfLocalWeek = (timezone: string, nowMs: number): number => {
  const today = civilDateAt(timezone, nowMs)
  return instantOfLocalTime(timezone, addDays(today, 1 - isoWeekdayOf(today)), 0)
}

/** The first instant of the next local ISO week (the coming Monday 00:00). */
export const startOfNextLocalWeek = (timezone: string, nowMs: number): number => {
  const today = civilDateAt(timezone, nowMs)
  return instantOfLocalTime(timezone, addDays(today, 8 - isoWeekdayOf(today)), 0)
}

/** The first instant of the local calendar month containing `nowMs`. */
export const startOfLocalMonth = (timezone: string, nowMs: number): number => {
  const today = civilDateAt(timezone, nowMs)
  return instantOfLocalTime(timezone, { year: today.year, month: today.month, day: 1 }, 0)
}

/** The first instant of the next local calendar month. */
export const startOfNextLocalMonth = (timezone: string, nowMs: number): number => {
  const today = civilDateAt(timezone, nowMs)
  const next = today.month === 12 ? { year: today.year + 1, month: 1 } : { year: today.year, month: today.month + 1 }
  return instantOfLocalTime(timezone, { ...next, day: 1 }, 0)
}

// ---------------------------------------------------------------------------
// Working windows
// ---------------------------------------------------------------------------

/** One working window: `[start, end)` in epoch milliseconds. */
export interface Window {
  readonly start: number
  readonly end: number
}

/** Hours as the window rules need them; both the input and the output form fit. */
export type Hours = Pick<WorkingHours, "days" | "from" | "to" | "timezone">

/**
 * The window of a local date, or null when the date is not a working day, or the
 * whole window falls into an hour the clocks skip.
 */
export const windowOn = (hours: Hours, date: CivilDate): Window | null => {
  if (!hours.days.includes(isoWeekdayOf(date))) return null
  const start = instantOfLocalTime(hours.timezone, date, minutesOfDay(hours.from))
  const end = instantOfLocalTime(hours.timezone, date, minutesOfDay(hours.to))
  return end > start ? { start, end } : null
}

/** Whether the account works at `nowMs`: `from` inclusive, `to` exclusive, on a listed weekday. */
export const isOpen = (hours: Hours, nowMs: number): boolean => currentWindowEnd(hours, nowMs) !== null

/** The end of the window the account is in at `nowMs`, or null when it is closed. */
export const currentWindowEnd = (hours: Hours, nowMs: number): number | null => {
  // Windows never cross local midnight, so only today's can contain now.
  const window = windowOn(hours, civilDateAt(hours.timezone, nowMs))
  return window !== null && window.start <= nowMs && nowMs < window.end ? window.end : null
}

// Two weeks hold every weekday twice; a weekday's window vanishes at most on one DST day a year.
const SEARCH_DAYS = 15

/**
 * The start of the first window that begins strictly after `afterMs`, for a
 * scheduler (a job parked outside hours waits until then). While a window is
 * open this is the start of the following one.
 */
export const nextWindowStart = (hours: Hours, afterMs: number): number => {
  const today = civilDateAt(hours.timezone, afterMs)
  for (let offset = 0; offset <= SEARCH_DAYS; offset++) {
    const window = windowOn(hours, addDays(today, offset))
    if (window !== null && window.start > afterMs) return window.start
  }
  // Unreachable for decoded hours (`days` is non-empty); a defect if it happens.
  throw new Error(`no working window within ${SEARCH_DAYS} days of ${new Date(afterMs).toISOString()}`)
}

/**
 * The `nextOpening` of the output form: null while the account is open at `nowMs`,
 * otherwise the start of the next window.
 */
export const nextOpening = (hours: Hours, nowMs: number): number | null =>
  isOpen(hours, nowMs) ? null : nextWindowStart(hours, nowMs)

/** The output form of working hours at `nowMs`. */
export const toView = (hours: WorkingHours, nowMs: number): WorkingHoursView => {
  const opening = nextOpening(hours, nowMs)
  return {
    days: hours.days,
    from: hours.from,
    to: hours.to,
    timezone: hours.timezone,
    openNow: opening === null,
    nextOpening: opening === null ? null : new Date(opening).toISOString()
  }
}
