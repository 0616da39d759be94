/**
 * An account (a connected seat): its statuses, modes and tiers, and the rules
 * that say what a status allows. One place for each list.
 */
import { Schema } from "effect"
import type { Tier } from "./Limits.ts"

/** Every account status (decisions: Statuses). */
export const AccountStatus = Schema.Literals([
  "connecting",
  "warming",
  "active",
  "paused",
  "stopped",
  "restricted",
  "reconnect_required"
]).annotate({
  description:
    "`connecting` until the sign-in finishes; `warming` during the 14-day ramp; `active`; `paused` by a person; `stopped` by the service when health turns red; `restricted` by the network (reads only); `reconnect_required` when the network signed the account out."
})
export type AccountStatus = typeof AccountStatus.Type

/** Operating modes (spec: Mode rules). */
export const Mode = Schema.Literals(["assist", "approve", "autopilot"])
export type Mode = typeof Mode.Type

/** What happens to a write outside working hours. */
export const OffHoursPolicy = Schema.Literals(["queue", "reject", "run"])
export type OffHoursPolicy = typeof OffHoursPolicy.Type

/** Statuses in which the account is connected to the network (it can be paused, and reads work). */
export const connectedStatuses: ReadonlySet<AccountStatus> = new Set([
  "warming",
  "active",
  "paused",
  "stopped",
  "restricted"
])

/** Statuses a person can pause. */
export const pausableStatuses: ReadonlySet<AccountStatus> = new Set(["warming", "active", "restricted", "stopped"])

/** Statuses in which writes may run (subject to `readsOnlyUntil`, hours and budgets). */
export const writableStatuses: ReadonlySet<AccountStatus> = new Set(["warming", "active"])

/** Statuses in which reads may run: pausing stops writes only; a stop (health red) stops everything. */
export const readableStatuses: ReadonlySet<AccountStatus> = new Set(["warming", "active", "paused", "restricted"])

/** How long a sandbox sign-in link stays valid. */
export const connectLinkTtlMs = 60 * 60 * 1000

/** The products that come with a tier when the network reports none (Sales Navigator seats have it). */
export const productsOfTier = (tier: Tier): ReadonlyArray<string> => tier === "sales_nav" ? ["sales_navigator"] : []
