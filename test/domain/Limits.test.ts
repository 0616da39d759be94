import { assert, describe, it } from "@effect/vitest"
import { Effect, Result, Schema } from "effect"
import {
  allowance,
  applyLimitUpdates,
  budgetOf,
  Budgets,
  budgetsLeft,
  capAtCeiling,
  categories,
  effectiveLimit,
  fullPeriods,
  healthFactor,
  isCountedPerRow,
  Limit,
  type LimitOverride,
  limitsFor,
  LimitUpdate,
  nextPeriodStart,
  periodStart,
  periods,
  tierBound,
  tierTable,
  tiers
} from "../../src/domain/Limits.ts"
import { categoryOfJob } from "../../src/domain/Commands.ts"

const at = (iso: string): number => Date.parse(iso)
const iso = (ms: number): string => new Date(ms).toISOString()
const full = { warmupFactor: 1, healthFactor: 1 }

const limitOf = (limits: ReadonlyArray<Limit>, category: Limit["category"], period: Limit["period"]): Limit => {
  const found = limits.find((limit) => limit.category === category && limit.period === period)
  if (found === undefined) throw new Error(`no ${category} ${period} limit`)
  return found
}

const applied = (result: Result.Result<ReadonlyArray<LimitOverride>, unknown>): ReadonlyArray<LimitOverride> => {
  if (Result.isFailure(result)) throw new Error(`expected success, got ${JSON.stringify(result.failure)}`)
  return result.success
}

describe("vocabulary", () => {
  it("has 12 categories, 3 periods and 4 tiers", () => {
    assert.deepStrictEqual(categories, [
      "invites",
      "messages",
      "inmails",
      "profile_views",
      "company_views",
      "search_rows",
      "comments",
      "reactions",
      "posts",
      "endorsements",
      "invite_withdrawals",
      "list_polls"
    ])
    assert.deepStrictEqual(periods, ["daily", "weekly", "monthly"])
    assert.deepStrictEqual(tiers, ["free", "premium", "sales_nav", "recruiter"])
  })

  it("health scales by 1, 0.5 and 0", () => {
    assert.strictEqual(healthFactor("green"), 1)
    assert.strictEqual(healthFactor("yellow"), 0.5)
    assert.strictEqual(healthFactor("red"), 0)
  })
})

describe("the tier table", () => {
  it("covers every category, once per period, with a reason", () => {
    for (const category of categories) {
      assert.isTrue(tierTable.some((row) => row.category === category), category)
    }
    const pairs = tierTable.map((row) => `${row.category}/${row.period}`)
    assert.strictEqual(new Set(pairs).size, pairs.length)
    for (const row of tierTable) assert.isAbove(row.reason.length, 20, `${row.category} ${row.period}`)
  })

  it("never has a default above its ceiling, and ceilings never shrink with a better tier", () => {
    for (const row of tierTable) {
      for (const tier of tiers) {
        const bound = row.bounds[tier]
        assert.isAtMost(bound.default, bound.ceiling, `${row.category} ${row.period} ${tier}`)
        assert.isAtLeast(bound.default, 0)
      }
      assert.isAtMost(row.bounds.free.ceiling, row.bounds.premium.ceiling, `${row.category} ${row.period}`)
    }
  })

  it("holds the suggested numbers of the decisions", () => {
    assert.deepStrictEqual(tierBound("free", "invites", "daily"), { default: 15, ceiling: 25 })
    assert.deepStrictEqual(tierBound("premium", "invites", "weekly"), { default: 100, ceiling: 200 })
    assert.deepStrictEqual(tierBound("free", "invites", "weekly"), { default: 80, ceiling: 100 })
    assert.deepStrictEqual(tierBound("recruiter", "messages", "daily"), { default: 80, ceiling: 150 })
    assert.deepStrictEqual(tierBound("free", "inmails", "monthly"), { default: 0, ceiling: 0 })
    assert.deepStrictEqual(tierBound("premium", "inmails", "monthly"), { default: 5, ceiling: 15 })
    assert.deepStrictEqual(tierBound("sales_nav", "inmails", "monthly"), { default: 50, ceiling: 150 })
    assert.deepStrictEqual(tierBound("recruiter", "inmails", "monthly"), { default: 30, ceiling: 120 })
    assert.deepStrictEqual(tierBound("premium", "profile_views", "daily"), { default: 80, ceiling: 150 })
    assert.deepStrictEqual(tierBound("sales_nav", "search_rows", "daily"), { default: 1000, ceiling: 2500 })
    assert.strictEqual(tierBound("premium", "posts", "monthly"), undefined)
    assert.strictEqual(tierBound("premium", "inmails", "daily"), undefined)
  })
})

describe("commands and categories", () => {
  it("maps each metered command to its category", () => {
    const expected: ReadonlyArray<readonly [string, string]> = [
      ["connect", "invites"],
      ["send_message", "messages"],
      ["withdraw_invite", "invite_withdrawals"],
      ["get_profile", "profile_views"],
      ["get_company", "company_views"],
      ["search_people", "search_rows"],
      ["search_companies", "search_rows"],
      ["comment", "comments"],
      ["react", "reactions"],
      ["create_post", "posts"],
      ["endorse", "endorsements"],
      ["list_chats", "list_polls"],
      ["list_invites", "list_polls"]
    ]
    for (const [command, category] of expected) assert.strictEqual(categoryOfJob(command, {}), category, command)
  })

  it("send_message as an InMail spends inmails; other commands spend nothing", () => {
    assert.strictEqual(categoryOfJob("send_message", { chatId: "c1", text: "hi", inmail: true }), "inmails")
    assert.strictEqual(categoryOfJob("send_message", { chatId: "c1", text: "hi", inmail: false }), "messages")
    assert.strictEqual(categoryOfJob("connect", { person: "ada", inmail: true }), "invites")
    for (const command of ["accept_invite", "decline_invite", "save_lead", "get_posts", "ssi", "toString", "x"]) {
      assert.strictEqual(categoryOfJob(command, {}), null, command)
    }
  })

  it("only search rows are counted per row", () => {
    assert.isTrue(isCountedPerRow("search_rows"))
    assert.isFalse(isCountedPerRow("invites"))
    assert.isFalse(isCountedPerRow("list_polls"))
  })
})

describe("effectiveLimit", () => {
  it("is min(user, ceiling) x warm-up x health, rounded down", () => {
    assert.strictEqual(effectiveLimit({ userLimit: 25, ceiling: 40, warmupFactor: 0.2, healthFactor: 1 }), 5)
    assert.strictEqual(effectiveLimit({ userLimit: 80, ceiling: 40, warmupFactor: 1, healthFactor: 1 }), 40)
    assert.strictEqual(effectiveLimit({ userLimit: 7, ceiling: 40, warmupFactor: 1, healthFactor: 0.5 }), 3)
    assert.strictEqual(effectiveLimit({ userLimit: 30, ceiling: 25, warmupFactor: 0.45, healthFactor: 0.5 }), 5)
    assert.strictEqual(effectiveLimit({ userLimit: 15, ceiling: 25, warmupFactor: 0.26, healthFactor: 1 }), 3)
    assert.strictEqual(effectiveLimit({ userLimit: 100, ceiling: 200, warmupFactor: 0.94, healthFactor: 0.5 }), 47)
  })

  it("does not lose a unit to binary rounding when the product is whole", () => {
    // 100 x 0.57 is 56.99999999999999 in floating point.
    assert.strictEqual(effectiveLimit({ userLimit: 100, ceiling: 150, warmupFactor: 0.57, healthFactor: 1 }), 57)
    assert.strictEqual(effectiveLimit({ userLimit: 100, ceiling: 200, warmupFactor: 0.51, healthFactor: 1 }), 51)
  })

  it("is 0 when health is red or the user limit is 0", () => {
    assert.strictEqual(effectiveLimit({ userLimit: 100, ceiling: 200, warmupFactor: 1, healthFactor: 0 }), 0)
    assert.strictEqual(effectiveLimit({ userLimit: 0, ceiling: 200, warmupFactor: 1, healthFactor: 1 }), 0)
  })
})

describe("limit records", () => {
  it("are the tier's defaults when nothing was set", () => {
    const limits = limitsFor("free", [])
    assert.strictEqual(limits.length, tierTable.length)
    assert.deepStrictEqual(limitOf(limits, "invites", "daily"), {
      category: "invites",
      period: "daily",
      default: 15,
      ceiling: 25,
      maxValue: 15,
      isEnabled: true,
      source: "default"
    })
    for (const limit of limits) assert.deepStrictEqual(Schema.decodeUnknownSync(Limit)(limit), limit)
  })

  it("show the user's value with source user", () => {
    const limits = limitsFor("premium", [{ category: "invites", period: "weekly", maxValue: 150, isEnabled: true }])
    assert.deepStrictEqual(limitOf(limits, "invites", "weekly"), {
      category: "invites",
      period: "weekly",
      default: 100,
      ceiling: 200,
      maxValue: 150,
      isEnabled: true,
      source: "user"
    })
    assert.strictEqual(limitOf(limits, "invites", "daily").source, "default")
  })

  it("cap a stored value again after a downgrade to a tier with a lower ceiling", () => {
    const limits = limitsFor("free", [{ category: "invites", period: "weekly", maxValue: 200, isEnabled: true }])
    assert.strictEqual(limitOf(limits, "invites", "weekly").maxValue, 100)
  })
})

describe("PUT /limits", () => {
  it("caps a value above the ceiling at the ceiling", () => {
    assert.strictEqual(capAtCeiling(500, 200), 200)
    const overrides = applied(applyLimitUpdates("premium", [], [{ category: "invites", period: "weekly", maxValue: 500 }]))
    assert.deepStrictEqual(overrides, [{ category: "invites", period: "weekly", maxValue: 200, isEnabled: true }])
    assert.deepStrictEqual(limitOf(limitsFor("premium", overrides), "invites", "weekly"), {
      category: "invites",
      period: "weekly",
      default: 100,
      ceiling: 200,
      maxValue: 200,
      isEnabled: true,
      source: "user"
    })
  })

  it("keeps lower values, including 0, as they are", () => {
    assert.strictEqual(capAtCeiling(10, 200), 10)
    const overrides = applied(applyLimitUpdates("premium", [], [
      { category: "invites", period: "daily", maxValue: 10 },
      { category: "posts", period: "daily", maxValue: 0 }
    ]))
    const limits = limitsFor("premium", overrides)
    assert.strictEqual(limitOf(limits, "invites", "daily").maxValue, 10)
    assert.strictEqual(limitOf(limits, "invites", "daily").source, "user")
    assert.strictEqual(limitOf(limits, "posts", "daily").maxValue, 0)
  })

  it("caps InMails on a free account at 0", () => {
    const overrides = applied(applyLimitUpdates("free", [], [{ category: "inmails", period: "monthly", maxValue: 5 }]))
    assert.strictEqual(overrides[0].maxValue, 0)
  })

  it("keeps isEnabled when omitted and replaces an earlier override", () => {
    const current: ReadonlyArray<LimitOverride> = [
      { category: "comments", period: "daily", maxValue: 10, isEnabled: false },
      { category: "reactions", period: "daily", maxValue: 30, isEnabled: true }
    ]
    const overrides = applied(applyLimitUpdates("premium", current, [{ category: "comments", period: "daily", maxValue: 12 }]))
    assert.deepStrictEqual(overrides, [
      { category: "reactions", period: "daily", maxValue: 30, isEnabled: true },
      { category: "comments", period: "daily", maxValue: 12, isEnabled: false }
    ])
    const enabled = applied(
      applyLimitUpdates("premium", overrides, [{ category: "comments", period: "daily", maxValue: 12, isEnabled: true }])
    )
    assert.isTrue(limitOf(limitsFor("premium", enabled), "comments", "daily").isEnabled)
  })

  it("lets the later of two items for the same limit win", () => {
    const overrides = applied(applyLimitUpdates("premium", [], [
      { category: "invites", period: "daily", maxValue: 30 },
      { category: "invites", period: "daily", maxValue: 12 }
    ]))
    assert.deepStrictEqual(overrides, [{ category: "invites", period: "daily", maxValue: 12, isEnabled: true }])
  })

  it("refuses limits the tier table does not have and changes nothing", () => {
    const result = applyLimitUpdates("premium", [], [
      { category: "invites", period: "daily", maxValue: 10 },
      { category: "posts", period: "monthly", maxValue: 10 },
      { category: "inmails", period: "daily", maxValue: 1 }
    ])
    assert.isTrue(Result.isFailure(result))
    if (Result.isFailure(result)) {
      assert.deepStrictEqual(result.failure, [
        { category: "posts", period: "monthly" },
        { category: "inmails", period: "daily" }
      ])
    }
  })

  it.effect("the update schema requires an integer maxValue of 0 or more and a known category", () =>
    Effect.gen(function*() {
      const decode = Schema.decodeUnknownEffect(LimitUpdate)
      assert.deepStrictEqual(yield* decode({ category: "invites", period: "weekly", maxValue: 0 }), {
        category: "invites",
        period: "weekly",
        maxValue: 0
      })
      const negative = yield* Effect.flip(decode({ category: "invites", period: "weekly", maxValue: -1 }))
      assert.strictEqual(negative.message, "must be an integer of 0 or more\n  at [\"maxValue\"]")
      const unknown = yield* Effect.flip(decode({ category: "likes", period: "weekly", maxValue: 1 }))
      assert.include(unknown.message, "at [\"category\"]")
      yield* Effect.flip(decode({ category: "invites", period: "weekly", maxValue: 1.5 }))
    }))
})

describe("budgets", () => {
  const premium = limitsFor("premium", [])

  it("are the effective limits when nothing was used", () => {
    const budgets = budgetsLeft(premium, full, {})
    assert.deepStrictEqual(budgets.invites, { today: 20, week: 100 })
    assert.deepStrictEqual(budgets.messages, { today: 50, week: 250 })
    assert.deepStrictEqual(budgets.profile_views, { today: 80, week: null })
    assert.deepStrictEqual(budgets.inmails, { today: 5, week: null })
    assert.deepStrictEqual(Object.keys(budgets).sort(), [...categories].sort())
    assert.deepStrictEqual(Schema.decodeUnknownSync(Budgets)(budgets), budgets)
  })

  it("subtract today's and this week's usage", () => {
    const budgets = budgetsLeft(premium, full, { invites: { today: 5, week: 60, month: 200 } })
    assert.deepStrictEqual(budgets.invites, { today: 15, week: 40 })
  })

  it("a nearly full week limits today too", () => {
    const budgets = budgetsLeft(premium, full, { invites: { today: 2, week: 95, month: 300 } })
    assert.deepStrictEqual(budgets.invites, { today: 5, week: 5 })
  })

  it("never go below 0", () => {
    const budgets = budgetsLeft(premium, full, { invites: { today: 30, week: 120, month: 400 } })
    assert.deepStrictEqual(budgets.invites, { today: 0, week: 0 })
  })

  it("a monthly limit binds today for a category without a weekly one", () => {
    const salesNav = limitsFor("sales_nav", [])
    assert.deepStrictEqual(budgetsLeft(salesNav, full, { inmails: { today: 0, week: 0, month: 48 } }).inmails, {
      today: 2,
      week: null
    })
    const free = limitsFor("free", [])
    assert.deepStrictEqual(budgetsLeft(free, full, { search_rows: { today: 10, week: 10, month: 2900 } }).search_rows, {
      today: 100,
      week: null
    })
  })

  it("scale with warm-up and health, rounded down", () => {
    // Day 1 of the ramp: 20 x 0.2 = 4 a day, 100 x 0.2 = 20 a week.
    assert.deepStrictEqual(budgetsLeft(premium, { warmupFactor: 0.2, healthFactor: 1 }, {}).invites, { today: 4, week: 20 })
    // And yellow: 20 x 0.2 x 0.5 = 2, 100 x 0.2 x 0.5 = 10.
    assert.deepStrictEqual(budgetsLeft(premium, { warmupFactor: 0.2, healthFactor: 0.5 }, {}).invites, { today: 2, week: 10 })
    // Day 2 (26%): 20 x 0.26 = 5.2 -> 5; 100 x 0.26 = 26.
    assert.deepStrictEqual(budgetsLeft(premium, { warmupFactor: 0.26, healthFactor: 1 }, {}).invites, { today: 5, week: 26 })
    // Red: nothing at all.
    const red = budgetsLeft(premium, { warmupFactor: 1, healthFactor: healthFactor("red") }, {})
    for (const category of categories) assert.strictEqual(red[category].today, 0, category)
    assert.strictEqual(red.invites.week, 0)
  })

  it("use the user's capped value", () => {
    const limits = limitsFor(
      "premium",
      applied(applyLimitUpdates("premium", [], [{ category: "invites", period: "daily", maxValue: 100 }]))
    )
    // Capped at the ceiling of 40; yellow halves it.
    assert.deepStrictEqual(budgetsLeft(limits, { warmupFactor: 1, healthFactor: 0.5 }, {}).invites, { today: 20, week: 50 })
  })

  it("a switched-off limit leaves nothing", () => {
    const limits = limitsFor("premium", [{ category: "posts", period: "daily", maxValue: 2, isEnabled: false }])
    assert.strictEqual(allowance(limitOf(limits, "posts", "daily"), full), 0)
    assert.deepStrictEqual(budgetsLeft(limits, full, {}).posts, { today: 0, week: null })
  })

  it("a category with no limit record has nothing left", () => {
    assert.deepStrictEqual(budgetOf("posts", [], full, {}), { today: 0, week: null })
  })

  it("the budgets schema requires every category", () => {
    const { invites: _dropped, ...rest } = budgetsLeft(premium, full, {})
    assert.throws(() => Schema.decodeUnknownSync(Budgets)(rest))
  })
})

describe("full periods and period boundaries", () => {
  const premium = limitsFor("premium", [])

  it("name the periods that cannot take the units asked for", () => {
    assert.deepStrictEqual(fullPeriods("invites", 1, premium, full, { invites: { today: 20, week: 50, month: 50 } }), [
      "daily"
    ])
    assert.deepStrictEqual(fullPeriods("invites", 1, premium, full, { invites: { today: 20, week: 100, month: 100 } }), [
      "daily",
      "weekly"
    ])
    assert.deepStrictEqual(fullPeriods("invites", 1, premium, full, { invites: { today: 3, week: 50, month: 50 } }), [])
    // A search page of 25 rows does not fit in the 20 rows left today.
    assert.deepStrictEqual(
      fullPeriods("search_rows", 25, premium, full, { search_rows: { today: 480, week: 480, month: 480 } }),
      ["daily"]
    )
  })

  it("count days, Monday weeks and months in the account's time zone", () => {
    const sunday = at("2026-03-29T12:00:00Z")
    assert.strictEqual(iso(periodStart("daily", "Europe/Berlin", sunday)), "2026-03-28T23:00:00.000Z")
    assert.strictEqual(iso(periodStart("weekly", "Europe/Berlin", sunday)), "2026-03-22T23:00:00.000Z")
    assert.strictEqual(iso(periodStart("monthly", "Europe/Berlin", sunday)), "2026-02-28T23:00:00.000Z")
    assert.strictEqual(iso(nextPeriodStart("daily", "Europe/Berlin", sunday)), "2026-03-29T22:00:00.000Z")
    assert.strictEqual(iso(nextPeriodStart("weekly", "Europe/Berlin", sunday)), "2026-03-29T22:00:00.000Z")
    assert.strictEqual(iso(nextPeriodStart("monthly", "Europe/Berlin", sunday)), "2026-03-31T22:00:00.000Z")
    assert.strictEqual(iso(nextPeriodStart("daily", "America/New_York", at("2026-11-01T12:00:00Z"))), "2026-11-02T05:00:00.000Z")
  })
})
