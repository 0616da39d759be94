/**
 * What planning needs to know of an account at the Clock's now: its row, and
 * the plan's view of it (effective status, hours, limits in force, scaling,
 * usage, pacing gate). The Governor plans jobs from it; the inbox plans its
 * syncs from it.
 *
 * What is read from the database (`LoadedFacts`) is apart from the view at an
 * instant (`factsAt`), so an account's actor can keep what it read for a
 * moment, and count its own jobs' spend into it, instead of reading it again
 * for every job.
 */
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { scalingAt, statusAt, workingHoursOf } from "../accounts/AccountRow.ts"
import { planRowOf, type PlanRow } from "../accounts/AccountStore.ts"
import { budgetOf } from "../accounts/Budgets.ts"
import { type Category, type LimitOverride, limitsFor, periodStart, type Usage, type UsageCounts } from "../domain/Limits.ts"
import * as Time from "../domain/Time.ts"
import type { PlanInput } from "./Plan.ts"

export type { PlanRow }

/** What planning reads of an account from the database: its row, its limit overrides and its usage. */
export interface LoadedFacts {
  readonly row: PlanRow
  readonly overrides: ReadonlyArray<LimitOverride>
  /** Usage counted from the start of `dayStart`'s local day (and its week and month). */
  readonly usage: Usage
  /** The start (epoch ms) of the account's local day the usage was counted in. */
  readonly dayStart: number
}

/** Reads what planning needs of the account at `nowMs`, in two statements; undefined once it is removed. */
export const loadFacts = (sql: SqlClient.SqlClient, accountId: string, nowMs: number) =>
  Effect.gen(function*() {
    const row = yield* planRowOf(sql, accountId)
    if (row === undefined) return undefined
    const { overrides, usage } = yield* budgetOf(sql, accountId, row.timezone, nowMs)
    const loaded: LoadedFacts = { row, overrides, usage, dayStart: periodStart("daily", row.timezone, nowMs) }
    return loaded
  })

/** Whether facts loaded earlier still count the usage of the account's local day at `nowMs`. */
export const sameDay = (loaded: LoadedFacts, nowMs: number) =>
  periodStart("daily", loaded.row.timezone, nowMs) === loaded.dayStart

/** The plan's view of the account at `nowMs`, from facts loaded on the same local day. */
export const factsAt = (loaded: LoadedFacts, nowMs: number) => {
  const { row } = loaded
  const account: PlanInput["account"] = {
    status: statusAt(row, nowMs),
    readsOnlyUntil: row.readsOnlyUntil,
    hours: workingHoursOf(row),
    offHoursPolicy: row.offHoursPolicy,
    limits: limitsFor(row.tier, loaded.overrides),
    factors: scalingAt(row, nowMs),
    usage: loaded.usage,
    writesNotBefore: row.writesNotBefore
  }
  return { row, account, nowMs }
}

/** The account's facts now; undefined once it is removed. */
export const accountFacts = (sql: SqlClient.SqlClient, accountId: string) =>
  Effect.gen(function*() {
    const now = yield* Time.now
    const loaded = yield* loadFacts(sql, accountId, now.ms)
    return loaded === undefined ? undefined : factsAt(loaded, now.ms)
  })

/** The facts after the account's own job spent `units` of `category` and (a write) set its pacing gate. */
export const afterJob = (
  loaded: LoadedFacts,
  spend: { readonly category: Category; readonly units: number } | null,
  writesNotBefore: number | null
): LoadedFacts => {
  const spent = spend === null ? undefined : loaded.usage[spend.category]
  return {
    ...loaded,
    row: writesNotBefore === null ? loaded.row : { ...loaded.row, writesNotBefore },
    usage: spend === null ? loaded.usage : {
      ...loaded.usage,
      [spend.category]: {
        today: (spent?.today ?? 0) + spend.units,
        week: (spent?.week ?? 0) + spend.units,
        month: (spent?.month ?? 0) + spend.units
      }
    }
  }
}

/**
 * The facts carried into the local day of `nowMs`: the usage of each period that has turned since they
 * were loaded starts again from nothing, as a new load would count it. The forecast moves time forward
 * with it; the Governor loads the facts again instead.
 */
export const rolledOver = (loaded: LoadedFacts, nowMs: number): LoadedFacts => {
  if (sameDay(loaded, nowMs)) return loaded
  const { timezone } = loaded.row
  const turned = (period: "weekly" | "monthly") => periodStart(period, timezone, nowMs) !== periodStart(period, timezone, loaded.dayStart)
  const newWeek = turned("weekly")
  const newMonth = turned("monthly")
  const usage: Record<string, UsageCounts> = {}
  for (const [category, counts] of Object.entries(loaded.usage)) {
    if (counts !== undefined) {
      usage[category] = { today: 0, week: newWeek ? 0 : counts.week, month: newMonth ? 0 : counts.month }
    }
  }
  return { ...loaded, usage, dayStart: periodStart("daily", timezone, nowMs) }
}
