import { assert, describe, it } from "@effect/vitest"
import { forecastExample as example } from "../../src/api/ForecastApi.ts"
import { forecastTimeline, TIMELINE_DAYS } from "../../src/dashboard/ForecastView.ts"

describe("the seat page's forecast", () => {
  it("draws each day's writes per category against the day's budget, and when the queue empties", () => {
    const page = forecastTimeline(example).value
    assert.include(page, "Mon 2026-11-23")
    assert.include(page, `<meter min="0" max="50" value="1" aria-label="messages: 1 of 50"></meter> 1 of 50`)
    assert.include(page, "The queue is expected to be empty by 2026-11-24 09:01 UTC.")
    assert.include(page, "1 more await approval; after approval, at the earliest Tuesday 09:01 (Europe/Berlin).")
  })

  it("says when nothing is queued or an end cannot be seen, and draws two weeks at most", () => {
    const empty = forecastTimeline({ ...example, total: 0, assumed: [], days: [], awaitingApproval: [] }).value
    assert.include(empty, "Nothing is queued.")
    assert.notInclude(empty, "<table>")
    const day = example.days[0]
    const long = forecastTimeline({ ...example, emptyAt: null, days: Array.from({ length: 20 }, (_, n) => ({ ...day, date: `2026-12-${String(n + 1).padStart(2, "0")}` })) }).value
    assert.include(long, "no end the forecast can see")
    assert.strictEqual(long.match(/<tr><th scope="row">/g)?.length, TIMELINE_DAYS)
    assert.include(long, "And 6 more days.")
  })
})
