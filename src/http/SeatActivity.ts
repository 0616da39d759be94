/**
 * A seat's changes made by a person or a key, each recorded in the activity
 * log with who made it: the one place REST's handlers and the dashboard's
 * Seats page go through, so both leave the same trace. Settings are recorded
 * with what they were before and after.
 */
import { Effect } from "effect"
import { Accounts } from "../accounts/Accounts.ts"
import type { AccountPatch } from "../accounts/Accounts.ts"
import { ActivityLog } from "../activity/ActivityLog.ts"
import type { LimitUpdate } from "../domain/Limits.ts"
import { Jobs } from "../jobs/Jobs.ts"

/** The fields of `before` that `patch` changes, and what they become. */
const changed = (before: Readonly<Record<string, unknown>>, patch: Readonly<Record<string, unknown>>) => {
  const was: Record<string, unknown> = {}
  const now: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(patch)) {
    if (value === undefined || JSON.stringify(before[field]) === JSON.stringify(value)) continue
    was[field] = before[field] ?? null
    now[field] = value
  }
  return { was, now, any: Object.keys(now).length > 0 }
}

/** The seat operations with their record; built once (for a handler group) or per request. */
export const make = Effect.gen(function*() {
  const accounts = yield* Accounts
  const jobs = yield* Jobs
  const log = yield* ActivityLog
  const seat = (id: string) => ({ type: "seat" as const, id })
  const named = (label: string) => label === "" ? "an unnamed seat" : `the seat "${label}"`

  const update = (workspaceId: string, id: string, patch: AccountPatch, actor: string) =>
    Effect.gen(function*() {
      const before = yield* accounts.get(workspaceId, id)
      const after = yield* accounts.update(workspaceId, id, patch)
      const { mode, ...settings } = patch
      if (mode !== undefined && mode !== before.mode) {
        yield* log.record({
          workspaceId,
          actor,
          action: "seat.mode_changed",
          resource: seat(id),
          summary: `switched ${named(after.label)} from ${before.mode} to ${mode} mode`,
          before: { mode: before.mode },
          after: { mode }
        })
      }
      const diff = changed(before, settings)
      if (diff.any) {
        yield* log.record({
          workspaceId,
          actor,
          action: "seat.settings_changed",
          resource: seat(id),
          summary: `changed ${Object.keys(diff.now).join(", ")} of ${named(after.label)}`,
          before: diff.was,
          after: diff.now
        })
      }
      return after
    })

  const setLimits = (workspaceId: string, id: string, updates: ReadonlyArray<LimitUpdate>, actor: string) =>
    Effect.gen(function*() {
      const before = yield* accounts.limits(workspaceId, id)
      const after = yield* accounts.setLimits(workspaceId, id, updates)
      const was = updates.map((u) => {
        const limit = before.limits.find((l) => l.category === u.category && l.period === u.period)
        return { category: u.category, period: u.period, maxValue: limit?.maxValue ?? null }
      })
      yield* log.record({
        workspaceId,
        actor,
        action: "seat.limits_changed",
        resource: seat(id),
        summary: `set ${updates.map((u) => `${u.period} ${u.category} to ${u.maxValue}`).join(", ")} on ${named(after.label)}`,
        before: { limits: was },
        after: { limits: updates }
      })
      return after
    })

  const pause = (workspaceId: string, id: string, actor: string) =>
    Effect.gen(function*() {
      yield* accounts.pause(workspaceId, id)
      const account = yield* accounts.get(workspaceId, id)
      yield* log.record({ workspaceId, actor, action: "seat.paused", resource: seat(id), summary: `paused ${named(account.label)}` })
    })

  const resume = (workspaceId: string, id: string, actor: string) =>
    Effect.gen(function*() {
      const account = yield* accounts.resume(workspaceId, id)
      yield* log.record({ workspaceId, actor, action: "seat.resumed", resource: seat(id), summary: `resumed ${named(account.label)}` })
      return account
    })

  const connect = (input: Parameters<typeof accounts.connect>[0], actor: string) =>
    Effect.gen(function*() {
      const connected = yield* accounts.connect(input)
      yield* log.record({
        workspaceId: input.workspaceId,
        actor,
        action: "seat.connected",
        resource: seat(connected.account.id),
        summary: `started connecting ${named(connected.account.label)}`
      })
      return connected
    })

  const remove = (workspaceId: string, id: string, actor: string) =>
    Effect.gen(function*() {
      const account = yield* accounts.get(workspaceId, id)
      yield* accounts.remove(workspaceId, id)
      // The seat is free; work that had not started goes with it (a running write finishes).
      yield* jobs.cancelOpenOf(id)
      yield* log.record({
        workspaceId,
        actor,
        action: "seat.disconnected",
        resource: seat(id),
        summary: `disconnected ${named(account.label)}`,
        before: { label: account.label, status: account.status }
      })
    })

  return { update, setLimits, pause, resume, connect, remove }
})
