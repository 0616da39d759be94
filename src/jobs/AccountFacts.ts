/**
 * What planning needs to know of an account at the Clock's now: its row, and
 * the plan's view of it (effective status, hours, limits in force, scaling,
 * usage, pacing gate). The Governor plans jobs from it; the inbox plans its
 * syncs from it.
 *
 * @since 1.0.0
 */
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { scalingAt, statusAt, workingHoursOf } from "../accounts/AccountRow.ts"
import { planRowOf } from "../accounts/AccountStore.ts"
import { budgetOf } from "../accounts/Budgets.ts"
import { limitsFor } from "../domain/Limits.ts"
import * as Time from "../domain/Time.ts"
import type { PlanInput } from "./Plan.ts"

export { PlanRow } from "../accounts/AccountStore.ts"

/** The account's facts now; undefined once it is removed. */
export const accountFacts = (sql: SqlClient.SqlClient, accountId: string) =>
  Effect.gen(function*() {
    const now = yield* Time.now
    const row = yield* planRowOf(sql, accountId)
    if (row === undefined) return undefined
    const { overrides, usage } = yield* budgetOf(sql, accountId, row.timezone, now.ms)
    const account: PlanInput["account"] = {
      status: statusAt(row, now.ms),
      readsOnlyUntil: row.readsOnlyUntil,
      hours: workingHoursOf(row),
      offHoursPolicy: row.offHoursPolicy,
      limits: limitsFor(row.tier, overrides),
      factors: scalingAt(row, now.ms),
      usage,
      writesNotBefore: row.writesNotBefore
    }
    return { row, account, nowMs: now.ms }
  })
