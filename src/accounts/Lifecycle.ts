/**
 * The rules of an account's lifecycle, pure: given the account as stored and
 * the time, what a request or a network event changes (an `AccountUpdate`)
 * and the events it emits, or why it is refused. No SQL and no clock here:
 * `AccountStore.ts` writes what these return and `Accounts.ts` runs them in
 * one transaction with their events.
 */
import { Result } from "effect"
import { type AccountStatus, connectLinkTtlMs, type Mode, type OffHoursPolicy, pausableStatuses, productsOfTier } from "../domain/Account.ts"
import type { NewEvent } from "../domain/Events.ts"
import { Forbidden, Invalid, WrongState } from "../domain/Failures.ts"
import { applyLimitUpdates, type HealthLevel, type LimitOverride, type LimitUpdate, type Tier } from "../domain/Limits.ts"
import * as Time from "../domain/Time.ts"
import { recoverFromRestriction, startWarmup } from "../domain/Warmup.ts"
import type { WorkingHours } from "../domain/WorkingHours.ts"
import type { AccountProfile, CheckpointType } from "../network/NetworkDriver.ts"
import { type AccountRow, statusAt, warmupOf, workingHoursOf } from "./AccountRow.ts"

/** A change of settings (`PATCH /v1/accounts/{id}`). */
export interface AccountPatch {
  readonly label?: string
  readonly timezone?: string
  readonly workingHours?: WorkingHours
  readonly offHoursPolicy?: OffHoursPolicy
  readonly minInviteQuality?: number
  readonly autoWithdrawDays?: number | null
  readonly mode?: Mode
}

/** What the network did to an account (sandbox events, and later the real driver's sync). */
export type NetworkEvent =
  | { readonly type: "signed_out"; readonly reason?: string | undefined }
  | { readonly type: "restricted"; readonly reason?: string | undefined }
  | { readonly type: "health"; readonly level: "green" | "yellow" | "red"; readonly reason?: string | undefined }

/** A sign-in link as stored: the hash of its token (the token itself is never kept) and its address. */
export interface SignInLink {
  readonly hash: string
  readonly url: string
}

/** What a rule changes of the stored account; instants in epoch milliseconds. A field left out is kept. */
export interface AccountUpdate {
  readonly status?: AccountStatus
  readonly resumeStatus?: AccountStatus | null
  readonly tier?: Tier
  readonly products?: ReadonlyArray<string>
  readonly connections?: number
  /** A new sign-in link valid until `expiresAt`, or null to clear it. */
  readonly link?: (SignInLink & { readonly expiresAt: number }) | null
  readonly checkpoint?: CheckpointType | null
  readonly connectedAt?: number
  readonly warmupStartedAt?: number
  readonly warmupStartDay?: number
  readonly readsOnlyUntil?: number
  readonly restrictedAt?: number | null
  readonly healthLevel?: HealthLevel
  readonly healthReason?: string | null
  readonly workingHours?: WorkingHours
  readonly label?: string
  readonly offHoursPolicy?: OffHoursPolicy
  readonly minInviteQuality?: number
  readonly autoWithdrawDays?: number | null
  readonly mode?: Mode
}

/** What a rule decided: the update to write (none: the row stays as it is) and the events to emit with it. */
export interface Change {
  readonly update: AccountUpdate | null
  readonly events: ReadonlyArray<NewEvent>
}

const unchanged: Change = { update: null, events: [] }

/** `timezone` and `workingHours.timezone`, when both are given, must name the same zone. */
export const zonesAgree = (input: {
  readonly timezone?: string | undefined
  readonly workingHours?: WorkingHours | undefined
}): Result.Result<void, Invalid> =>
  input.timezone !== undefined && input.workingHours !== undefined && input.timezone !== input.workingHours.timezone
    ? Result.fail(
      new Invalid({
        message: `timezone (${input.timezone}) and workingHours.timezone (${input.workingHours.timezone}) disagree.`,
        advice: { _tag: "OneTimezone" }
      })
    )
    : Result.void

/** A new account takes a seat only while the workspace has one free. */
export const seatFree = (taken: number, total: number): Result.Result<void, Forbidden> =>
  taken >= total
    ? Result.fail(
      new Forbidden({ message: `Every seat is in use (${taken} of ${total}).`, advice: { _tag: "FreeASeat" } })
    )
    : Result.void

/** The sign-in link issued at `nowMs`, as stored. */
export const issuedLink = (link: SignInLink, nowMs: number) => ({ ...link, expiresAt: nowMs + connectLinkTtlMs })

/** New settings: the working hours always (a new zone alone keeps the days and times), the rest when given. */
export const settings = (row: AccountRow, patch: AccountPatch): Change => {
  const workingHours = patch.workingHours ?? { ...workingHoursOf(row), timezone: patch.timezone ?? row.timezone }
  return {
    update: {
      workingHours,
      ...(patch.label === undefined ? {} : { label: patch.label }),
      ...(patch.offHoursPolicy === undefined ? {} : { offHoursPolicy: patch.offHoursPolicy }),
      ...(patch.minInviteQuality === undefined ? {} : { minInviteQuality: patch.minInviteQuality }),
      ...(patch.autoWithdrawDays === undefined ? {} : { autoWithdrawDays: patch.autoWithdrawDays }),
      ...(patch.mode === undefined ? {} : { mode: patch.mode })
    },
    events: []
  }
}

/** A person pauses the account: only a connected one, and pausing a paused account changes nothing. */
export const pause = (row: AccountRow, nowMs: number): Result.Result<Change, WrongState> => {
  const status = statusAt(row, nowMs)
  if (status === "paused") return Result.succeed(unchanged)
  if (!pausableStatuses.has(status)) {
    return Result.fail(
      new WrongState({
        message: `The account is ${status}; only a connected account can be paused.`,
        advice: { _tag: status === "connecting" ? "FinishSignIn" : "ReconnectFirst" }
      })
    )
  }
  return Result.succeed({
    update: { status: "paused", resumeStatus: row.status },
    events: [{ type: "account.paused", data: { accountId: row.id, reason: "paused by a person" } }]
  })
}

/**
 * A person resumes a paused, stopped or restricted account. A restricted one (or one paused while
 * restricted) recovers: reads only for a while, then its warm-up again from a lower day. A stopped
 * one comes back with a yellow health.
 */
export const resume = (row: AccountRow, nowMs: number): Result.Result<Change, WrongState> => {
  const restricted = row.status === "restricted" || (row.status === "paused" && row.resumeStatus === "restricted")
  if (row.status !== "paused" && row.status !== "stopped" && row.status !== "restricted") {
    return Result.fail(
      new WrongState({
        message: `The account is ${statusAt(row, nowMs)}, not paused, stopped or restricted.`,
        advice: { _tag: "NothingToResume" }
      })
    )
  }
  const events: ReadonlyArray<NewEvent> = [
    { type: "account.resumed", data: { accountId: row.id, wasRestricted: restricted } }
  ]
  if (restricted) {
    const warmup = warmupOf(row) ?? startWarmup(nowMs)
    const recovery = recoverFromRestriction(warmup, row.timezone, row.restrictedAt ?? nowMs)
    const readsOnlyUntil = nowMs + (recovery.readsOnlyUntil - (row.restrictedAt ?? nowMs))
    return Result.succeed({
      update: {
        resumeStatus: null,
        status: "warming",
        readsOnlyUntil,
        warmupStartedAt: readsOnlyUntil,
        warmupStartDay: recovery.warmup.startDay,
        restrictedAt: null,
        healthReason: `recovering from a restriction: reads only until ${Time.toIso(readsOnlyUntil)}`
      },
      events
    })
  }
  const status = row.resumeStatus ?? "warming"
  return Result.succeed({
    update: row.status === "stopped"
      ? {
        resumeStatus: null,
        status,
        healthLevel: "yellow",
        healthReason: "resumed by a person after the service stopped it"
      }
      : { resumeStatus: null, status },
    events
  })
}

/** A new sign-in link, for an account the network signed out (or one still connecting). */
export const reconnect = (row: AccountRow, nowMs: number, link: SignInLink): Result.Result<Change, WrongState> =>
  row.status !== "reconnect_required" && row.status !== "connecting"
    ? Result.fail(
      new WrongState({
        message: `The account is ${statusAt(row, nowMs)} and connected; it needs no reconnecting.`,
        advice: { _tag: "NoReconnectNeeded" }
      })
    )
    : Result.succeed({ update: { link: issuedLink(link, nowMs) }, events: [] })

/** Signing in is for an account that is connecting or must reconnect. */
export const awaitingSignIn = (row: AccountRow, nowMs: number): Result.Result<void, WrongState> =>
  row.status === "connecting" || row.status === "reconnect_required"
    ? Result.void
    : Result.fail(
      new WrongState({ message: `The account is ${statusAt(row, nowMs)}; it is already signed in.`, advice: { _tag: "NothingToDo" } })
    )

/**
 * The account signed in with `profile`: connected for the first time (its warm-up starts now) or
 * again (back to where it was), its link and checkpoint cleared; emits `account.connected`.
 */
export const connected = (row: AccountRow, nowMs: number, profile: AccountProfile): Change => {
  const reconnected = row.status === "reconnect_required"
  const signedIn: AccountUpdate = {
    tier: profile.tier,
    products: profile.products,
    connections: profile.connections,
    link: null,
    checkpoint: null
  }
  const warmup = startWarmup(nowMs)
  return {
    update: reconnected
      ? { ...signedIn, status: row.resumeStatus ?? "warming", resumeStatus: null }
      : {
        ...signedIn,
        status: "warming",
        connectedAt: nowMs,
        warmupStartedAt: warmup.startedAt,
        warmupStartDay: warmup.startDay
      },
    events: [{
      type: "account.connected",
      data: { accountId: row.id, tier: profile.tier, products: profile.products, reconnected }
    }]
  }
}

/**
 * What a completed sign-in records: what the network `reported`, except that a reconnection keeps
 * what is known of the account, and what the person `given` (the sandbox's completion) wins; a
 * tier given without products brings that tier's own products, not the network's guess.
 */
export const completedProfile = (
  row: AccountRow,
  reported: AccountProfile,
  given: Partial<AccountProfile> | undefined
): AccountProfile => {
  const known = row.status === "reconnect_required"
    ? { tier: row.tier, products: row.products, connections: row.connections ?? reported.connections }
    : reported
  const products = given?.products ?? (given?.tier === undefined ? known.products : productsOfTier(given.tier))
  return { ...known, ...given, products }
}

/** The checkpoint the account's sign-in waits at, which the person's code must pass. */
export const checkpointToPass = (row: AccountRow): Result.Result<CheckpointType, WrongState> =>
  row.checkpoint === "2fa" || row.checkpoint === "otp" || row.checkpoint === "captcha" ||
    row.checkpoint === "in_app_approval"
    ? Result.succeed(row.checkpoint)
    : Result.fail(
      new WrongState({ message: "No sign-in checkpoint is pending for this account.", advice: { _tag: "StartNativeAuth" } })
    )

/** The network asks the person to pass a checkpoint before the sign-in completes. */
export const checkpointPending = (checkpoint: CheckpointType): Change => ({ update: { checkpoint }, events: [] })

/** The account's limit overrides after `updates`, or which categories and periods the service does not limit. */
export const limitOverrides = (
  row: AccountRow,
  current: ReadonlyArray<LimitOverride>,
  updates: ReadonlyArray<LimitUpdate>
): Result.Result<ReadonlyArray<LimitOverride>, Invalid> =>
  Result.mapError(applyLimitUpdates(row.tier, current, updates), (unknown) =>
    new Invalid({
      message: `The service does not limit ${unknown.map((u) => `${u.category}/${u.period}`).join(", ")}.`,
      advice: { _tag: "LimitedPairs" }
    }))

/**
 * What the network did to the account: signed out (it must reconnect), restricted (reads only until
 * a person resumes it), or a health level (red stops it). Refused while the account is connecting.
 */
export const networkEvent = (row: AccountRow, nowMs: number, event: NetworkEvent): Result.Result<Change, WrongState> => {
  if (row.status === "connecting") {
    return Result.fail(
      new WrongState({ message: "The account is still connecting.", advice: { _tag: "CompleteConnection" } })
    )
  }
  const status = statusAt(row, nowMs)
  switch (event.type) {
    case "signed_out": {
      if (row.status === "reconnect_required") return Result.succeed(unchanged)
      const reason = event.reason ?? "the network signed the account out"
      return Result.succeed({
        update: { status: "reconnect_required", resumeStatus: status },
        events: [{ type: "account.reconnection_required", data: { accountId: row.id, reason, needsHuman: true } }]
      })
    }
    case "restricted": {
      if (row.status === "restricted") return Result.succeed(unchanged)
      const reason = event.reason ?? "the network restricted the account"
      return Result.succeed({
        update: { status: "restricted", resumeStatus: null, restrictedAt: nowMs, healthReason: reason },
        events: [{ type: "account.paused", data: { accountId: row.id, reason } }]
      })
    }
    case "health": {
      const reason = event.reason ?? null
      if (event.level === "red" && row.status !== "stopped") {
        const pausedReason = `health turned red${reason === null ? "" : `: ${reason}`}`
        return Result.succeed({
          update: {
            healthLevel: "red",
            healthReason: reason,
            status: "stopped",
            resumeStatus: status === "paused" ? row.resumeStatus : status
          },
          events: [{ type: "account.paused", data: { accountId: row.id, reason: pausedReason } }]
        })
      }
      return Result.succeed({ update: { healthLevel: event.level, healthReason: reason }, events: [] })
    }
  }
}
