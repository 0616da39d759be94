import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { TestClock } from "effect/testing"
import { now } from "../../src/domain/Time.ts"
import {
  currentWindowEnd,
  defaultWorkingHours,
  instantOfLocalTime,
  isOpen,
  isValidTimeZone,
  localDate,
  nextOpening,
  nextWindowStart,
  startOfLocalDay,
  startOfLocalMonth,
  startOfLocalWeek,
  startOfNextLocalMonth,
  startOfNextLocalWeek,
  toView,
  utcOffsetAt,
  WorkingHours,
  WorkingHoursView
} from "../../src/domain/WorkingHours.ts"

const at = (iso: string): number => {
  const ms = Date.parse(iso)
  if (Number.isNaN(ms)) throw new Error(`bad instant ${iso}`)
  return ms
}
const iso = (ms: number | null): string | null => ms === null ? null : new Date(ms).toISOString()
const HOUR = 3_600_000

const decode = Schema.decodeUnknownEffect(WorkingHours)
const rejection = (input: unknown) =>
  decode(input, { errors: "all" }).pipe(Effect.flip, Effect.map((error) => error.message))

const berlin = defaultWorkingHours("Europe/Berlin")
const newYork = defaultWorkingHours("America/New_York")
const everyDay = (timezone: string, from = "09:00", to = "18:00"): WorkingHours => ({
  days: [1, 2, 3, 4, 5, 6, 7],
  from,
  to,
  timezone
})

describe("WorkingHours schema", () => {
  it.effect("accepts the default hours and a valid custom form", () =>
    Effect.gen(function*() {
      const decoded = yield* decode({ days: [1, 2, 3, 4, 5], from: "09:00", to: "18:00", timezone: "UTC" })
      assert.deepStrictEqual(decoded, defaultWorkingHours())
      const custom = yield* decode({ days: [7, 6], from: "00:00", to: "23:59", timezone: "Asia/Tokyo" })
      assert.deepStrictEqual(custom, { days: [7, 6], from: "00:00", to: "23:59", timezone: "Asia/Tokyo" })
    }))

  it("defaults to Monday to Friday, 09:00 to 18:00", () => {
    assert.deepStrictEqual(defaultWorkingHours("Europe/Berlin"), {
      days: [1, 2, 3, 4, 5],
      from: "09:00",
      to: "18:00",
      timezone: "Europe/Berlin"
    })
    assert.strictEqual(defaultWorkingHours().timezone, "UTC")
  })

  it.effect("rejects an unknown time zone with a clear message at its path", () =>
    Effect.gen(function*() {
      const message = yield* rejection({ ...berlin, timezone: "Mars/Olympus" })
      assert.strictEqual(message, "must be an IANA time zone name such as Europe/Berlin or UTC\n  at [\"timezone\"]")
    }))

  it("knows time zones through Intl and refuses offsets and empty names", () => {
    assert.isTrue(isValidTimeZone("Europe/Berlin"))
    assert.isTrue(isValidTimeZone("America/New_York"))
    assert.isTrue(isValidTimeZone("UTC"))
    assert.isFalse(isValidTimeZone("Mars/Olympus"))
    assert.isFalse(isValidTimeZone("+01:00"))
    assert.isFalse(isValidTimeZone("-05:00"))
    assert.isFalse(isValidTimeZone(""))
  })

  it.effect("rejects from equal to or after to, naming `to`", () =>
    Effect.gen(function*() {
      assert.strictEqual(
        yield* rejection({ ...berlin, from: "09:00", to: "09:00" }),
        "must be after from (09:00); windows stay within one local day\n  at [\"to\"]"
      )
      assert.strictEqual(
        yield* rejection({ ...berlin, from: "22:00", to: "06:00" }),
        "must be after from (22:00); windows stay within one local day\n  at [\"to\"]"
      )
    }))

  it.effect("rejects times that are not 24-hour HH:MM", () =>
    Effect.gen(function*() {
      for (const bad of ["24:00", "9:00", "09:60", "9am", "09:00:00", ""]) {
        assert.strictEqual(
          yield* rejection({ ...berlin, from: bad }),
          "must be a 24-hour time HH:MM, 00:00 to 23:59\n  at [\"from\"]",
          bad
        )
      }
    }))

  it.effect("rejects empty, repeated and out-of-range weekdays", () =>
    Effect.gen(function*() {
      assert.strictEqual(yield* rejection({ ...berlin, days: [] }), "must list at least one ISO weekday\n  at [\"days\"]")
      assert.strictEqual(yield* rejection({ ...berlin, days: [1, 2, 1] }), "must not repeat a weekday\n  at [\"days\"]")
      assert.strictEqual(
        yield* rejection({ ...berlin, days: [0, 8] }),
        "must be an ISO weekday from 1 (Monday) to 7 (Sunday)\n  at [\"days\"][0]\n" +
          "must be an ISO weekday from 1 (Monday) to 7 (Sunday)\n  at [\"days\"][1]"
      )
      const fractional = yield* rejection({ ...berlin, days: [1.5] })
      assert.include(fractional, "at [\"days\"][0]")
    }))

  it("the output form adds openNow and nextOpening", () => {
    const view = toView(berlin, at("2026-03-27T17:30:00Z"))
    assert.deepStrictEqual(view, {
      days: [1, 2, 3, 4, 5],
      from: "09:00",
      to: "18:00",
      timezone: "Europe/Berlin",
      openNow: false,
      nextOpening: "2026-03-30T07:00:00.000Z"
    })
    assert.deepStrictEqual(Schema.decodeUnknownSync(WorkingHoursView)(view), view)
    assert.deepStrictEqual(toView(berlin, at("2026-03-27T10:00:00Z")).nextOpening, null)
    assert.isTrue(toView(berlin, at("2026-03-27T10:00:00Z")).openNow)
  })
})

describe("isOpen and the window edges", () => {
  const utc = defaultWorkingHours("UTC")

  it("09:00 is open, 18:00 is closed, 17:59:59.999 is open", () => {
    // 2026-03-04 is a Wednesday.
    assert.isFalse(isOpen(utc, at("2026-03-04T08:59:59.999Z")))
    assert.isTrue(isOpen(utc, at("2026-03-04T09:00:00Z")))
    assert.isTrue(isOpen(utc, at("2026-03-04T17:59:59.999Z")))
    assert.isFalse(isOpen(utc, at("2026-03-04T18:00:00Z")))
  })

  it("weekends are closed and the next opening is Monday 09:00", () => {
    assert.isFalse(isOpen(utc, at("2026-03-07T12:00:00Z"))) // Saturday
    assert.isFalse(isOpen(utc, at("2026-03-08T12:00:00Z"))) // Sunday
    assert.strictEqual(iso(nextOpening(utc, at("2026-03-07T12:00:00Z"))), "2026-03-09T09:00:00.000Z")
    assert.strictEqual(iso(nextOpening(utc, at("2026-03-06T18:00:00Z"))), "2026-03-09T09:00:00.000Z")
  })

  it("a weekend-only account is open on Saturday and closed on Monday", () => {
    const weekend: WorkingHours = { days: [6, 7], from: "10:00", to: "14:00", timezone: "UTC" }
    assert.isTrue(isOpen(weekend, at("2026-03-07T10:00:00Z")))
    assert.isFalse(isOpen(weekend, at("2026-03-09T10:00:00Z")))
    assert.strictEqual(iso(nextOpening(weekend, at("2026-03-09T10:00:00Z"))), "2026-03-14T10:00:00.000Z")
  })

  it("nextOpening is null while open and the window end is known", () => {
    assert.strictEqual(nextOpening(utc, at("2026-03-04T12:00:00Z")), null)
    assert.strictEqual(iso(currentWindowEnd(utc, at("2026-03-04T12:00:00Z"))), "2026-03-04T18:00:00.000Z")
    assert.strictEqual(currentWindowEnd(utc, at("2026-03-04T18:00:00Z")), null)
    assert.strictEqual(currentWindowEnd(utc, at("2026-03-07T12:00:00Z")), null)
  })

  it("before opening on a working day, the next opening is the same day", () => {
    assert.strictEqual(iso(nextOpening(utc, at("2026-03-04T06:15:00Z"))), "2026-03-04T09:00:00.000Z")
  })

  it("nextWindowStart skips the window in progress and a start exactly at `after`", () => {
    assert.strictEqual(iso(nextWindowStart(utc, at("2026-03-04T12:00:00Z"))), "2026-03-05T09:00:00.000Z")
    assert.strictEqual(iso(nextWindowStart(utc, at("2026-03-04T09:00:00Z"))), "2026-03-05T09:00:00.000Z")
    assert.strictEqual(iso(nextWindowStart(utc, at("2026-03-04T08:59:59Z"))), "2026-03-04T09:00:00.000Z")
    assert.strictEqual(iso(nextWindowStart(utc, at("2026-03-06T12:00:00Z"))), "2026-03-09T09:00:00.000Z")
  })

  it.effect("works with the instant from the test clock", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(at("2026-03-04T08:30:00Z"))
      assert.isFalse(isOpen(utc, (yield* now).ms))
      yield* TestClock.adjust("30 minutes")
      assert.isTrue(isOpen(utc, (yield* now).ms))
    }))
})

describe("time zones and midnight", () => {
  it("a Tokyo account opens on Monday 09:00 local, which is Monday 00:00 UTC", () => {
    const tokyo = defaultWorkingHours("Asia/Tokyo")
    // Sunday 15:00 UTC is already Monday 00:00 in Tokyo.
    assert.strictEqual(localDate("Asia/Tokyo", at("2026-03-29T15:00:00Z")), "2026-03-30")
    assert.isFalse(isOpen(tokyo, at("2026-03-29T15:00:00Z")))
    assert.strictEqual(iso(nextOpening(tokyo, at("2026-03-29T15:00:00Z"))), "2026-03-30T00:00:00.000Z")
    assert.isFalse(isOpen(tokyo, at("2026-03-29T23:59:59Z")))
    assert.isTrue(isOpen(tokyo, at("2026-03-30T00:00:00Z")))
    // Friday 18:00 in Tokyo is Friday 09:00 UTC; Friday 12:00 UTC is Friday 21:00 local.
    assert.isFalse(isOpen(tokyo, at("2026-04-03T09:00:00Z")))
    assert.strictEqual(iso(nextOpening(tokyo, at("2026-04-03T12:00:00Z"))), "2026-04-06T00:00:00.000Z")
  })

  it("a Los Angeles account closes on Saturday in UTC", () => {
    const la = defaultWorkingHours("America/Los_Angeles")
    // Friday 17:59 PDT is Saturday 00:59 UTC.
    assert.isTrue(isOpen(la, at("2026-06-06T00:59:00Z")))
    assert.isFalse(isOpen(la, at("2026-06-06T01:00:00Z")))
    assert.strictEqual(iso(nextOpening(la, at("2026-06-06T01:00:00Z"))), "2026-06-08T16:00:00.000Z")
  })

  it("a late evening window is followed by the next day's", () => {
    const late: WorkingHours = { days: [1, 2, 3, 4, 5, 6, 7], from: "22:00", to: "23:59", timezone: "UTC" }
    assert.isTrue(isOpen(late, at("2026-03-04T23:58:59Z")))
    assert.isFalse(isOpen(late, at("2026-03-04T23:59:00Z")))
    assert.isFalse(isOpen(late, at("2026-03-05T00:00:00Z")))
    assert.strictEqual(iso(nextOpening(late, at("2026-03-04T23:59:30Z"))), "2026-03-05T22:00:00.000Z")
  })

  it("local dates differ from UTC dates around midnight", () => {
    assert.strictEqual(localDate("America/New_York", at("2026-01-01T04:59:00Z")), "2025-12-31")
    assert.strictEqual(localDate("America/New_York", at("2026-01-01T05:00:00Z")), "2026-01-01")
    assert.strictEqual(localDate("Europe/Berlin", at("2026-12-31T23:00:00Z")), "2027-01-01")
    assert.strictEqual(localDate("UTC", at("2026-12-31T23:00:00Z")), "2026-12-31")
  })
})

describe("Europe/Berlin across the 2026 DST changes (29 March, 25 October)", () => {
  const all = everyDay("Europe/Berlin")

  it("09:00 is 08:00 UTC before spring forward and 07:00 UTC after", () => {
    assert.strictEqual(utcOffsetAt("Europe/Berlin", at("2026-03-28T12:00:00Z")), 1 * HOUR)
    assert.strictEqual(utcOffsetAt("Europe/Berlin", at("2026-03-29T12:00:00Z")), 2 * HOUR)
    assert.strictEqual(iso(nextOpening(all, at("2026-03-28T00:00:00Z"))), "2026-03-28T08:00:00.000Z")
    // Sunday 29 March, the change day itself.
    assert.strictEqual(iso(nextOpening(all, at("2026-03-28T20:00:00Z"))), "2026-03-29T07:00:00.000Z")
    assert.isFalse(isOpen(all, at("2026-03-29T06:59:59Z")))
    assert.isTrue(isOpen(all, at("2026-03-29T07:00:00Z")))
    assert.isTrue(isOpen(all, at("2026-03-29T15:59:59Z")))
    assert.isFalse(isOpen(all, at("2026-03-29T16:00:00Z")))
  })

  it("a weekday account closed over the change weekend opens Monday 09:00 CEST", () => {
    assert.isTrue(isOpen(berlin, at("2026-03-27T16:59:00Z"))) // Friday 17:59 CET
    assert.isFalse(isOpen(berlin, at("2026-03-27T17:00:00Z"))) // Friday 18:00 CET
    assert.strictEqual(iso(nextOpening(berlin, at("2026-03-27T17:00:00Z"))), "2026-03-30T07:00:00.000Z")
  })

  it("09:00 is 07:00 UTC before fall back and 08:00 UTC after", () => {
    assert.strictEqual(iso(nextOpening(all, at("2026-10-24T00:00:00Z"))), "2026-10-24T07:00:00.000Z")
    assert.strictEqual(iso(nextOpening(all, at("2026-10-24T17:00:00Z"))), "2026-10-25T08:00:00.000Z")
    assert.isFalse(isOpen(all, at("2026-10-25T07:30:00Z")))
    assert.isTrue(isOpen(all, at("2026-10-25T08:00:00Z")))
    assert.isFalse(isOpen(all, at("2026-10-25T17:00:00Z")))
    assert.strictEqual(iso(currentWindowEnd(all, at("2026-10-25T12:00:00Z"))), "2026-10-25T17:00:00.000Z")
  })

  it("a window starting in the skipped hour (02:30 on 29 March) starts at 03:00 CEST", () => {
    const night: WorkingHours = { days: [7], from: "02:30", to: "05:00", timezone: "Europe/Berlin" }
    assert.strictEqual(
      iso(instantOfLocalTime("Europe/Berlin", { year: 2026, month: 3, day: 29 }, 150)),
      "2026-03-29T01:00:00.000Z"
    )
    assert.strictEqual(iso(nextOpening(night, at("2026-03-28T12:00:00Z"))), "2026-03-29T01:00:00.000Z")
    assert.isFalse(isOpen(night, at("2026-03-29T00:59:59Z"))) // 01:59:59 CET
    assert.isTrue(isOpen(night, at("2026-03-29T01:00:00Z"))) // 03:00 CEST
    assert.strictEqual(iso(currentWindowEnd(night, at("2026-03-29T01:00:00Z"))), "2026-03-29T03:00:00.000Z")
    // The next Sunday has its 02:30 again.
    assert.strictEqual(iso(nextWindowStart(night, at("2026-03-29T01:00:00Z"))), "2026-04-05T00:30:00.000Z")
  })

  it("a window entirely inside the skipped hour does not open that day", () => {
    const skipped: WorkingHours = { days: [7], from: "02:10", to: "02:50", timezone: "Europe/Berlin" }
    assert.isFalse(isOpen(skipped, at("2026-03-29T01:00:00Z")))
    assert.strictEqual(iso(nextOpening(skipped, at("2026-03-28T12:00:00Z"))), "2026-04-05T00:10:00.000Z")
  })

  it("a time in the repeated hour (02:30 on 25 October) maps to its first occurrence", () => {
    assert.strictEqual(
      iso(instantOfLocalTime("Europe/Berlin", { year: 2026, month: 10, day: 25 }, 150)),
      "2026-10-25T00:30:00.000Z"
    )
    const repeated: WorkingHours = { days: [7], from: "02:30", to: "02:45", timezone: "Europe/Berlin" }
    assert.isTrue(isOpen(repeated, at("2026-10-25T00:30:00Z")))
    assert.isFalse(isOpen(repeated, at("2026-10-25T01:30:00Z")))
  })
})

describe("America/New_York across the 2026 DST changes (8 March, 1 November)", () => {
  const all = everyDay("America/New_York")

  it("09:00 is 14:00 UTC before spring forward and 13:00 UTC after", () => {
    assert.strictEqual(iso(nextOpening(all, at("2026-03-07T05:00:00Z"))), "2026-03-07T14:00:00.000Z")
    assert.strictEqual(iso(nextOpening(all, at("2026-03-07T23:00:00Z"))), "2026-03-08T13:00:00.000Z")
    assert.isTrue(isOpen(all, at("2026-03-08T21:59:59Z")))
    assert.isFalse(isOpen(all, at("2026-03-08T22:00:00Z")))
  })

  it("a weekday account opens Monday 9 March at 13:00 UTC", () => {
    assert.strictEqual(iso(nextOpening(newYork, at("2026-03-06T23:00:00Z"))), "2026-03-09T13:00:00.000Z")
  })

  it("09:00 is 13:00 UTC before fall back and 14:00 UTC after", () => {
    assert.strictEqual(iso(nextOpening(all, at("2026-10-31T05:00:00Z"))), "2026-10-31T13:00:00.000Z")
    assert.strictEqual(iso(nextOpening(all, at("2026-10-31T23:00:00Z"))), "2026-11-01T14:00:00.000Z")
    assert.isFalse(isOpen(all, at("2026-11-01T13:30:00Z")))
    assert.isTrue(isOpen(all, at("2026-11-01T14:00:00Z")))
    assert.isFalse(isOpen(all, at("2026-11-01T23:00:00Z")))
    assert.strictEqual(iso(nextOpening(newYork, at("2026-10-30T22:00:00Z"))), "2026-11-02T14:00:00.000Z")
  })

  it("02:30 on 8 March does not exist and moves to 03:00 EDT", () => {
    assert.strictEqual(
      iso(instantOfLocalTime("America/New_York", { year: 2026, month: 3, day: 8 }, 150)),
      "2026-03-08T07:00:00.000Z"
    )
    const night: WorkingHours = { days: [7], from: "02:30", to: "04:00", timezone: "America/New_York" }
    assert.isFalse(isOpen(night, at("2026-03-08T06:59:59Z")))
    assert.isTrue(isOpen(night, at("2026-03-08T07:00:00Z")))
  })

  it("01:30 on 1 November happens twice; the first (EDT) is used", () => {
    assert.strictEqual(
      iso(instantOfLocalTime("America/New_York", { year: 2026, month: 11, day: 1 }, 90)),
      "2026-11-01T05:30:00.000Z"
    )
  })
})

describe("local days, weeks and months", () => {
  it("start of the local day, across the spring change", () => {
    assert.strictEqual(iso(startOfLocalDay("Europe/Berlin", at("2026-03-29T12:00:00Z"))), "2026-03-28T23:00:00.000Z")
    assert.strictEqual(iso(startOfLocalDay("Europe/Berlin", at("2026-03-30T12:00:00Z"))), "2026-03-29T22:00:00.000Z")
    assert.strictEqual(iso(startOfLocalDay("America/New_York", at("2026-11-01T12:00:00Z"))), "2026-11-01T04:00:00.000Z")
    assert.strictEqual(iso(startOfLocalDay("America/New_York", at("2026-11-02T12:00:00Z"))), "2026-11-02T05:00:00.000Z")
  })

  it("weeks start on Monday 00:00 local", () => {
    // Sunday 29 March belongs to the week of Monday 23 March (CET).
    assert.strictEqual(iso(startOfLocalWeek("Europe/Berlin", at("2026-03-29T12:00:00Z"))), "2026-03-22T23:00:00.000Z")
    // Wednesday 1 April belongs to the week of Monday 30 March (CEST).
    assert.strictEqual(iso(startOfLocalWeek("Europe/Berlin", at("2026-04-01T12:00:00Z"))), "2026-03-29T22:00:00.000Z")
    // Monday 00:00 itself starts its week.
    assert.strictEqual(iso(startOfLocalWeek("Europe/Berlin", at("2026-03-29T22:00:00Z"))), "2026-03-29T22:00:00.000Z")
    assert.strictEqual(
      iso(startOfNextLocalWeek("Europe/Berlin", at("2026-03-29T21:59:59Z"))),
      "2026-03-29T22:00:00.000Z"
    )
    // Sunday evening in New York is already Monday in UTC, still the old week locally.
    assert.strictEqual(iso(startOfLocalWeek("America/New_York", at("2026-03-09T02:00:00Z"))), "2026-03-02T05:00:00.000Z")
  })

  it("months start on the 1st, 00:00 local", () => {
    assert.strictEqual(iso(startOfLocalMonth("America/New_York", at("2026-11-15T12:00:00Z"))), "2026-11-01T04:00:00.000Z")
    assert.strictEqual(iso(startOfNextLocalMonth("America/New_York", at("2026-11-15T12:00:00Z"))), "2026-12-01T05:00:00.000Z")
    assert.strictEqual(iso(startOfNextLocalMonth("Europe/Berlin", at("2026-12-31T23:30:00Z"))), "2027-01-31T23:00:00.000Z")
    assert.strictEqual(iso(startOfNextLocalMonth("Europe/Berlin", at("2026-12-15T12:00:00Z"))), "2026-12-31T23:00:00.000Z")
  })
})
