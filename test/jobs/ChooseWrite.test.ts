/**
 * `chooseWrite` (which queued write of an account runs next) and the forecast's
 * `simulate` built on it, on generated queues and accounts.
 */
import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import type { AccountStatus, OffHoursPolicy } from "../../src/domain/Account.ts"
import { type Category, fullPeriods, limitsFor, type Usage } from "../../src/domain/Limits.ts"
import { defaultWorkingHours, isOpen, localDate, startOfLocalWeek } from "../../src/domain/WorkingHours.ts"
import { factsAt, type LoadedFacts, type PlanRow } from "../../src/jobs/AccountFacts.ts"
import { EXPECTED_GAP_MS, type ForecastWrite, simulate } from "../../src/jobs/Forecast.ts"
import { chooseWrite, type PlanInput, planJob, type QueuedWrite } from "../../src/jobs/Plan.ts"
import { aboutOf } from "../../src/jobs/WriteTarget.ts"

const berlin = defaultWorkingHours("Europe/Berlin")
const alwaysOpen = { days: [1, 2, 3, 4, 5, 6, 7], from: "00:00", to: "23:59", timezone: "Europe/Berlin" }
const writeCategories: ReadonlyArray<Category | null> = ["invites", "messages", "invite_withdrawals", "posts", "comments", null]
const limits = limitsFor("premium", [
  { category: "invites", period: "daily", maxValue: 3, isEnabled: true },
  { category: "invites", period: "weekly", maxValue: 10, isEnabled: true },
  { category: "posts", period: "daily", maxValue: 1, isEnabled: true },
  { category: "comments", period: "daily", maxValue: 0, isEnabled: true }
])

const queuedWrite = fc.record({
  category: fc.constantFrom(...writeCategories),
  about: fc.option(fc.constantFrom("ada", "bob", "cy", "dee"), { nil: null })
})
const queue = fc.array(queuedWrite, { maxLength: 30 })
const spent = fc.record({ today: fc.nat(4), week: fc.nat(12), month: fc.nat(12) }).map((counts) => ({
  today: counts.today,
  week: Math.max(counts.week, counts.today),
  month: Math.max(counts.month, counts.week, counts.today)
}))
const usage: fc.Arbitrary<Usage> = fc.record({ invites: spent, posts: spent, messages: spent, invite_withdrawals: spent })
// 2026-03-02 (a Monday) to 2026-03-30, any minute.
const instant = fc.integer({ min: Date.parse("2026-03-02T00:00:00Z"), max: Date.parse("2026-03-30T00:00:00Z") })
const account = fc.record({
  status: fc.constantFrom<AccountStatus>("active", "active", "active", "warming", "paused", "restricted"),
  offHoursPolicy: fc.constantFrom<OffHoursPolicy>("queue", "run", "reject"),
  hours: fc.constantFrom(berlin, alwaysOpen),
  usage,
  gate: fc.option(fc.integer({ min: -120_000, max: 120_000 }), { nil: null }),
  warmupFactor: fc.constantFrom(0.2, 0.5, 1),
  healthFactor: fc.constantFrom(0.5, 1)
})

type Generated = typeof account extends fc.Arbitrary<infer A> ? A : never

const accountAt = (generated: Generated, nowMs: number): PlanInput["account"] => ({
  status: generated.status,
  readsOnlyUntil: null,
  hours: generated.hours,
  offHoursPolicy: generated.offHoursPolicy,
  limits,
  factors: { warmupFactor: generated.warmupFactor, healthFactor: generated.healthFactor },
  usage: generated.usage,
  writesNotBefore: generated.gate === null ? null : nowMs + generated.gate
})

const planOf = (write: QueuedWrite, state: PlanInput["account"], nowMs: number) =>
  planJob({ nowMs, job: { isWrite: true, category: write.category }, account: state })

describe("chooseWrite", () => {
  it("a write is passed over only for its own category's budget, or behind an earlier write about the same target", () => {
    fc.assert(fc.property(queue, account, instant, (writes, generated, nowMs) => {
      const state = accountAt(generated, nowMs)
      const choice = chooseWrite(writes, state, nowMs)
      const held = new Map(choice.held.map((write) => [write.index, write]))
      const end = choice.index ?? writes.length
      for (let index = 0; index < end; index++) {
        const write = held.get(index)
        assert.isDefined(write, `write ${index} before the chosen one is passed over`)
        if (write === undefined) continue
        if (write.reason === "budget") {
          // It spends the budget it waits for: its own plan says budget.
          const own = planOf(writes[index], state, nowMs)
          assert.strictEqual(own._tag === "Wait" ? own.reason : own._tag, "budget", `write ${index}`)
          assert.isNotNull(writes[index].category)
        } else {
          assert.strictEqual(write.reason, "queue")
          const about = writes[index].about
          assert.isTrue(
            about !== null && choice.held.some((earlier) => earlier.index < index && writes[earlier.index].about === about),
            `write ${index} waits behind an earlier write about ${about}`
          )
        }
      }
    }), { numRuns: 500 })
  })

  it("the chosen write's own plan is the answer: it runs, fails, or meets a wait of the whole account", () => {
    fc.assert(fc.property(queue, account, instant, (writes, generated, nowMs) => {
      const state = accountAt(generated, nowMs)
      const choice = chooseWrite(writes, state, nowMs)
      if (choice.index === null) {
        assert.strictEqual(choice.held.length, writes.length)
        return
      }
      const own = planOf(writes[choice.index], state, nowMs)
      assert.strictEqual(own._tag, choice._tag)
      if (own._tag === "Wait" && choice._tag === "Wait") {
        assert.notStrictEqual(own.reason, "budget")
        assert.strictEqual(choice.reason, own.reason)
        assert.strictEqual(choice.until, own.until)
      }
    }), { numRuns: 500 })
  })

  it("an account that may not write, or is outside its hours, holds every write", () => {
    fc.assert(fc.property(queue, account, instant, (writes, generated, nowMs) => {
      const state = accountAt(generated, nowMs)
      const closed = state.offHoursPolicy !== "run" && !isOpen(state.hours, nowMs)
      const barred = state.status === "paused" || state.status === "restricted"
      fc.pre(writes.length > 0 && (closed || barred))
      const choice = chooseWrite(writes, state, nowMs)
      assert.notStrictEqual(choice._tag, "Run")
      assert.strictEqual(choice.held.length, 0)
      assert.strictEqual(choice.index, 0)
    }), { numRuns: 300 })
  })

  it("head of line: a connect over budget lets the withdrawals behind it run", () => {
    const nowMs = Date.parse("2026-03-04T09:00:00Z")
    const state = { ...accountAt({ status: "active", offHoursPolicy: "queue", hours: berlin, usage: { invites: { today: 3, week: 3, month: 3 } }, gate: null, warmupFactor: 1, healthFactor: 1 }, nowMs) }
    const writes: Array<QueuedWrite> = [
      { category: "invites", about: "ada" },
      ...Array.from({ length: 5 }, (_, n): QueuedWrite => ({ category: "invite_withdrawals", about: `person-${n}` }))
    ]
    const choice = chooseWrite(writes, state, nowMs)
    assert.deepStrictEqual({ tag: choice._tag, index: choice.index }, { tag: "Run", index: 1 })
    assert.deepStrictEqual(choice.held.map((write) => [write.index, write.reason, write.direct]), [[0, "budget", true]])
    // A withdrawal about the person whose invitation waits keeps its place behind it.
    const same = chooseWrite([writes[0], { category: "invite_withdrawals", about: "ada" }, writes[1]], state, nowMs)
    assert.strictEqual(same._tag === "Run" ? same.index : -1, 2)
    assert.deepStrictEqual(same.held.map((write) => [write.index, write.reason]), [[0, "budget"], [1, "queue"]])
  })
})

// ---------------------------------------------------------------------------
// The forecast's simulation
// ---------------------------------------------------------------------------

const row = (generated: Generated, nowMs: number): PlanRow => ({
  id: "0b7c6a1e-3f4d-4e2a-9b8c-7d6e5f4a3b2c",
  workspaceId: "1b7c6a1e-3f4d-4e2a-9b8c-7d6e5f4a3b2c",
  label: "Ada",
  status: generated.status,
  resumeStatus: null,
  tier: "premium",
  products: [],
  healthLevel: generated.healthFactor === 1 ? "green" : "yellow",
  healthReason: null,
  pausedUntil: null,
  readsOnlyUntil: null,
  restrictedAt: null,
  connections: 500,
  minInviteQuality: 0,
  autoWithdrawDays: null,
  // Warming: started up to a few days ago, so the ramp climbs during the forecast.
  warmupStartedAt: nowMs - (generated.warmupFactor === 1 ? 30 : 2) * 86_400_000,
  warmupStartDay: 1,
  workingDays: [...generated.hours.days],
  workFrom: generated.hours.from,
  workTo: generated.hours.to,
  timezone: generated.hours.timezone,
  offHoursPolicy: generated.offHoursPolicy === "reject" ? "queue" : generated.offHoursPolicy,
  mode: "autopilot",
  linkUrl: null,
  linkExpiresAt: null,
  checkpoint: null,
  connectedAt: null,
  createdAt: new Date(nowMs).toISOString(),
  writesNotBefore: generated.gate === null ? null : nowMs + generated.gate
})

const overrides = [
  { category: "invites", period: "daily", maxValue: 3, isEnabled: true },
  { category: "invites", period: "weekly", maxValue: 10, isEnabled: true },
  { category: "posts", period: "daily", maxValue: 1, isEnabled: true },
  { category: "comments", period: "daily", maxValue: 0, isEnabled: true }
] as const

const loadedOf = (generated: Generated, nowMs: number): LoadedFacts => ({
  row: row(generated, nowMs),
  overrides,
  // The week's and month's counts are what has been spent: the forecast starts on a fresh local day.
  usage: {},
  dayStart: Date.parse(`${localDate("Europe/Berlin", nowMs)}T00:00:00Z`) - 3_600_000
})

const forecastWrites = (writes: ReadonlyArray<QueuedWrite>): Array<ForecastWrite> =>
  writes.map((write, index) => ({ ...write, id: String(index) }))

describe("simulate (the forecast)", () => {
  it("one write at a time, inside working hours and budgets, creation order within a category and per target", () => {
    fc.assert(fc.property(queue, account, instant, (writes, generated, nowMs) => {
      const loaded = loadedOf(generated, nowMs)
      const outlook = simulate(loaded, forecastWrites(writes), nowMs)
      assert.strictEqual(outlook.writes.length, writes.length)
      const started = outlook.writes.filter((write) => write.start !== null)
      // One at a time, the expected pacing gap apart.
      for (let i = 1; i < started.length; i++) {
        assert.isAtLeast((started[i].start ?? 0) - (started[i - 1].start ?? 0), EXPECTED_GAP_MS)
      }
      const spent = new Map<string, number>()
      for (const write of started) {
        const start = write.start ?? 0
        const { account: state } = factsAt(loaded, start)
        if (state.offHoursPolicy !== "run") assert.isTrue(isOpen(state.hours, start), `write ${write.id} inside hours`)
        if (write.category !== null) {
          // Never over budget: counted per local day and week as the simulation went.
          const day = `${write.category}:${localDate("Europe/Berlin", start)}`
          const week = `${write.category}:w${startOfLocalWeek("Europe/Berlin", start)}`
          const today = spent.get(day) ?? 0
          const thisWeek = spent.get(week) ?? 0
          const usageThen: Usage = { [write.category]: { today, week: thisWeek, month: thisWeek } }
          assert.deepStrictEqual(fullPeriods(write.category, 1, state.limits, state.factors, usageThen), [], `write ${write.id} within budget`)
          spent.set(day, today + 1)
          spent.set(week, thisWeek + 1)
        }
      }
      // Creation order among writes about one target, and within a category among writes not held behind their target.
      const startOf = new Map(outlook.writes.map((write) => [Number(write.id), write.start]))
      const free = (index: number) => !writes.slice(0, index).some((other) => other.about !== null && other.about === writes[index].about)
      for (let a = 0; a < writes.length; a++) {
        for (let b = a + 1; b < writes.length; b++) {
          const sameCategory = writes[a].category !== null && writes[a].category === writes[b].category && free(a)
          const sameTarget = writes[a].about !== null && writes[a].about === writes[b].about
          const later = startOf.get(b)
          if ((sameCategory || sameTarget) && later !== null && later !== undefined) {
            const earlier = startOf.get(a)
            assert.isTrue(earlier !== null && earlier !== undefined && earlier < later, `write ${a} before write ${b}`)
          }
        }
      }
    }), { numRuns: 200 })
  })

  it("no write of another category waits for a budget it does not spend", () => {
    fc.assert(fc.property(queue, account, instant, (writes, generatedAny, nowMs) => {
      // Green health: under yellow a post's daily 1 scales to 0 and no post is ever foreseen.
      const generated = { ...generatedAny, healthFactor: 1 as const }
      const outlook = simulate(loadedOf(generated, nowMs), forecastWrites(writes), nowMs)
      const comments = outlook.writes.filter((write) => write.category === "comments")
      // Comments have a budget of 0: they never start, and nothing else waits for them.
      assert.isTrue(comments.every((write) => write.start === null), "no comment starts")
      const others = outlook.writes.filter((write) =>
        write.category !== "comments" && !writes.some((other, index) =>
          other.category === "comments" && other.about !== null && other.about === writes[Number(write.id)].about && index < Number(write.id)
        )
      )
      if (generated.status !== "paused" && generated.status !== "restricted") {
        for (const write of others) assert.isNotNull(write.start, `write ${write.id} is foreseen`)
      }
    }), { numRuns: 200 })
  })
})

describe("what a write is about", () => {
  it("a profile address and its slug are one person; other targets are themselves; a post is about nobody", () => {
    assert.strictEqual(aboutOf({ person: "https://www.linkedin.com/in/Ada-L/?trk=x" }), "ada-l")
    assert.strictEqual(aboutOf({ person: "ada-l" }), "ada-l")
    assert.strictEqual(aboutOf({ invitationId: "5d1f8a2e" }), "5d1f8a2e")
    assert.isNull(aboutOf({ text: "Hello" }))
  })
})

describe("simulate: what the Governor would refuse", () => {
  it("under offHoursPolicy reject, each write met outside the hours is expected to fail, and the queue is empty at once", () => {
    const nowMs = Date.parse("2026-03-07T10:00:00Z") // a Saturday
    const generated: Generated = { status: "active", offHoursPolicy: "reject", hours: berlin, usage: {}, gate: null, warmupFactor: 1, healthFactor: 1 }
    const loaded = { ...loadedOf(generated, nowMs), row: { ...row(generated, nowMs), offHoursPolicy: "reject" as const } }
    const outlook = simulate(loaded, forecastWrites([{ category: "posts", about: null }, { category: "messages", about: null }]), nowMs)
    assert.deepStrictEqual(outlook.writes.map((write) => [write.id, write.fails?.type ?? null, write.start]), [["0", "offHours", null], ["1", "offHours", null]])
    assert.strictEqual(outlook.emptyAt, nowMs)
  })
})
