/**
 * An account as stored, and its API form at a given instant (status after
 * warm-up, working hours open or not, budgets left).
 */
import { Schema } from "effect"
import type { Account } from "../domain/AccountRecord.ts"
import { AccountStatus, connectedStatuses, Mode, OffHoursPolicy } from "../domain/Account.ts"
import {
  budgetsLeft,
  Category,
  healthFactor,
  HealthLevel,
  type LimitOverride,
  limitsFor,
  Period,
  Tier,
  type Usage
} from "../domain/Limits.ts"
import * as Time from "../domain/Time.ts"
import { isWarming, toWarmupView, type Warmup, WARMUP_DAYS, warmupFactor } from "../domain/Warmup.ts"
import { toView as workingHoursView, type WorkingHours } from "../domain/WorkingHours.ts"
import { EpochMillis, NullableTimestamp, Timestamp } from "../platform/Rows.ts"

/** The columns every account query selects, in this shape. */
export const AccountRow = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  label: Schema.String,
  status: AccountStatus,
  resumeStatus: Schema.NullOr(AccountStatus),
  tier: Tier,
  products: Schema.Array(Schema.String),
  healthLevel: HealthLevel,
  healthReason: Schema.NullOr(Schema.String),
  pausedUntil: NullableTimestamp,
  readsOnlyUntil: Schema.NullOr(EpochMillis),
  restrictedAt: Schema.NullOr(EpochMillis),
  connections: Schema.NullOr(Schema.Number),
  minInviteQuality: Schema.Number,
  autoWithdrawDays: Schema.NullOr(Schema.Number),
  warmupStartedAt: Schema.NullOr(EpochMillis),
  warmupStartDay: Schema.Number,
  workingDays: Schema.Array(Schema.Number),
  workFrom: Schema.String,
  workTo: Schema.String,
  timezone: Schema.String,
  offHoursPolicy: OffHoursPolicy,
  mode: Mode,
  linkUrl: Schema.NullOr(Schema.String),
  linkExpiresAt: NullableTimestamp,
  checkpoint: Schema.NullOr(Schema.String),
  connectedAt: NullableTimestamp,
  createdAt: Timestamp
})
export type AccountRow = typeof AccountRow.Type

/** A stored limit override. */
export const LimitRow = Schema.Struct({
  category: Category,
  period: Period,
  maxValue: Schema.Number,
  isEnabled: Schema.Boolean
})

/** The SQL select list producing an {@link AccountRow} (table alias `a`). */
export const accountColumns = `
  a.id::text AS id, a.workspace_id::text AS "workspaceId", a.label, a.status, a.resume_status AS "resumeStatus",
  a.tier, a.products, a.health_level AS "healthLevel", a.health_reason AS "healthReason",
  a.paused_until AS "pausedUntil", a.reads_only_until AS "readsOnlyUntil", a.restricted_at AS "restrictedAt",
  a.connections, a.min_invite_quality AS "minInviteQuality", a.auto_withdraw_days AS "autoWithdrawDays",
  a.warmup_started_at AS "warmupStartedAt", a.warmup_start_day AS "warmupStartDay",
  a.working_days AS "workingDays", a.work_from AS "workFrom", a.work_to AS "workTo", a.timezone,
  a.off_hours_policy AS "offHoursPolicy", a.mode, a.link_url AS "linkUrl", a.link_expires_at AS "linkExpiresAt",
  a.checkpoint, a.connected_at AS "connectedAt", a.created_at AS "createdAt"`

/** The account's working hours (input form). */
export const workingHoursOf = (row: AccountRow): WorkingHours => ({
  days: row.workingDays,
  from: row.workFrom,
  to: row.workTo,
  timezone: row.timezone
})

/** The account's warm-up, once connected. */
export const warmupOf = (row: AccountRow): Warmup | null =>
  row.warmupStartedAt === null ? null : { startedAt: row.warmupStartedAt, startDay: row.warmupStartDay }

/** The status at `nowMs`: a `warming` account whose ramp is complete is `active`. */
export const statusAt = (row: AccountRow, nowMs: number): AccountRow["status"] => {
  const warmup = warmupOf(row)
  if (row.status === "warming" && warmup !== null && !isWarming(warmup, row.timezone, nowMs)) return "active"
  return row.status
}

/** What scales the account's limits down at `nowMs`. */
export const scalingAt = (row: AccountRow, nowMs: number) => {
  const warmup = warmupOf(row)
  return {
    warmupFactor: warmup === null ? 0 : warmupFactor(warmup, row.timezone, nowMs),
    healthFactor: healthFactor(row.healthLevel)
  }
}

/** The API form of an account at `nowMs`, with how many of its invitations syncing last saw pending. */
export const toAccount = (
  row: AccountRow,
  overrides: ReadonlyArray<LimitOverride>,
  usage: Usage,
  pendingInvitations: number,
  nowMs: number,
  capabilities: typeof Account.Type["capabilities"]
): typeof Account.Type => {
  const status = statusAt(row, nowMs)
  const warmup = warmupOf(row)
  const connected = connectedStatuses.has(row.status) || row.status === "reconnect_required"
  return {
    id: row.id,
    label: row.label,
    status,
    tier: row.tier,
    products: row.products,
    health: {
      level: row.healthLevel,
      reason: row.healthReason,
      pausedUntil: row.pausedUntil,
      readsOnlyUntil: row.readsOnlyUntil !== null && row.readsOnlyUntil > nowMs ? Time.toIso(row.readsOnlyUntil) : null
    },
    connections: row.connections,
    settings: { minInviteQuality: row.minInviteQuality, autoWithdrawDays: row.autoWithdrawDays },
    warmup: warmup === null ? { day: 0, of: WARMUP_DAYS } : toWarmupView(warmup, row.timezone, nowMs),
    workingHours: workingHoursView(workingHoursOf(row), nowMs),
    offHoursPolicy: row.offHoursPolicy,
    mode: row.mode,
    budgets: connected ? budgetsLeft(limitsFor(row.tier, overrides), scalingAt(row, nowMs), usage) : null,
    pendingInvitations,
    reconnectUrl: row.status === "reconnect_required" ? row.linkUrl : null,
    connectedAt: row.connectedAt,
    capabilities
  }
}
