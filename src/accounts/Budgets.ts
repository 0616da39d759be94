/**
 * An account's budgets as stored: its `PUT /limits` overrides, and what it
 * has spent of each category in its current local day, ISO week and month
 * (the `budget_spend` rows written when jobs run). The one module with SQL
 * on `account_limits` and `budget_spend` (issue #19): jobs and syncs record
 * their spend through the `Budgets` service, each statement joining the
 * caller's transaction when there is one (a job's ending, a sync).
 * Planning reads an account's budget with `budgetOf`, handed `sql` as it is
 * with the account's row (`jobs/AccountFacts.ts`).
 */
import { Array as Arr, Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Category, type LimitOverride, periodStart, type Usage } from "../domain/Limits.ts"
import * as Time from "../domain/Time.ts"
import { BigIntNumber } from "../platform/Rows.ts"
import { LimitRow } from "./AccountRow.ts"

const decodeOverrides = Schema.decodeUnknownEffect(Schema.Array(LimitRow))

const UsageRow = Schema.Struct({ category: Category, today: BigIntNumber, week: BigIntNumber, month: BigIntNumber })
const decodeUsage = Schema.decodeUnknownEffect(Schema.Array(UsageRow))

/** The statement grouping the account's spend by category over its day, week and month at `nowMs`. */
const usageRows = (sql: SqlClient.SqlClient, accountId: string, timezone: string, nowMs: number) => {
  const day = Time.toIso(periodStart("daily", timezone, nowMs))
  const week = Time.toIso(periodStart("weekly", timezone, nowMs))
  const month = Time.toIso(periodStart("monthly", timezone, nowMs))
  const since = week < month ? week : month
  return sql`
    SELECT category,
      COALESCE(SUM(units) FILTER (WHERE spent_at >= ${day}::timestamptz), 0) AS today,
      COALESCE(SUM(units) FILTER (WHERE spent_at >= ${week}::timestamptz), 0) AS week,
      COALESCE(SUM(units) FILTER (WHERE spent_at >= ${month}::timestamptz), 0) AS month
    FROM budget_spend WHERE account_id = ${accountId} AND spent_at >= ${since}::timestamptz
    GROUP BY category`
}

const toUsage = (rows: ReadonlyArray<typeof UsageRow.Type>): Usage => {
  const usage: { [C in Category]?: { today: number; week: number; month: number } } = {}
  for (const row of rows) usage[row.category] = { today: row.today, week: row.week, month: row.month }
  return usage
}

const Budget = Schema.Struct({ overrides: Schema.Array(LimitRow), usage: Schema.Array(UsageRow) })
const decodeBudgets = Schema.decodeUnknownEffect(Schema.Array(Budget))

/** The account's overrides and its usage at `nowMs` together, in one statement (the Governor plans each job from them). */
export const budgetOf = (sql: SqlClient.SqlClient, accountId: string, timezone: string, nowMs: number) =>
  sql`
    SELECT
      (SELECT COALESCE(json_agg(json_build_object(
          'category', category, 'period', period, 'maxValue', max_value, 'isEnabled', is_enabled)), '[]'::json)
        FROM account_limits WHERE account_id = ${accountId}) AS overrides,
      (SELECT COALESCE(json_agg(u), '[]'::json) FROM (${usageRows(sql, accountId, timezone, nowMs)}) u) AS usage`.pipe(
    Effect.flatMap(decodeBudgets),
    Effect.map((rows) => ({
      overrides: rows[0]?.overrides ?? [],
      usage: toUsage(rows[0]?.usage ?? [])
    })),
    Effect.orDie
  )

/** A budget spent by an account (by a job, or by the service's own work when `jobId` is null). */
export interface Spend {
  readonly accountId: string
  readonly category: Category
  readonly units: number
  readonly jobId: string | null
  readonly atIso: string
}

/** The account's limit overrides, its usage, and the budgets its jobs and syncs spend. */
export class Budgets extends Context.Service<Budgets, {
  /** The account's `PUT /limits` overrides. */
  readonly overridesOf: (accountId: string) => Effect.Effect<ReadonlyArray<LimitOverride>>
  /** Replaces the account's `PUT /limits` overrides with these (none: the defaults hold again). */
  readonly replaceOverrides: (accountId: string, overrides: ReadonlyArray<LimitOverride>) => Effect.Effect<void>
  /** The account's usage at `nowMs`, periods taken in its `timezone`. */
  readonly usageOf: (accountId: string, timezone: string, nowMs: number) => Effect.Effect<Usage>
  /** Records units spent, in one statement. */
  readonly recordSpends: (spends: ReadonlyArray<Spend>) => Effect.Effect<void>
  /** Records units spent by the account. */
  readonly recordSpend: (spend: Spend) => Effect.Effect<void>
}>()("outreach/Budgets") {
  /** Needs the `SqlClient`. */
  static readonly layer = Layer.effect(
    Budgets,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const recordSpends = (spends: ReadonlyArray<Spend>): Effect.Effect<void> =>
        Arr.isReadonlyArrayNonEmpty(spends)
          ? sql`INSERT INTO budget_spend ${
            sql.insert(Arr.map(spends, (spend) => ({
              account_id: spend.accountId,
              category: spend.category,
              units: spend.units,
              job_id: spend.jobId,
              spent_at: spend.atIso
            })))
          }`.pipe(Effect.asVoid, Effect.orDie)
          : Effect.void

      return Budgets.of({
        overridesOf: (accountId) =>
          sql`SELECT category, period, max_value AS "maxValue", is_enabled AS "isEnabled"
              FROM account_limits WHERE account_id = ${accountId}`.pipe(Effect.flatMap(decodeOverrides), Effect.orDie),

        replaceOverrides: (accountId, overrides) =>
          Effect.gen(function*() {
            yield* sql`DELETE FROM account_limits WHERE account_id = ${accountId}`
            const rows = overrides.map((o) => ({
              account_id: accountId,
              category: o.category,
              period: o.period,
              max_value: o.maxValue,
              is_enabled: o.isEnabled
            }))
            if (Arr.isArrayNonEmpty(rows)) yield* sql`INSERT INTO account_limits ${sql.insert(rows)}`
          }).pipe(Effect.orDie),

        usageOf: (accountId, timezone, nowMs) =>
          usageRows(sql, accountId, timezone, nowMs).pipe(Effect.flatMap(decodeUsage), Effect.map(toUsage), Effect.orDie),

        recordSpends,

        recordSpend: (spend) => recordSpends([spend])
      })
    })
  )
}
