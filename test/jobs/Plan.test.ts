import { assert, describe, it } from "@effect/vitest"
import type { AccountStatus, OffHoursPolicy } from "../../src/domain/Account.ts"
import { PACING_MAX_MS, PACING_MIN_MS, type WaitReason } from "../../src/domain/Job.ts"
import { type Category, healthFactor, type Limit, limitsFor, type Tier, type UsageCounts } from "../../src/domain/Limits.ts"
import { defaultWorkingHours, type Hours } from "../../src/domain/WorkingHours.ts"
import { pacingGap, type Plan, type PlanInput, planJob } from "../../src/jobs/Plan.ts"

const at = (iso: string): number => {
  const ms = Date.parse(iso)
  if (Number.isNaN(ms)) throw new Error(`bad instant ${iso}`)
  return ms
}
const iso = (ms: number | null): string | null => ms === null ? null : new Date(ms).toISOString()

const berlin = defaultWorkingHours("Europe/Berlin")
const full = { warmupFactor: 1, healthFactor: 1 }
const used = (today: number, week = today, month = week): UsageCounts => ({ today, week, month })

// Winter dates are CET (UTC+1), so 10:00 in Berlin is 09:00Z.
const WEDNESDAY_10 = "2026-03-04T09:00:00.000Z"
const FRIDAY_15 = "2026-03-06T14:00:00.000Z"

interface Options {
  readonly nowIso?: string
  readonly isWrite?: boolean
  readonly category?: Category | null
  readonly status?: AccountStatus
  readonly readsOnlyUntil?: number | null
  readonly hours?: Hours
  readonly offHoursPolicy?: OffHoursPolicy
  readonly tier?: Tier
  readonly limits?: ReadonlyArray<Limit>
  readonly warmupFactor?: number
  readonly healthFactor?: number
  readonly usage?: PlanInput["account"]["usage"]
  readonly writesNotBefore?: number | null
}

/** An active premium account in Berlin, inside working hours, nothing spent; each test changes what it is about. */
const input = (options: Options = {}): PlanInput => ({
  nowMs: at(options.nowIso ?? WEDNESDAY_10),
  job: { isWrite: options.isWrite ?? true, category: options.category === undefined ? "invites" : options.category },
  account: {
    status: options.status ?? "active",
    readsOnlyUntil: options.readsOnlyUntil ?? null,
    hours: options.hours ?? berlin,
    offHoursPolicy: options.offHoursPolicy ?? "queue",
    limits: options.limits ?? limitsFor(options.tier ?? "premium", []),
    factors: {
      warmupFactor: options.warmupFactor ?? full.warmupFactor,
      healthFactor: options.healthFactor ?? full.healthFactor
    },
    usage: options.usage ?? {},
    writesNotBefore: options.writesNotBefore ?? null
  }
})

const plan = (options: Options = {}): Plan => planJob(input(options))

/** A plan as `{tag, reason, until}` with ISO times, so one assertion shows every field. */
type Summary =
  | { readonly tag: "Run" }
  | { readonly tag: "Wait"; readonly reason: WaitReason; readonly until: string | null }
  | { readonly tag: "Fail"; readonly type: string }

const summary = (result: Plan): Summary => {
  switch (result._tag) {
    case "Run":
      return { tag: "Run" }
    case "Wait":
      return { tag: "Wait", reason: result.reason, until: iso(result.until) }
    case "Fail":
      return { tag: "Fail", type: result.error.type }
  }
}

const waits = (reason: WaitReason, until: string | null): Summary => ({ tag: "Wait", reason, until })
const runs: Summary = { tag: "Run" }

describe("planJob: writes and the account's status", () => {
  it("runs a write on an active or warming account inside hours with budget left", () => {
    assert.deepStrictEqual(summary(plan()), runs)
    assert.deepStrictEqual(summary(plan({ status: "warming" })), runs)
  })

  it("waits without a time while the account connects, needs reconnecting, is paused or stopped", () => {
    assert.deepStrictEqual(summary(plan({ status: "connecting" })), waits("account_connecting", null))
    assert.deepStrictEqual(summary(plan({ status: "reconnect_required" })), waits("reconnect", null))
    assert.deepStrictEqual(summary(plan({ status: "paused" })), waits("account_paused", null))
    assert.deepStrictEqual(summary(plan({ status: "stopped" })), waits("account_paused", null))
  })

  it("holds writes of a restricted account until readsOnlyUntil, or without a time when it is unknown", () => {
    const until = at("2026-03-11T09:00:00.000Z")
    assert.deepStrictEqual(summary(plan({ status: "restricted", readsOnlyUntil: until })), waits("account_paused", iso(until)))
    assert.deepStrictEqual(summary(plan({ status: "restricted" })), waits("account_paused", null))
  })

  it("never gives a restricted account a wait time already past (the Governor would spin)", () => {
    const past = at("2026-03-01T09:00:00.000Z")
    assert.deepStrictEqual(summary(plan({ status: "restricted", readsOnlyUntil: past })), waits("account_paused", null))
  })

  it("holds writes during a reads-only period even when the status allows writes", () => {
    const until = at("2026-03-05T12:00:00.000Z")
    assert.deepStrictEqual(summary(plan({ status: "active", readsOnlyUntil: until })), waits("account_paused", iso(until)))
    assert.deepStrictEqual(summary(plan({ status: "warming", readsOnlyUntil: until })), waits("account_paused", iso(until)))
  })

  it("lets writes run once the reads-only period has ended (the end itself included)", () => {
    assert.deepStrictEqual(summary(plan({ readsOnlyUntil: at(WEDNESDAY_10) })), runs)
    assert.deepStrictEqual(summary(plan({ readsOnlyUntil: at("2026-03-01T00:00:00.000Z") })), runs)
  })

  it("checks the status before working hours, budgets and pacing", () => {
    const everythingElseBlocks: Options = {
      nowIso: "2026-03-07T12:00:00.000Z", // Saturday
      offHoursPolicy: "reject",
      usage: { invites: used(20) },
      writesNotBefore: at("2026-03-08T00:00:00.000Z")
    }
    assert.deepStrictEqual(summary(plan({ ...everythingElseBlocks, status: "paused" })), waits("account_paused", null))
    assert.deepStrictEqual(summary(plan({ ...everythingElseBlocks, status: "connecting" })), waits("account_connecting", null))
  })
})

describe("planJob: writes and working hours", () => {
  const fridayEvening = "2026-03-06T18:00:00.000Z" // 19:00 in Berlin
  const mondayOpening = "2026-03-09T08:00:00.000Z" // 09:00 in Berlin

  it("queues a write outside hours until the next opening, over the weekend", () => {
    assert.deepStrictEqual(summary(plan({ nowIso: fridayEvening })), waits("working_hours", mondayOpening))
  })

  it("queues a write before the morning opening until the same day's opening", () => {
    assert.deepStrictEqual(
      summary(plan({ nowIso: "2026-03-04T06:00:00.000Z" })),
      waits("working_hours", "2026-03-04T08:00:00.000Z")
    )
  })

  it("treats the closing time as closed and the opening time as open", () => {
    assert.deepStrictEqual(
      summary(plan({ nowIso: "2026-03-04T17:00:00.000Z" })),
      waits("working_hours", "2026-03-05T08:00:00.000Z")
    )
    assert.deepStrictEqual(summary(plan({ nowIso: "2026-03-04T08:00:00.000Z" })), runs)
  })

  it("fails a write outside hours at once under reject, naming the next opening and what to do", () => {
    const result = plan({ nowIso: fridayEvening, offHoursPolicy: "reject" })
    if (result._tag !== "Fail") throw new Error(`expected Fail, got ${result._tag}`)
    assert.strictEqual(result.error.type, "offHours")
    assert.include(result.error.message, mondayOpening)
    assert.include(result.error.message, "Monday 09:00 in Europe/Berlin")
    assert.include(result.error.message, "Mon, Tue, Wed, Thu, Fri 09:00-18:00 Europe/Berlin")
    assert.include(result.error.next, mondayOpening)
    assert.include(result.error.next, "offHoursPolicy")
    assert.include(result.error.next, "PATCH /v1/accounts/{id}")
  })

  it("lets a write under reject run inside hours", () => {
    assert.deepStrictEqual(summary(plan({ offHoursPolicy: "reject" })), runs)
  })

  it("ignores working hours under run", () => {
    assert.deepStrictEqual(summary(plan({ nowIso: fridayEvening, offHoursPolicy: "run" })), runs)
    assert.deepStrictEqual(summary(plan({ nowIso: "2026-03-08T03:00:00.000Z", offHoursPolicy: "run" })), runs)
  })

  it("checks working hours before budgets and pacing", () => {
    const blocked: Options = { nowIso: fridayEvening, usage: { invites: used(20) }, writesNotBefore: at("2026-03-07T00:00:00.000Z") }
    assert.deepStrictEqual(summary(plan(blocked)), waits("working_hours", mondayOpening))
    assert.strictEqual(plan({ ...blocked, offHoursPolicy: "reject" })._tag, "Fail")
  })
})

describe("planJob: write budgets", () => {
  // Premium defaults: invites 20 a day, 100 a week; inmails 5 a month.

  it("runs while one unit is left and schedules the job once the daily budget is spent", () => {
    assert.deepStrictEqual(summary(plan({ usage: { invites: used(19) } })), runs)
    assert.deepStrictEqual(
      summary(plan({ usage: { invites: used(20) } })),
      waits("budget", "2026-03-05T08:00:00.000Z") // Thursday 09:00 in Berlin
    )
  })

  it("schedules a daily exhaustion on Friday for Monday morning, skipping the weekend", () => {
    assert.deepStrictEqual(
      summary(plan({ nowIso: FRIDAY_15, usage: { invites: used(20, 60) } })),
      waits("budget", "2026-03-09T08:00:00.000Z")
    )
  })

  it("does not fail an over-budget write under reject: it is scheduled for the next working morning", () => {
    assert.deepStrictEqual(
      summary(plan({ offHoursPolicy: "reject", usage: { invites: used(20) } })),
      waits("budget", "2026-03-05T08:00:00.000Z")
    )
  })

  it("under run, schedules for the local midnight when the day rolls over, weekend or not", () => {
    assert.deepStrictEqual(
      summary(plan({ nowIso: FRIDAY_15, offHoursPolicy: "run", usage: { invites: used(20, 60) } })),
      waits("budget", "2026-03-06T23:00:00.000Z") // Saturday 00:00 in Berlin
    )
  })

  it("schedules a weekly exhaustion for next week's first working window", () => {
    assert.deepStrictEqual(
      summary(plan({ usage: { invites: used(5, 100) } })),
      waits("budget", "2026-03-09T08:00:00.000Z")
    )
  })

  it("waits for the later refill when the daily and the weekly budget are both full", () => {
    assert.deepStrictEqual(
      summary(plan({ usage: { invites: used(20, 100) } })),
      waits("budget", "2026-03-09T08:00:00.000Z")
    )
  })

  it("moves a weekly refill to the first working day of the next week (Tuesday to Thursday hours)", () => {
    const tueToThu: Hours = { ...berlin, days: [2, 3, 4] }
    assert.deepStrictEqual(
      summary(plan({ hours: tueToThu, usage: { invites: used(5, 100) } })),
      waits("budget", "2026-03-10T08:00:00.000Z")
    )
  })

  it("moves a weekly refill under run to Monday 00:00 local", () => {
    assert.deepStrictEqual(
      summary(plan({ offHoursPolicy: "run", usage: { invites: used(5, 100) } })),
      waits("budget", "2026-03-08T23:00:00.000Z")
    )
  })

  it("schedules spent InMail credits for the first working window of the next month", () => {
    // 1 August 2026 is a Saturday, so the credits are next usable on Monday 3 August, 09:00 CEST.
    const july = "2026-07-15T08:00:00.000Z"
    assert.deepStrictEqual(summary(plan({ nowIso: july, category: "inmails", usage: { inmails: used(0, 0, 4) } })), runs)
    assert.deepStrictEqual(
      summary(plan({ nowIso: july, category: "inmails", usage: { inmails: used(0, 0, 5) } })),
      waits("budget", "2026-08-03T07:00:00.000Z")
    )
  })

  it("never lets a free account send an InMail in this period (its ceiling is 0)", () => {
    assert.deepStrictEqual(
      summary(plan({ tier: "free", category: "inmails" })),
      waits("budget", "2026-04-01T07:00:00.000Z") // Wednesday 1 April, 09:00 CEST
    )
  })

  it("shrinks the allowance during warm-up (20% of 20 invites is 4)", () => {
    assert.deepStrictEqual(summary(plan({ status: "warming", warmupFactor: 0.2, usage: { invites: used(3) } })), runs)
    assert.deepStrictEqual(
      summary(plan({ status: "warming", warmupFactor: 0.2, usage: { invites: used(4) } })),
      waits("budget", "2026-03-05T08:00:00.000Z")
    )
  })

  it("runs a yellow account out of budget at half the limit", () => {
    const yellow = healthFactor("yellow")
    assert.deepStrictEqual(summary(plan({ healthFactor: yellow, usage: { invites: used(9) } })), runs)
    assert.deepStrictEqual(
      summary(plan({ healthFactor: yellow, usage: { invites: used(10) } })),
      waits("budget", "2026-03-05T08:00:00.000Z")
    )
    assert.deepStrictEqual(summary(plan({ healthFactor: healthFactor("green"), usage: { invites: used(10) } })), runs)
  })

  it("combines warm-up and health, rounding down (100 weekly x 0.57 x 0.5 = 28)", () => {
    const scaled: Options = { warmupFactor: 0.57, healthFactor: 0.5 }
    assert.deepStrictEqual(summary(plan({ ...scaled, usage: { invites: used(0, 27) } })), runs)
    assert.deepStrictEqual(
      summary(plan({ ...scaled, usage: { invites: used(0, 28) } })),
      waits("budget", "2026-03-09T08:00:00.000Z")
    )
  })

  it("blocks a category whose limit is switched off", () => {
    const limits = limitsFor("premium", [{ category: "comments", period: "daily", maxValue: 25, isEnabled: false }])
    assert.deepStrictEqual(
      summary(plan({ category: "comments", limits })),
      waits("budget", "2026-03-05T08:00:00.000Z")
    )
  })

  it("never blocks a job that spends no category, or a category without limits", () => {
    const spent = { invites: used(1000, 1000, 1000) }
    assert.deepStrictEqual(summary(plan({ category: null, usage: spent })), runs)
    const withoutInvites = limitsFor("premium", []).filter((limit) => limit.category !== "invites")
    assert.deepStrictEqual(summary(plan({ limits: withoutInvites, usage: spent })), runs)
  })

  it("only counts the job's own category", () => {
    assert.deepStrictEqual(summary(plan({ category: "messages", usage: { invites: used(20, 100) } })), runs)
  })

  it("checks budgets before pacing", () => {
    assert.deepStrictEqual(
      summary(plan({ usage: { invites: used(20) }, writesNotBefore: at(WEDNESDAY_10) + 60_000 })),
      waits("budget", "2026-03-05T08:00:00.000Z")
    )
  })
})

describe("planJob: pacing", () => {
  it("waits for the pacing gate, then runs from the gate on", () => {
    const gate = at(WEDNESDAY_10) + 60_000
    assert.deepStrictEqual(summary(plan({ writesNotBefore: gate })), waits("pacing", iso(gate)))
    assert.deepStrictEqual(summary(plan({ nowIso: new Date(gate).toISOString(), writesNotBefore: gate })), runs)
    assert.deepStrictEqual(summary(plan({ writesNotBefore: at(WEDNESDAY_10) - 1 })), runs)
  })

  it("paces writes even under off-hours policy run", () => {
    const gate = at(FRIDAY_15) + 90_000
    assert.deepStrictEqual(summary(plan({ nowIso: FRIDAY_15, offHoursPolicy: "run", writesNotBefore: gate })), waits("pacing", iso(gate)))
  })
})

describe("planJob: search rows", () => {
  // Free defaults: 300 rows a day, 3000 a month.
  const search: Options = { tier: "free", category: "search_rows" }

  it("needs room for at least one row", () => {
    assert.deepStrictEqual(summary(plan({ ...search, isWrite: false, usage: { search_rows: used(299) } })), runs)
    assert.deepStrictEqual(
      summary(plan({ ...search, isWrite: false, usage: { search_rows: used(300) } })),
      waits("budget", "2026-03-04T23:00:00.000Z") // Thursday 00:00 in Berlin
    )
  })

  it("waits for the next month once the monthly rows are spent", () => {
    assert.deepStrictEqual(
      summary(plan({ ...search, isWrite: false, usage: { search_rows: used(10, 900, 3000) } })),
      waits("budget", "2026-03-31T22:00:00.000Z") // 1 April 00:00 CEST
    )
  })
})

describe("planJob: reads", () => {
  const read = (options: Options = {}) => summary(plan({ category: "profile_views", ...options, isWrite: false }))

  it("runs in every status that allows reads: pausing stops writes only", () => {
    for (const status of ["warming", "active", "paused", "restricted"] as const) {
      assert.deepStrictEqual(read({ status }), runs, status)
    }
  })

  it("waits without a time while connecting, needing a reconnect or stopped", () => {
    assert.deepStrictEqual(read({ status: "connecting" }), waits("account_connecting", null))
    assert.deepStrictEqual(read({ status: "reconnect_required" }), waits("reconnect", null))
    assert.deepStrictEqual(read({ status: "stopped" }), waits("account_paused", null))
  })

  it("ignores working hours, off-hours policy, pacing and the reads-only period", () => {
    const saturdayNight = "2026-03-07T23:30:00.000Z"
    assert.deepStrictEqual(read({ nowIso: saturdayNight, offHoursPolicy: "reject" }), runs)
    assert.deepStrictEqual(read({ nowIso: saturdayNight, offHoursPolicy: "queue" }), runs)
    assert.deepStrictEqual(read({ writesNotBefore: at(WEDNESDAY_10) + 60_000 }), runs)
    assert.deepStrictEqual(read({ status: "restricted", readsOnlyUntil: at("2026-03-11T09:00:00.000Z") }), runs)
  })

  it("waits for the local midnight when the daily budget is spent, weekend or not", () => {
    // Premium: 80 profile views a day.
    assert.deepStrictEqual(
      read({ nowIso: FRIDAY_15, usage: { profile_views: used(80) } }),
      waits("budget", "2026-03-06T23:00:00.000Z")
    )
  })

  it("scales read budgets with warm-up and health too", () => {
    assert.deepStrictEqual(read({ warmupFactor: 0.2, usage: { profile_views: used(15) } }), runs)
    assert.deepStrictEqual(
      read({ warmupFactor: 0.2, usage: { profile_views: used(16) } }),
      waits("budget", "2026-03-04T23:00:00.000Z")
    )
    assert.deepStrictEqual(read({ healthFactor: 0.5, usage: { profile_views: used(40) } }), waits("budget", "2026-03-04T23:00:00.000Z"))
  })

  it("never blocks a read that spends no category", () => {
    assert.deepStrictEqual(read({ category: null, usage: { profile_views: used(1000) } }), runs)
  })
})

describe("planJob: a Europe/Berlin account across the DST changes of 2026", () => {
  it("schedules a Friday daily exhaustion before the spring change for Monday 09:00 CEST (07:00Z)", () => {
    assert.deepStrictEqual(
      summary(plan({ nowIso: "2026-03-27T14:00:00.000Z", usage: { invites: used(20, 60) } })),
      waits("budget", "2026-03-30T07:00:00.000Z")
    )
  })

  it("queues a write on the Friday evening before the spring change until Monday 09:00 CEST", () => {
    assert.deepStrictEqual(
      summary(plan({ nowIso: "2026-03-27T18:30:00.000Z" })),
      waits("working_hours", "2026-03-30T07:00:00.000Z")
    )
  })

  it("finds local midnight on each side of the spring change under run", () => {
    // Saturday 28 March: the next day starts at 00:00 CET; Sunday 29 March: the next at 00:00 CEST.
    assert.deepStrictEqual(
      summary(plan({ nowIso: "2026-03-28T12:00:00.000Z", offHoursPolicy: "run", usage: { invites: used(20, 60) } })),
      waits("budget", "2026-03-28T23:00:00.000Z")
    )
    assert.deepStrictEqual(
      summary(plan({ nowIso: "2026-03-29T12:00:00.000Z", offHoursPolicy: "run", usage: { invites: used(20, 60) } })),
      waits("budget", "2026-03-29T22:00:00.000Z")
    )
  })

  it("schedules a weekly exhaustion in the week of the spring change for the next Monday 09:00 CEST", () => {
    assert.deepStrictEqual(
      summary(plan({ nowIso: "2026-03-25T10:00:00.000Z", usage: { invites: used(0, 100) } })),
      waits("budget", "2026-03-30T07:00:00.000Z")
    )
  })

  it("schedules a Friday daily exhaustion before the autumn change for Monday 09:00 CET (08:00Z)", () => {
    assert.deepStrictEqual(
      summary(plan({ nowIso: "2026-10-23T13:00:00.000Z", usage: { invites: used(20, 60) } })),
      waits("budget", "2026-10-26T08:00:00.000Z")
    )
  })

  it("names the opening in local time after the change in an offHours failure", () => {
    const result = plan({ nowIso: "2026-03-27T18:30:00.000Z", offHoursPolicy: "reject" })
    if (result._tag !== "Fail") throw new Error(`expected Fail, got ${result._tag}`)
    assert.include(result.error.message, "2026-03-30T07:00:00.000Z (Monday 09:00 in Europe/Berlin)")
  })
})

describe("pacingGap", () => {
  it("maps 0 to the shortest gap and values just under 1 to the longest", () => {
    assert.strictEqual(pacingGap(0), PACING_MIN_MS)
    assert.strictEqual(pacingGap(0.999_999_999), PACING_MAX_MS)
  })

  it("spreads the middle of the range evenly", () => {
    assert.strictEqual(pacingGap(0.5), PACING_MIN_MS + Math.floor((PACING_MAX_MS - PACING_MIN_MS + 1) / 2))
  })

  it("always gives whole milliseconds within the range, growing with the input", () => {
    let previous = 0
    for (let step = 0; step < 1000; step++) {
      const gap = pacingGap(step / 1000)
      assert.isTrue(Number.isInteger(gap))
      assert.isTrue(gap >= PACING_MIN_MS && gap <= PACING_MAX_MS, `gap ${gap}`)
      assert.isTrue(gap >= previous)
      previous = gap
    }
  })

  it("clamps inputs outside [0, 1)", () => {
    assert.strictEqual(pacingGap(-0.5), PACING_MIN_MS)
    assert.strictEqual(pacingGap(1), PACING_MAX_MS)
    assert.strictEqual(pacingGap(7), PACING_MAX_MS)
  })
})
