/**
 * Account budgets: the limit categories and periods, the one tier table of
 * defaults and ceilings, which command spends which category, the `PUT /limits`
 * rules (capped at the tier ceiling, lower values always kept) and the scaling
 * rule: effective limit = floor(min(user limit, tier ceiling) x warm-up factor x
 * health factor). Pure.
 */
import { Result, Schema } from "effect"
import {
  startOfLocalDay,
  startOfLocalMonth,
  startOfLocalWeek,
  startOfNextLocalDay,
  startOfNextLocalMonth,
  startOfNextLocalWeek
} from "./WorkingHours.ts"

// ---------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------

/** The twelve limit categories. */
export const categories = [
  "invites",
  "messages",
  "inmails",
  "profile_views",
  "company_views",
  "search_rows",
  "comments",
  "reactions",
  "posts",
  "endorsements",
  "invite_withdrawals",
  "list_polls"
] as const

/** A limit category. */
export const Category = Schema.Literals(categories).annotate({ description: "Limit category" })
export type Category = typeof Category.Type

/** The periods a limit counts over; days, weeks (from Monday) and months are local to the account's time zone. */
export const periods = ["daily", "weekly", "monthly"] as const

/** A limit period. */
export const Period = Schema.Literals(periods).annotate({ description: "Limit period, in the account's time zone" })
export type Period = typeof Period.Type

/** Account tiers on the network. */
export const tiers = ["free", "premium", "sales_nav", "recruiter"] as const

/** An account tier. */
export const Tier = Schema.Literals(tiers).annotate({ description: "The account's plan on the network" })
export type Tier = typeof Tier.Type

/** Health levels; they scale write budgets (see {@link healthFactor}). */
export const HealthLevel = Schema.Literals(["green", "yellow", "red"]).annotate({
  description: "green: budgets x1; yellow: x0.5; red: no writes"
})
export type HealthLevel = typeof HealthLevel.Type

/** The budget factor of a health level: green 1, yellow 0.5, red 0 (no writes). */
export const healthFactor = (level: HealthLevel): number => {
  switch (level) {
    case "green":
      return 1
    case "yellow":
      return 0.5
    case "red":
      return 0
  }
}

// ---------------------------------------------------------------------------
// The tier table
// ---------------------------------------------------------------------------

/** A default and a ceiling for one tier. */
export interface Bound {
  readonly default: number
  readonly ceiling: number
}

/** One row of the tier table: a category and period, with a bound for every tier and the reason for the numbers. */
export interface TierTableRow {
  readonly category: Category
  readonly period: Period
  readonly bounds: { readonly [T in Tier]: Bound }
  readonly reason: string
}

type Pair = readonly [defaultValue: number, ceiling: number]

const row = (
  category: Category,
  period: Period,
  [free, premium, salesNav, recruiter]: readonly [Pair, Pair, Pair, Pair],
  reason: string
): TierTableRow => {
  const bound = ([defaultValue, ceiling]: Pair): Bound => ({ default: defaultValue, ceiling })
  return {
    category,
    period,
    bounds: { free: bound(free), premium: bound(premium), sales_nav: bound(salesNav), recruiter: bound(recruiter) },
    reason
  }
}

/**
 * Defaults and ceilings per category and period, as `[default, ceiling]` for
 * free, premium, sales_nav and recruiter. The single source of these numbers;
 * `reason` says where each row comes from (and is what the docs show).
 */
export const tierTable: ReadonlyArray<TierTableRow> = [
  row("invites", "daily", [[15, 25], [20, 40], [25, 40], [25, 40]],
    "The weekly cap spread over five working days; peers keep to 20 to 25 a day."),
  row("invites", "weekly", [[80, 100], [100, 200], [100, 200], [100, 200]],
    "LinkedIn caps invitations at roughly 100 to 200 a week; free accounts sit at the low end."),
  row("messages", "daily", [[40, 100], [50, 150], [60, 150], [80, 150]],
    "Messages to connections are not capped by the network, but bursts read as automation; paid seats message more."),
  row("messages", "weekly", [[200, 500], [250, 750], [300, 750], [400, 750]],
    "Five working days of the daily figures: binds only when working hours include weekends."),
  row("inmails", "monthly", [[0, 0], [5, 15], [50, 150], [30, 120]],
    "InMail credits a month: none on free, Premium 5, Sales Navigator 50, Recruiter Lite 30; ceilings are the credits rolled over for up to 3 months."),
  row("profile_views", "daily", [[50, 80], [80, 150], [100, 150], [100, 150]],
    "Peers recommend about 80 to 100 profile views a day; free accounts meet the commercial use limit sooner."),
  row("company_views", "daily", [[30, 60], [50, 100], [80, 150], [80, 150]],
    "Company pages are looked up less often than people; kept below profile views."),
  row("search_rows", "daily", [[300, 1000], [500, 1000], [1000, 2500], [1000, 2500]],
    "Rows returned by searches; Sales Navigator and Recruiter show up to 2,500 results per search."),
  row("search_rows", "monthly", [[3000, 3000], [10000, 20000], [20000, 50000], [20000, 50000]],
    "Free accounts meet the commercial use limit after about 300 searches a month (10 rows each); paid tiers get 20 working days of the daily figures."),
  row("comments", "daily", [[20, 30], [25, 50], [25, 50], [25, 50]],
    "Comments are public and read by people; peers keep to 20 to 30 a day."),
  row("reactions", "daily", [[40, 100], [50, 100], [50, 100], [50, 100]],
    "Cheap to send, but bursts of reactions are a known automation signal; peers suggest 50 to 100."),
  row("posts", "daily", [[2, 5], [2, 5], [2, 5], [2, 5]],
    "One or two posts a day is ordinary; more is rarely organic and the network throttles reach."),
  row("endorsements", "daily", [[20, 40], [20, 40], [20, 40], [20, 40]],
    "Every endorsement notifies the person; peers keep to 20 to 40 a day."),
  row("invite_withdrawals", "daily", [[20, 50], [30, 80], [30, 80], [30, 80]],
    "Enough to withdraw a week of invitations over a working week (automatic withdrawal after 21 days) without a mass clean-up."),
  row("list_polls", "daily", [[300, 1000], [300, 1000], [300, 1000], [300, 1000]],
    "Polling chats and invitations: 300 is one poll every 5 minutes around the clock; the ceiling stops runaway loops.")
]

/** The tier table's bound for a category and period, or undefined when no such limit exists. */
export const tierBound = (tier: Tier, category: Category, period: Period): Bound | undefined =>
  tierTable.find((entry) => entry.category === category && entry.period === period)?.bounds[tier]

// ---------------------------------------------------------------------------
// How a category is spent (which command spends which: `Commands.ts`, its catalogue)
// ---------------------------------------------------------------------------

/** Whether a category is spent per row returned (searches) rather than per job. */
export const isCountedPerRow = (category: Category): boolean => category === "search_rows"

// ---------------------------------------------------------------------------
// Limit records and PUT /limits
// ---------------------------------------------------------------------------

const NonNegativeInt = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { message: "must be an integer of 0 or more" }))

/** Where the limit in force comes from. */
export const LimitSource = Schema.Literals(["default", "user"])
export type LimitSource = typeof LimitSource.Type

/** A limit record of `GET /limits`. */
export const Limit = Schema.Struct({
  category: Category,
  period: Period,
  default: NonNegativeInt.annotate({ description: "The service's default for the tier" }),
  ceiling: NonNegativeInt.annotate({ description: "Maximum for the account's tier" }),
  maxValue: NonNegativeInt.annotate({
    description: "The limit in force, before warm-up and health scale it down"
  }),
  isEnabled: Schema.Boolean.annotate({ description: "false switches the category off for this period: nothing of it runs" }),
  source: LimitSource
}).annotate({
  identifier: "Limit",
  examples: [{
    category: "invites",
    period: "weekly",
    default: 100,
    ceiling: 200,
    maxValue: 150,
    isEnabled: true,
    source: "user"
  }]
})
export type Limit = typeof Limit.Type

/** The most items a `PUT /limits` body may hold: one per category and period. */
export const MAX_LIMIT_UPDATES = categories.length * periods.length

/** One item of a `PUT /limits` body. */
export const LimitUpdate = Schema.Struct({
  category: Category,
  period: Period,
  maxValue: NonNegativeInt.check(Schema.isLessThanOrEqualTo(2_147_483_647)).annotate({
    description: "New limit, 0 to 2147483647; values above the tier ceiling are capped"
  }),
  isEnabled: Schema.optionalKey(Schema.Boolean)
}).annotate({ identifier: "LimitUpdate" })
export type LimitUpdate = typeof LimitUpdate.Type

/** A user's stored setting for one category and period (what `PUT /limits` saved, already capped). */
export const LimitOverride = Schema.Struct({
  category: Category,
  period: Period,
  maxValue: NonNegativeInt,
  isEnabled: Schema.Boolean
}).annotate({ identifier: "LimitOverride" })
export type LimitOverride = typeof LimitOverride.Type

/** A category and period that the tier table does not have. */
export interface UnknownLimit {
  readonly category: Category
  readonly period: Period
}

/** A requested value capped at the tier ceiling; lower values are kept as they are. */
export const capAtCeiling = (requested: number, ceiling: number): number => Math.min(requested, ceiling)

/**
 * The limit records of an account: one per row of the tier table, with the
 * user's override where there is one. Overrides are capped again here, so a
 * downgrade to a tier with a lower ceiling takes effect without rewriting them.
 */
export const limitsFor = (tier: Tier, overrides: ReadonlyArray<LimitOverride>): ReadonlyArray<Limit> =>
  tierTable.map((entry): Limit => {
    const bound = entry.bounds[tier]
    const override = overrides.find((item) => item.category === entry.category && item.period === entry.period)
    return override === undefined
      ? {
        category: entry.category,
        period: entry.period,
        default: bound.default,
        ceiling: bound.ceiling,
        maxValue: bound.default,
        isEnabled: true,
        source: "default"
      }
      : {
        category: entry.category,
        period: entry.period,
        default: bound.default,
        ceiling: bound.ceiling,
        maxValue: capAtCeiling(override.maxValue, bound.ceiling),
        isEnabled: override.isEnabled,
        source: "user"
      }
  })

/**
 * Applies a `PUT /limits` body to the stored overrides: each value is capped at
 * the tier ceiling (lower values always kept) and marked as the user's; an
 * omitted `isEnabled` keeps the current setting (true for a limit never set).
 * A later item for the same category and period wins. Fails with every
 * category and period the tier table does not have, changing nothing.
 */
export const applyLimitUpdates = (
  tier: Tier,
  overrides: ReadonlyArray<LimitOverride>,
  updates: ReadonlyArray<LimitUpdate>
): Result.Result<ReadonlyArray<LimitOverride>, ReadonlyArray<UnknownLimit>> => {
  const unknown = updates
    .filter((update) => tierBound(tier, update.category, update.period) === undefined)
    .map(({ category, period }) => ({ category, period }))
  if (unknown.length > 0) return Result.fail(unknown)
  let next = overrides
  for (const update of updates) {
    const bound = tierBound(tier, update.category, update.period)
    if (bound === undefined) continue
    const samePair = (item: LimitOverride) => item.category === update.category && item.period === update.period
    const current = next.find(samePair)
    const replacement: LimitOverride = {
      category: update.category,
      period: update.period,
      maxValue: capAtCeiling(update.maxValue, bound.ceiling),
      isEnabled: update.isEnabled ?? current?.isEnabled ?? true
    }
    next = [...next.filter((item) => !samePair(item)), replacement]
  }
  return Result.succeed(next)
}

// ---------------------------------------------------------------------------
// Scaling and budgets
// ---------------------------------------------------------------------------

/** What scales limits down at a given moment. */
export interface ScalingFactors {
  /** 0.2 to 1, from the warm-up ramp. */
  readonly warmupFactor: number
  /** 1, 0.5 or 0, from the health level. */
  readonly healthFactor: number
}

/**
 * The effective limit: floor(min(user limit, tier ceiling) x warm-up factor x
 * health factor), never below 0.
 */
export const effectiveLimit = (input: {
  readonly userLimit: number
  readonly ceiling: number
  readonly warmupFactor: number
  readonly healthFactor: number
}): number => {
  const scaled = Math.min(input.userLimit, input.ceiling) * input.warmupFactor * input.healthFactor
  // The tolerance absorbs binary error (0.57 x 100 is 56.99999...) so exact products are not rounded down a whole unit.
  return Math.max(0, Math.floor(scaled + 1e-9))
}

/** How many actions a limit record allows in its period under the given factors; 0 when it is switched off. */
export const allowance = (limit: Limit, factors: ScalingFactors): number =>
  limit.isEnabled
    ? effectiveLimit({
      userLimit: limit.maxValue,
      ceiling: limit.ceiling,
      warmupFactor: factors.warmupFactor,
      healthFactor: factors.healthFactor
    })
    : 0

/** Units of a category spent so far in the current local day, ISO week and month. */
export interface UsageCounts {
  readonly today: number
  readonly week: number
  readonly month: number
}

/** Usage per category; a missing category has spent nothing. */
export type Usage = { readonly [C in Category]?: UsageCounts }

const noUsage: UsageCounts = { today: 0, week: 0, month: 0 }

const spentIn = (counts: UsageCounts, period: Period): number => {
  switch (period) {
    case "daily":
      return counts.today
    case "weekly":
      return counts.week
    case "monthly":
      return counts.month
  }
}

/** What is left of one limit record in its current period. */
export const leftOf = (limit: Limit, factors: ScalingFactors, usage: Usage): number =>
  Math.max(0, allowance(limit, factors) - spentIn(usage[limit.category] ?? noUsage, limit.period))

/** Budget left for one category. */
export const Budget = Schema.Struct({
  today: NonNegativeInt.annotate({
    description: "How many more can run today: the least left of the daily, weekly and monthly limits"
  }),
  week: Schema.NullOr(NonNegativeInt).annotate({
    description: "How many more can run this week (Monday to Sunday, local): the least left of the weekly and monthly limits; null when the category has no weekly limit"
  })
}).annotate({ identifier: "Budget" })
export type Budget = typeof Budget.Type

/** The account's `budgets`: budget left today and this week, for every category. */
export const Budgets = Schema.Record(Category, Budget).annotate({
  identifier: "Budgets",
  description: "Budget left today and this week, per limit category, after warm-up and health scaling"
})
export type Budgets = typeof Budgets.Type

const minimumOf = (values: ReadonlyArray<number>): number => values.reduce((least, value) => Math.min(least, value))

/**
 * The budget of one category from the limits in force: `today` is the least left
 * of all its limits (a full week or month stops today too), `week` the least left
 * of its weekly and monthly limits, null when it has no weekly limit. A category
 * with no limit record at all has nothing left.
 */
export const budgetOf = (
  category: Category,
  limits: ReadonlyArray<Limit>,
  factors: ScalingFactors,
  usage: Usage
): Budget => {
  const own = limits.filter((limit) => limit.category === category)
  if (own.length === 0) return { today: 0, week: null }
  const weekly = own.filter((limit) => limit.period !== "daily")
  const hasWeekly = own.some((limit) => limit.period === "weekly")
  return {
    today: minimumOf(own.map((limit) => leftOf(limit, factors, usage))),
    week: hasWeekly ? minimumOf(weekly.map((limit) => leftOf(limit, factors, usage))) : null
  }
}

/** The account's `budgets` map, for every category. */
export const budgetsLeft = (limits: ReadonlyArray<Limit>, factors: ScalingFactors, usage: Usage): Budgets => {
  const entry = (category: Category): Budget => budgetOf(category, limits, factors, usage)
  return {
    invites: entry("invites"),
    messages: entry("messages"),
    inmails: entry("inmails"),
    profile_views: entry("profile_views"),
    company_views: entry("company_views"),
    search_rows: entry("search_rows"),
    comments: entry("comments"),
    reactions: entry("reactions"),
    posts: entry("posts"),
    endorsements: entry("endorsements"),
    invite_withdrawals: entry("invite_withdrawals"),
    list_polls: entry("list_polls")
  }
}

/**
 * The periods of a category that cannot take `units` more (the job must wait
 * for each of them to roll over); empty when it fits.
 */
export const fullPeriods = (
  category: Category,
  units: number,
  limits: ReadonlyArray<Limit>,
  factors: ScalingFactors,
  usage: Usage
): ReadonlyArray<Period> =>
  limits
    .filter((limit) => limit.category === category && leftOf(limit, factors, usage) < units)
    .map((limit) => limit.period)

/** The first instant of the current period in `timezone` (day, Monday-based ISO week, month); usage counts from there. */
export const periodStart = (period: Period, timezone: string, nowMs: number): number => {
  switch (period) {
    case "daily":
      return startOfLocalDay(timezone, nowMs)
    case "weekly":
      return startOfLocalWeek(timezone, nowMs)
    case "monthly":
      return startOfLocalMonth(timezone, nowMs)
  }
}

/** The first instant of the next period in `timezone`, when a full budget of that period refills. */
export const nextPeriodStart = (period: Period, timezone: string, nowMs: number): number => {
  switch (period) {
    case "daily":
      return startOfNextLocalDay(timezone, nowMs)
    case "weekly":
      return startOfNextLocalWeek(timezone, nowMs)
    case "monthly":
      return startOfNextLocalMonth(timezone, nowMs)
  }
}
