import { assert, describe, it } from "@effect/vitest"
import { type AccountRow, statusAt, toAccount } from "../../src/accounts/AccountRow.ts"
import { capabilitiesOf } from "../../src/accounts/Capabilities.ts"
import { accountRow } from "./support.ts"

const sandbox = capabilitiesOf({ name: "sandbox" })

const day = 86_400_000

const account = (overrides: Partial<AccountRow>): AccountRow => accountRow(Date.UTC(2026, 0, 5, 10), overrides)

const hoursAt = (row: AccountRow, iso: string) => toAccount(row, [], {}, 0, Date.parse(iso), sandbox).workingHours

describe("an account's working hours across DST changes", () => {
  it("Europe/Berlin, spring: closed on Friday evening, next opening Monday 09:00 CEST (07:00 UTC)", () => {
    const row = account({ timezone: "Europe/Berlin" })
    const friday = hoursAt(row, "2026-03-27T18:00:00Z")
    assert.strictEqual(friday.openNow, false)
    assert.strictEqual(friday.nextOpening, "2026-03-30T07:00:00.000Z")
    const monday = hoursAt(row, "2026-03-30T07:00:00Z")
    assert.strictEqual(monday.openNow, true)
    assert.isNull(monday.nextOpening)
    assert.strictEqual(hoursAt(row, "2026-03-30T06:59:59Z").openNow, false)
    assert.strictEqual(hoursAt(row, "2026-03-30T16:00:00Z").openNow, false)
  })

  it("Europe/Berlin, autumn: Monday 09:00 CET is 08:00 UTC", () => {
    const row = account({ timezone: "Europe/Berlin" })
    assert.strictEqual(hoursAt(row, "2026-10-23T18:00:00Z").nextOpening, "2026-10-26T08:00:00.000Z")
    assert.strictEqual(hoursAt(row, "2026-10-26T07:30:00Z").openNow, false)
    assert.strictEqual(hoursAt(row, "2026-10-26T08:00:00Z").openNow, true)
  })

  it("America/New_York, spring: Monday 09:00 EDT is 13:00 UTC; the Friday before closed at 23:00 UTC", () => {
    const row = account({ timezone: "America/New_York" })
    assert.strictEqual(hoursAt(row, "2026-03-06T22:59:00Z").openNow, true)
    const friday = hoursAt(row, "2026-03-06T23:00:00Z")
    assert.strictEqual(friday.openNow, false)
    assert.strictEqual(friday.nextOpening, "2026-03-09T13:00:00.000Z")
  })

  it("America/New_York, autumn: Monday 09:00 EST is 14:00 UTC", () => {
    const row = account({ timezone: "America/New_York" })
    assert.strictEqual(hoursAt(row, "2026-10-30T22:30:00Z").nextOpening, "2026-11-02T14:00:00.000Z")
    assert.strictEqual(hoursAt(row, "2026-11-02T13:59:00Z").openNow, false)
    assert.strictEqual(hoursAt(row, "2026-11-02T14:00:00Z").openNow, true)
  })

  it("midnight: a late window in Tokyo is open before UTC midnight and closed after its local end", () => {
    const row = account({ timezone: "Asia/Tokyo", workFrom: "08:00", workTo: "23:30" })
    assert.strictEqual(hoursAt(row, "2026-06-03T14:00:00Z").openNow, true)
    assert.strictEqual(hoursAt(row, "2026-06-03T14:30:00Z").openNow, false)
    assert.strictEqual(hoursAt(row, "2026-06-03T14:30:00Z").nextOpening, "2026-06-03T23:00:00.000Z")
  })
})

describe("an account's status and budgets over its warm-up", () => {
  it("is warming until the ramp's last day, then active; budgets grow with the ramp and shrink with health", () => {
    const row = account({})
    const start = row.warmupStartedAt!
    assert.strictEqual(statusAt(row, start + 12 * day), "warming")
    assert.strictEqual(statusAt(row, start + 13 * day), "active")
    const day1 = toAccount(row, [], {}, 0, start, sandbox)
    const day14 = toAccount(row, [], {}, 0, start + 13 * day, sandbox)
    assert.deepStrictEqual(day1.warmup, { day: 1, of: 14 })
    assert.deepStrictEqual(day14.warmup, { day: 14, of: 14 })
    // premium invites: 20 a day, 100 a week.
    assert.strictEqual(day1.budgets!.invites.today, 4)
    assert.strictEqual(day14.budgets!.invites.today, 20)
    assert.strictEqual(day14.budgets!.invites.week, 100)
    const yellow = toAccount({ ...row, healthLevel: "yellow" }, [], {}, 0, start + 13 * day, sandbox)
    assert.strictEqual(yellow.budgets!.invites.today, 10)
    const used = toAccount(row, [], { invites: { today: 7, week: 95, month: 95 } }, 0, start + 13 * day, sandbox)
    assert.strictEqual(used.budgets!.invites.today, 5)
    assert.strictEqual(used.budgets!.invites.week, 5)
  })

  it("has no budgets and day 0 while connecting", () => {
    const row = account({ status: "connecting", warmupStartedAt: null, connectedAt: null })
    const view = toAccount(row, [], {}, 0, Date.parse("2026-01-05T12:00:00Z"), sandbox)
    assert.isNull(view.budgets)
    assert.deepStrictEqual(view.warmup, { day: 0, of: 14 })
  })
})
