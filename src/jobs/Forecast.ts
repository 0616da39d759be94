/**
 * The forecast of an account's writes: the Governor run forward in thought,
 * from the facts it plans with now, over the writes it has not started. Each
 * step asks `chooseWrite` (so `planJob`), the very rules the actor applies, and
 * moves time to where the answer says: a write runs, spending its category and
 * setting the pacing gate; a wait jumps to its end; a new local day starts the
 * day's usage again (and the week's and month's when they turn), while
 * warm-up and health scale the budgets as `factsAt` says for that instant.
 *
 * What it cannot know: the pacing gap is random (45 to 120 s), so it takes its
 * expected value; a write is taken to finish the instant it starts; every
 * write is taken to go out (a refusal spends no budget); and what others do
 * (a reply, an acceptance, a pause, a health change, new writes) is not
 * foreseen. Pure.
 */
import { type JobFailure, PACING_MAX_MS, PACING_MIN_MS, type WaitReason } from "../domain/Job.ts"
import { budgetOf, type Category } from "../domain/Limits.ts"
import { localDate, startOfNextLocalDay } from "../domain/WorkingHours.ts"
import { afterJob, factsAt, type LoadedFacts, rolledOver } from "./AccountFacts.ts"
import { chooseWrite, localWeekdayClock, type QueuedWrite } from "./Plan.ts"

/** The pacing gap the forecast assumes between two writes: the middle of 45 to 120 seconds. */
export const EXPECTED_GAP_MS = (PACING_MIN_MS + PACING_MAX_MS) / 2

/** How far ahead the forecast looks: a write not started by then is not foreseen. */
export const HORIZON_MS = 366 * 86_400_000

/** A write to forecast, in creation order; `id` is the caller's (a job id, or a made-up one for an assumed write). */
export interface ForecastWrite extends QueuedWrite {
  readonly id: string
}

/** What the forecast expects of one write. */
export interface WriteOutlook {
  readonly id: string
  readonly category: Category | null
  /** Epoch ms at which it is expected to start; null when that cannot be foreseen (see `waitsFor`). */
  readonly start: number | null
  /** The first thing it waits for, writes ahead of it aside; null when it is expected to run at once. */
  readonly waitsFor: WaitReason | null
  /** Set when it is expected to fail at its turn (working hours closed under `offHoursPolicy` reject). */
  readonly fails: JobFailure | null
  /** Writes expected to start before it, of any category and of its own. */
  readonly ahead: number
  readonly aheadInCategory: number
}

/** One local day of the forecast: writes expected to start per category, and each category's budget that day. */
export interface DayOutlook {
  readonly date: string
  readonly starts: ReadonlyMap<Category, number>
  /** What the category could spend on this day with nothing spent yet (warm-up and health applied). */
  readonly budgets: ReadonlyMap<Category, number>
}

/** The forecast of an account's writes. */
export interface Outlook {
  /** In the order they are expected to start; those that cannot be foreseen last, in creation order. */
  readonly writes: ReadonlyArray<WriteOutlook>
  /** When the last write is expected to start; `nowMs` with nothing to run; null when some cannot be foreseen. */
  readonly emptyAt: number | null
  /** The local days on which writes are expected to start, in order. */
  readonly days: ReadonlyArray<DayOutlook>
}

interface Pending extends ForecastWrite {
  /** The first wait seen for it, writes ahead aside. */
  waitsFor: WaitReason | null
}

/**
 * Runs the account's Governor forward from `nowMs` over `writes` (creation order), from the facts it
 * would plan with now (`loaded`, counted on the local day of `nowMs`).
 */
export const simulate = (loaded: LoadedFacts, writes: ReadonlyArray<ForecastWrite>, nowMs: number): Outlook => {
  const timezone = loaded.row.timezone
  // A target no other write names can hold nothing back: forgotten, `chooseWrite` has less to track.
  const named = new Map<string, number>()
  for (const { about } of writes) if (about !== null) named.set(about, (named.get(about) ?? 0) + 1)
  const queue: Array<Pending> = writes.map((write) => ({
    ...write,
    about: write.about !== null && (named.get(write.about) ?? 0) > 1 ? write.about : null,
    waitsFor: null
  }))
  const done: Array<WriteOutlook> = []
  const perCategory = new Map<Category, number>()
  const days: Array<{ date: string; starts: Map<Category, number>; budgets: Map<Category, number> }> = []
  const noteWait = (write: Pending, reason: WaitReason) => {
    if (write.waitsFor === null && reason !== "queue") write.waitsFor = reason
  }
  const finish = (index: number, start: number | null, fails: JobFailure | null) => {
    const [write] = queue.splice(index, 1)
    const aheadInCategory = write.category === null ? 0 : perCategory.get(write.category) ?? 0
    done.push({ id: write.id, category: write.category, start, waitsFor: write.waitsFor, fails, ahead: done.length, aheadInCategory })
    if (write.category !== null) perCategory.set(write.category, aheadInCategory + 1)
  }

  let facts = loaded
  let now = nowMs
  let last = nowMs
  /** What holds the writes left when the forecast stops short of them. */
  let stuck: WaitReason = "queue"
  // The account's status and scaling change only as its local days turn: read once a day.
  let dayEnds = Number.NEGATIVE_INFINITY
  let ofDay = factsAt(facts, now).account
  /** Whether the last step ran a write: the Governor would then plan once more at once, and meet pacing. */
  let paced = false
  // Each write runs once and waits a few times (pacing, hours, budgets); the bound only stops a runaway.
  const maxSteps = 100 + writes.length * 50
  for (let steps = 0; queue.length > 0 && steps < maxSteps && now - nowMs <= HORIZON_MS; steps++) {
    if (now >= dayEnds) {
      facts = rolledOver(facts, now)
      ofDay = factsAt(facts, now).account
      dayEnds = startOfNextLocalDay(timezone, now)
    }
    const account = { ...ofDay, usage: facts.usage, writesNotBefore: facts.row.writesNotBefore }
    const choice = chooseWrite(queue, account, now)
    // Planning again the moment a write ended, the Governor met the pacing gap first: the write it would
    // have looked at then is the one looked at now (the step to the gate's end is skipped, not its answer).
    if (paced && choice.index !== null) noteWait(queue[choice.index], "pacing")
    paced = false
    for (const held of choice.held) noteWait(queue[held.index], held.reason)
    if (choice._tag === "Wait") {
      if (choice.index !== null) noteWait(queue[choice.index], choice.reason)
      stuck = choice.reason
      if (choice.until === null) break
      now = Math.max(choice.until, now + 1)
      continue
    }
    if (choice._tag === "Fail") {
      finish(choice.index, null, choice.error)
      continue
    }
    const { category } = queue[choice.index]
    if (category !== null) {
      const date = localDate(timezone, now)
      let day = days.at(-1)
      if (day === undefined || day.date !== date) {
        day = { date, starts: new Map(), budgets: new Map() }
        days.push(day)
      }
      day.starts.set(category, (day.starts.get(category) ?? 0) + 1)
      if (!day.budgets.has(category)) day.budgets.set(category, budgetOf(category, account.limits, account.factors, {}).today)
    }
    finish(choice.index, now, null)
    last = now
    facts = afterJob(facts, category === null ? null : { category, units: 1 }, now + EXPECTED_GAP_MS)
    now += EXPECTED_GAP_MS
    paced = true
  }
  const unforeseen = queue.length
  for (const write of queue) noteWait(write, stuck)
  while (queue.length > 0) finish(0, null, null)
  return { writes: done, emptyAt: unforeseen > 0 ? null : last, days }
}

// ---------------------------------------------------------------------------
// Wording
// ---------------------------------------------------------------------------

const WEEK_MS = 7 * 86_400_000

/** `Tuesday 10:40`, with the date (`Tuesday 2026-12-01 10:40`) when it is a week or more away. */
export const whenLocal = (timezone: string, ms: number, nowMs: number): string => {
  const [weekday, clock] = localWeekdayClock(timezone, ms).split(" ")
  return ms - nowMs >= WEEK_MS ? `${weekday} ${localDate(timezone, ms)} ${clock}` : `${weekday} ${clock}`
}

const nouns: Readonly<Record<Category, readonly [one: string, many: string]>> = {
  invites: ["invitation", "invitations"],
  messages: ["message", "messages"],
  inmails: ["InMail", "InMails"],
  profile_views: ["profile view", "profile views"],
  company_views: ["company view", "company views"],
  search_rows: ["search", "searches"],
  comments: ["comment", "comments"],
  reactions: ["reaction", "reactions"],
  posts: ["post", "posts"],
  endorsements: ["endorsement", "endorsements"],
  invite_withdrawals: ["withdrawal", "withdrawals"],
  list_polls: ["poll", "polls"]
}

/** `37 invitations`, `1 write`. */
export const countOf = (count: number, category: Category | null): string => {
  const [one, many] = category === null ? ["write", "writes"] : nouns[category]
  return `${count} ${count === 1 ? one : many}`
}

/**
 * One write's forecast in a sentence: "expected around Tuesday 10:40 (Europe/Berlin), after 37 invitations
 * ahead of it, waiting for budget first".
 */
export const summaryOf = (write: WriteOutlook, timezone: string, nowMs: number): string => {
  if (write.fails !== null) return `expected to fail at its turn (${write.fails.type}): ${write.fails.message}`
  if (write.start === null) {
    return `cannot be foreseen: it waits for ${write.waitsFor ?? "queue"} with no end the forecast can see`
  }
  const place = write.ahead === 0
    ? "first in line"
    : write.aheadInCategory > 0
    ? `after ${countOf(write.aheadInCategory, write.category)} ahead of it`
    : write.category === null
    ? `after ${countOf(write.ahead, null)} ahead of it`
    : "first of its category"
  const first = write.waitsFor === null || write.waitsFor === "queue" ? "" : `, waiting for ${write.waitsFor.replace("_", " ")} first`
  return `expected around ${whenLocal(timezone, write.start, nowMs)} (${timezone}), ${place}${first}`
}
