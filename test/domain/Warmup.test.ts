import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import {
  isWarming,
  rampDayAtMostLevel,
  rampFactor,
  rampPercentByDay,
  recoverFromRestriction,
  RESTRICTION_READS_ONLY_MS,
  startWarmup,
  toWarmupView,
  Warmup,
  WARMUP_DAYS,
  warmupDay,
  warmupFactor,
  warmupFinishesOn,
  WarmupView
} from "../../src/domain/Warmup.ts"

const at = (iso: string): number => Date.parse(iso)
const DAY = 86_400_000

describe("the warm-up ramp", () => {
  it("lasts 14 days", () => {
    assert.strictEqual(WARMUP_DAYS, 14)
    assert.strictEqual(rampPercentByDay.length, 14)
  })

  it("goes linearly from 20% on day 1 to 100% on day 14, in whole percents", () => {
    assert.deepStrictEqual(
      Array.from({ length: 14 }, (_, index) => rampFactor(index + 1)),
      [0.2, 0.26, 0.32, 0.38, 0.45, 0.51, 0.57, 0.63, 0.69, 0.75, 0.82, 0.88, 0.94, 1]
    )
    for (let day = 1; day <= 14; day++) {
      assert.strictEqual(rampPercentByDay[day - 1], Math.round(20 + (80 * (day - 1)) / 13), `day ${day}`)
    }
  })

  it("stays at 1 after day 14 and at 0.2 below day 1", () => {
    assert.strictEqual(rampFactor(15), 1)
    assert.strictEqual(rampFactor(400), 1)
    assert.strictEqual(rampFactor(0), 0.2)
    assert.strictEqual(rampFactor(-3), 0.2)
  })
})

describe("the ramp day of an account", () => {
  const start = startWarmup(at("2026-03-02T10:00:00Z")) // Monday 11:00 in Berlin

  it("is day 1 on the start date and counts local calendar days", () => {
    assert.strictEqual(warmupDay(start, "Europe/Berlin", at("2026-03-02T10:00:00Z")), 1)
    assert.strictEqual(warmupDay(start, "Europe/Berlin", at("2026-03-02T22:59:59Z")), 1) // 23:59:59 local
    assert.strictEqual(warmupDay(start, "Europe/Berlin", at("2026-03-02T23:00:00Z")), 2) // midnight local
    assert.strictEqual(warmupDay(start, "Europe/Berlin", at("2026-03-05T08:00:00Z")), 4)
    assert.strictEqual(warmupFactor(start, "Europe/Berlin", at("2026-03-05T08:00:00Z")), 0.38)
  })

  it("depends on the account's time zone, not UTC", () => {
    // 23:30 UTC on the start date is the next day in Berlin but not in New York.
    assert.strictEqual(warmupDay(start, "Europe/Berlin", at("2026-03-02T23:30:00Z")), 2)
    assert.strictEqual(warmupDay(start, "America/New_York", at("2026-03-02T23:30:00Z")), 1)
  })

  it("counts calendar days across a DST change (23-hour day)", () => {
    const beforeChange = startWarmup(at("2026-03-28T12:00:00Z"))
    assert.strictEqual(warmupDay(beforeChange, "Europe/Berlin", at("2026-03-29T22:30:00Z")), 3) // Monday 00:30 CEST
    assert.strictEqual(warmupDay(beforeChange, "Europe/Berlin", at("2026-03-29T21:30:00Z")), 2) // Sunday 23:30 CEST
  })

  it("reaches 14 on the 14th local day and stays there", () => {
    assert.strictEqual(warmupDay(start, "UTC", at("2026-03-15T00:00:00Z")), 14)
    assert.strictEqual(warmupFactor(start, "UTC", at("2026-03-15T00:00:00Z")), 1)
    assert.isFalse(isWarming(start, "UTC", at("2026-03-15T00:00:00Z")))
    assert.isTrue(isWarming(start, "UTC", at("2026-03-14T23:59:59Z")))
    assert.deepStrictEqual(toWarmupView(start, "UTC", at("2026-05-01T00:00:00Z")), { day: 14, of: 14 })
  })

  it("treats an instant before the start as the start day", () => {
    assert.strictEqual(warmupDay(start, "UTC", at("2026-02-20T00:00:00Z")), 1)
  })

  it("reports {day, of} and the date the ramp finishes", () => {
    const view = toWarmupView(start, "Europe/Berlin", at("2026-03-04T09:00:00Z"))
    assert.deepStrictEqual(view, { day: 3, of: 14 })
    assert.deepStrictEqual(Schema.decodeUnknownSync(WarmupView)(view), view)
    assert.strictEqual(warmupFinishesOn(start, "Europe/Berlin"), "2026-03-15")
    assert.strictEqual(warmupFinishesOn({ startedAt: at("2026-03-02T10:00:00Z"), startDay: 5 }, "UTC"), "2026-03-11")
  })

  it("the stored state is checked by its schema", () => {
    assert.deepStrictEqual(Schema.decodeUnknownSync(Warmup)({ startedAt: 0, startDay: 5 }), { startedAt: 0, startDay: 5 })
    assert.throws(() => Schema.decodeUnknownSync(Warmup)({ startedAt: 0, startDay: 15 }))
    assert.throws(() => Schema.decodeUnknownSync(Warmup)({ startedAt: 0, startDay: 0 }))
  })
})

describe("restriction recovery", () => {
  it("finds the highest ramp day at or below a level", () => {
    assert.strictEqual(rampDayAtMostLevel(0.5), 5) // 45%; day 6 is 51%
    assert.strictEqual(rampDayAtMostLevel(0.51), 6)
    assert.strictEqual(rampDayAtMostLevel(1), 14)
    assert.strictEqual(rampDayAtMostLevel(0.1), 1)
    assert.strictEqual(rampDayAtMostLevel(0.375), 3)
  })

  it("reads only for 7 days, then restarts a finished ramp at half (day 5, 45%)", () => {
    const done = startWarmup(at("2026-01-05T09:00:00Z"))
    const restrictedAt = at("2026-03-10T14:00:00Z")
    const recovery = recoverFromRestriction(done, "Europe/Berlin", restrictedAt)
    assert.strictEqual(RESTRICTION_READS_ONLY_MS, 7 * DAY)
    assert.strictEqual(recovery.readsOnlyUntil, at("2026-03-17T14:00:00Z"))
    assert.deepStrictEqual(recovery.warmup, { startedAt: at("2026-03-17T14:00:00Z"), startDay: 5 })
    assert.strictEqual(warmupFactor(recovery.warmup, "Europe/Berlin", recovery.readsOnlyUntil), 0.45)
    assert.strictEqual(warmupFactor(recovery.warmup, "Europe/Berlin", at("2026-03-18T09:00:00Z")), 0.51)
    assert.strictEqual(warmupFinishesOn(recovery.warmup, "Europe/Berlin"), "2026-03-26")
  })

  it("halves the level reached mid-ramp", () => {
    const start = startWarmup(at("2026-03-01T09:00:00Z"))
    // Day 10 (75%) halves to 37.5%: day 3 (32%).
    const recovery = recoverFromRestriction(start, "UTC", at("2026-03-10T12:00:00Z"))
    assert.strictEqual(recovery.warmup.startDay, 3)
    assert.strictEqual(warmupFactor(recovery.warmup, "UTC", recovery.readsOnlyUntil), 0.32)
  })

  it("composes: a second restriction halves again from where the new ramp is", () => {
    const first = recoverFromRestriction(startWarmup(at("2026-01-05T09:00:00Z")), "UTC", at("2026-03-10T14:00:00Z"))
    // Two days into the new ramp: day 7 (57%) halves to 28.5%: day 2 (26%).
    const second = recoverFromRestriction(first.warmup, "UTC", at("2026-03-19T10:00:00Z"))
    assert.strictEqual(warmupDay(first.warmup, "UTC", at("2026-03-19T10:00:00Z")), 7)
    assert.deepStrictEqual(second.warmup, { startedAt: at("2026-03-26T10:00:00Z"), startDay: 2 })
    // Restricted again at once: 45% halves below day 1, which is the floor.
    const third = recoverFromRestriction(first.warmup, "UTC", first.readsOnlyUntil)
    assert.strictEqual(third.warmup.startDay, 1)
  })
})
