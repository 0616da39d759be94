/**
 * The plan for one job at one instant: run it now, wait (and why, and until
 * when if that is known), or fail it. The one place that decides whether a job
 * may run; the Governor only gathers the facts and acts on the answer. Pure.
 *
 * Writes are checked in this order: the account's status (and a reads-only
 * period after a restriction), working hours under `offHoursPolicy`, the
 * category's budgets, then pacing. Reads only wait for a status in which reads
 * cannot run and for their budgets; they ignore working hours and pacing.
 */
import { type AccountStatus, type OffHoursPolicy, readableStatuses, writableStatuses } from "../domain/Account.ts"
import { type JobFailure, PACING_MAX_MS, PACING_MIN_MS, type WaitReason } from "../domain/Job.ts"
import { type Category, fullPeriods, type Limit, nextPeriodStart, type ScalingFactors, type Usage } from "../domain/Limits.ts"
import { type Hours, isOpen, nextWindowStart, utcOffsetAt } from "../domain/WorkingHours.ts"

/** The facts a plan is made from, all at `nowMs`. */
export interface PlanInput {
  readonly nowMs: number
  readonly job: {
    readonly isWrite: boolean
    /** The category the job spends; null when it spends none. */
    readonly category: Category | null
  }
  readonly account: {
    /** The effective status at `nowMs` (a finished warm-up already reads `active`). */
    readonly status: AccountStatus
    /** Epoch ms; writes wait until then even when the status allows them (recovery from a restriction). */
    readonly readsOnlyUntil: number | null
    readonly hours: Hours
    readonly offHoursPolicy: OffHoursPolicy
    /** The limits in force (before scaling). */
    readonly limits: ReadonlyArray<Limit>
    readonly factors: ScalingFactors
    /** Spent in the current local day, week and month. */
    readonly usage: Usage
    /** The pacing gate: no write of the account starts before this (epoch ms). */
    readonly writesNotBefore: number | null
  }
}

/**
 * What to do with the job now. `Wait.until` is the epoch ms at which planning
 * again may give another answer (the job's `eta`), or null when only a change
 * to the account (a resume, a reconnection) can release it.
 */
export type Plan =
  | { readonly _tag: "Run" }
  | { readonly _tag: "Wait"; readonly reason: WaitReason; readonly until: number | null }
  | { readonly _tag: "Fail"; readonly error: JobFailure }

const run: Plan = { _tag: "Run" }

const wait = (reason: WaitReason, until: number | null): Plan => ({ _tag: "Wait", reason, until })

/**
 * The pause after a write before the account's next write may start: a uniform
 * `random` in [0, 1) spread over {@link PACING_MIN_MS}..{@link PACING_MAX_MS}
 * (whole milliseconds, both ends included). Values outside [0, 1) are clamped.
 */
export const pacingGap = (random: number): number => {
  const fraction = Math.min(Math.max(random, 0), 1)
  const gap = PACING_MIN_MS + Math.floor(fraction * (PACING_MAX_MS - PACING_MIN_MS + 1))
  return Math.min(gap, PACING_MAX_MS)
}

// ---------------------------------------------------------------------------
// Wording for integrators
// ---------------------------------------------------------------------------

const weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
const isoWeekdayShort = ["", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

/** `Monday 09:00`: the weekday and wall-clock time in `timezone`, for people. */
export const localWeekdayClock = (timezone: string, ms: number): string => {
  const local = new Date(ms + utcOffsetAt(timezone, ms))
  return `${weekdayNames[local.getUTCDay()]} ${local.toISOString().slice(11, 16)}`
}

/** `2026-03-30T07:00:00.000Z (Monday 09:00 in Europe/Berlin)`: UTC for machines, local time for people. */
const describeInstant = (timezone: string, ms: number): string =>
  `${new Date(ms).toISOString()} (${localWeekdayClock(timezone, ms)} in ${timezone})`

const describeHours = (hours: Hours): string => {
  const days = [...hours.days].sort((a, b) => a - b).map((day) => isoWeekdayShort[day]).join(", ")
  return `${days} ${hours.from}-${hours.to} ${hours.timezone}`
}

const offHours = (hours: Hours, opening: number): JobFailure => ({
  type: "offHours",
  message:
    `The account is outside its working hours (${describeHours(hours)}) and its offHoursPolicy is reject, so this write was not queued. The account opens next at ${
      describeInstant(hours.timezone, opening)
    }.`,
  next:
    `Create the job again at or after ${
      new Date(opening).toISOString()
    }, or PATCH /v1/accounts/{id} with offHoursPolicy "queue" to have such writes wait for the next opening (or "run" to ignore working hours).`
})

// ---------------------------------------------------------------------------
// The rules
// ---------------------------------------------------------------------------

/** Why a status keeps a job waiting, for statuses in which it cannot run (see the sets in `Account.ts`). */
const statusReason = (status: AccountStatus): WaitReason => {
  switch (status) {
    case "connecting":
      return "account_connecting"
    case "reconnect_required":
      return "reconnect"
    case "warming":
    case "active":
    case "paused":
    case "stopped":
    case "restricted":
      return "account_paused"
  }
}

// A reads-only time already past cannot be waited for: the Governor would wake at once and spin.
const futureOrNull = (until: number | null, nowMs: number): number | null =>
  until !== null && until > nowMs ? until : null

/**
 * The instant the category's full periods have all rolled over, or null when it
 * fits one more unit (or spends nothing). Searches are counted per row, but a
 * search returning nothing would be useless, so every job needs room for one.
 */
const budgetRefill = (input: PlanInput): number | null => {
  const { category } = input.job
  if (category === null) return null
  const { account, nowMs } = input
  const full = fullPeriods(category, 1, account.limits, account.factors, account.usage)
  if (full.length === 0) return null
  return Math.max(...full.map((period) => nextPeriodStart(period, account.hours.timezone, nowMs)))
}

const planWrite = (input: PlanInput): Plan => {
  const { account, nowMs } = input
  if (!writableStatuses.has(account.status)) {
    const until = account.status === "restricted" ? futureOrNull(account.readsOnlyUntil, nowMs) : null
    return wait(statusReason(account.status), until)
  }
  if (account.readsOnlyUntil !== null && account.readsOnlyUntil > nowMs) {
    return wait("account_paused", account.readsOnlyUntil)
  }

  const honoursHours = account.offHoursPolicy !== "run"
  if (honoursHours && !isOpen(account.hours, nowMs)) {
    const opening = nextWindowStart(account.hours, nowMs)
    return account.offHoursPolicy === "queue"
      ? wait("working_hours", opening)
      : { _tag: "Fail", error: offHours(account.hours, opening) }
  }

  const refill = budgetRefill(input)
  if (refill !== null) {
    // Spec: over budget is "scheduled for the next working day", so the eta is the first working instant after the refill.
    const eta = !honoursHours || isOpen(account.hours, refill) ? refill : nextWindowStart(account.hours, refill)
    return wait("budget", eta)
  }

  if (account.writesNotBefore !== null && account.writesNotBefore > nowMs) {
    return wait("pacing", account.writesNotBefore)
  }
  return run
}

const planRead = (input: PlanInput): Plan => {
  const { status } = input.account
  if (!readableStatuses.has(status)) return wait(statusReason(status), null)
  const refill = budgetRefill(input)
  return refill === null ? run : wait("budget", refill)
}

/**
 * Whether `input.job` may run at `input.nowMs`.
 *
 * Writes:
 * 1. status: `connecting` waits for `account_connecting`, `reconnect_required`
 *    for `reconnect`, `paused` and `stopped` for `account_paused` (no time: a
 *    person or the service must change the account); `restricted`, or a
 *    `readsOnlyUntil` still ahead, waits as `account_paused` until
 *    `readsOnlyUntil` (null when not known);
 * 2. working hours, when closed: policy `queue` waits for `working_hours` until
 *    the next opening, `reject` fails with `offHours` naming it, `run` ignores hours;
 * 3. budget: when a limit of the category cannot take one more unit, waits for
 *    `budget` until every full period has rolled over, moved to the next working
 *    window unless the policy is `run`. A null category, or one without limits,
 *    never blocks;
 * 4. pacing: waits for `pacing` until `writesNotBefore`.
 *
 * Reads wait only when the status does not allow reads (`connecting`,
 * `reconnect_required`, `stopped`) and for their budgets, until the periods
 * roll over; working hours, pacing and `readsOnlyUntil` do not apply.
 */
export const planJob = (input: PlanInput): Plan => input.job.isWrite ? planWrite(input) : planRead(input)

// ---------------------------------------------------------------------------
// Which write of the account runs next
// ---------------------------------------------------------------------------

/** A write of the account's queue (not started, not awaiting approval), as choosing the next write sees it. */
export interface QueuedWrite {
  /** The category it spends; null when it spends none. */
  readonly category: Category | null
  /** Whom or what it is about (a person, a chat, an invitation), null when nothing: writes about one target keep their order. */
  readonly about: string | null
}

/**
 * A write passed over: it waits for its category's budget (`direct`: its own plan said so; otherwise an
 * earlier write of its category did), or (`queue`) behind an earlier write about the same target that waits.
 */
export interface HeldWrite {
  readonly index: number
  readonly reason: WaitReason
  readonly until: number | null
  readonly direct: boolean
}

/**
 * The write of the account to act on now, by its index in the queue: run it, fail it, or wait. `Wait.index`
 * is the write that waits for a reason of the whole account (hours, pacing, status), or null when every
 * write waits for a budget (`until` is then the earliest refill). `held` lists the writes passed over.
 */
export type Choice =
  | { readonly _tag: "Run"; readonly index: number; readonly held: ReadonlyArray<HeldWrite> }
  | { readonly _tag: "Fail"; readonly index: number; readonly error: JobFailure; readonly held: ReadonlyArray<HeldWrite> }
  | {
    readonly _tag: "Wait"
    readonly index: number | null
    readonly reason: WaitReason
    readonly until: number | null
    readonly held: ReadonlyArray<HeldWrite>
  }

const earliest = (held: ReadonlyArray<HeldWrite>): number | null =>
  held.reduce<number | null>((least, write) =>
    write.until === null ? least : least === null ? write.until : Math.min(least, write.until), null)

/**
 * Chooses which of the account's queued writes (in creation order) may run at `nowMs`; the Governor and
 * the forecast both ask it. Writes go one at a time, in creation order, with one exception: a write that
 * waits for its category's daily, weekly or monthly budget steps aside, and with it every later write of
 * that category (its order kept) and every later write about the same target; the next write of another
 * category with room is planned instead. A write held behind its target does not hold its category. Waits
 * of the whole account (its status, reads only, working hours, pacing) hold every write: `planJob` checks
 * them before the budget, so the first write that is not held meets them. Pure.
 */
export const chooseWrite = (
  queue: ReadonlyArray<QueuedWrite>,
  account: PlanInput["account"],
  nowMs: number
): Choice => {
  const blockedCategories = new Map<Category, number | null>()
  const blockedTargets = new Map<string, number | null>()
  const held: Array<HeldWrite> = []
  const blockTarget = (about: string | null, until: number | null) => {
    if (about !== null && !blockedTargets.has(about)) blockedTargets.set(about, until)
  }
  for (let index = 0; index < queue.length; index++) {
    const { about, category } = queue[index]
    const categoryUntil = category === null ? undefined : blockedCategories.get(category)
    if (categoryUntil !== undefined) {
      held.push({ index, reason: "budget", until: categoryUntil, direct: false })
      blockTarget(about, categoryUntil)
      continue
    }
    const targetUntil = about === null ? undefined : blockedTargets.get(about)
    if (targetUntil !== undefined) {
      held.push({ index, reason: "queue", until: targetUntil, direct: false })
      continue
    }
    const plan = planJob({ nowMs, job: { isWrite: true, category }, account })
    if (plan._tag === "Run") return { _tag: "Run", index, held }
    if (plan._tag === "Fail") return { _tag: "Fail", index, error: plan.error, held }
    if (plan.reason !== "budget" || category === null) {
      return { _tag: "Wait", index, reason: plan.reason, until: plan.until, held }
    }
    blockedCategories.set(category, plan.until)
    blockTarget(about, plan.until)
    held.push({ index, reason: "budget", until: plan.until, direct: true })
  }
  return { _tag: "Wait", index: null, reason: "budget", until: earliest(held), held }
}
