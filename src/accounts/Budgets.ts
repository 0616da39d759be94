/**
 * An account's budgets as stored: its `PUT /limits` overrides, and what it
 * has spent of each category in its current local day, ISO week and month
 * (the `budget_spend` rows written when jobs run). The one module with SQL
 * on `account_limits` and `budget_spend` (issue #19): jobs and syncs record
 * their spend here, inside their own transaction.
 *
 * @since 1.0.0
 */
import { Array as Arr, Effect, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import { Category, type LimitOverride, periodStart, type Usage } from "../domain/Limits.ts"
import * as Time from "../domain/Time.ts"
import { BigIntNumber } from "../platform/Rows.ts"
import { LimitRow } from "./AccountRow.ts"

const decodeOverrides = Schema.decodeUnknownEffect(Schema.Array(LimitRow))

/** The account's `PUT /limits` overrides. */
export const limitOverridesOf = (
  sql: SqlClient.SqlClient,
  accountId: string
): Effect.Effect<ReadonlyArray<LimitOverride>> =>
  sql`SELECT category, period, max_value AS "maxValue", is_enabled AS "isEnabled"
      FROM account_limits WHERE account_id = ${accountId}`.pipe(Effect.flatMap(decodeOverrides), Effect.orDie)

/** Replaces the account's `PUT /limits` overrides with these (none: the defaults hold again). */
export const replaceLimitOverrides = (
  sql: SqlClient.SqlClient,
  accountId: string,
  overrides: ReadonlyArray<LimitOverride>
): Effect.Effect<void> =>
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
  }).pipe(Effect.orDie)

const UsageRow = Schema.Struct({ category: Category, today: BigIntNumber, week: BigIntNumber, month: BigIntNumber })
const decodeUsage = Schema.decodeUnknownEffect(Schema.Array(UsageRow))

/** The account's usage at `nowMs`, periods taken in its `timezone`. */
export const usageOf = (sql: SqlClient.SqlClient, accountId: string, timezone: string, nowMs: number) => {
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
    GROUP BY category`.pipe(
    Effect.flatMap(decodeUsage),
    Effect.map((rows) => {
      const usage: { [C in Category]?: { today: number; week: number; month: number } } = {}
      for (const row of rows) usage[row.category] = { today: row.today, week: row.week, month: row.month }
      const result: Usage = usage
      return result
    }),
    Effect.orDie
  )
}

/** Records units spent by the account (by a job, or by the service's own work when `jobId` is null). */
export const recordSpend = (
  sql: SqlClient.SqlClient,
  spend: {
    readonly accountId: string
    readonly category: Category
    readonly units: number
    readonly jobId: string | null
    readonly atIso: string
  }
): Effect.Effect<void> =>
  sql`
    INSERT INTO budget_spend (account_id, category, units, job_id, spent_at)
    VALUES (${spend.accountId}, ${spend.category}, ${spend.units}, ${spend.jobId}, ${spend.atIso}::timestamptz)`.pipe(
    Effect.asVoid,
    Effect.orDie
  )
