/**
 * The forecast of an account's writes, as the service computes it and the
 * contract (`GET /v1/accounts/{id}/forecast`) shows it.
 */
import { Schema } from "effect"
import { DateTimeString, Uuid } from "./Formats.ts"
import { JobStatus, WaitReason } from "./Job.ts"
import { Category } from "./Limits.ts"

/** The most open writes one forecast runs over (oldest first); those beyond are counted, not forecast. */
export const FORECAST_CAP = 5_000

/** The most writes `assume` may add, all commands together. */
export const ASSUME_MAX = 5_000

/** Writes listed per page: 1 to 1,000, default 100. */
export const FORECAST_PAGE_MAX = 1_000
export const FORECAST_PAGE_DEFAULT = 100

/** One write of the forecast. */
export const WriteForecast = Schema.Struct({
  jobId: Uuid,
  kind: Schema.String.annotate({ description: "The command" }),
  category: Schema.NullOr(Category).annotate({ description: "The budget it spends; null when none" }),
  status: JobStatus,
  expectedStart: Schema.NullOr(DateTimeString).annotate({
    description: "When it is expected to start; null when that cannot be foreseen (a wait with no end, such as a paused account, or more than a year ahead)"
  }),
  waitsFor: Schema.NullOr(WaitReason).annotate({
    description: "The first thing it waits for, writes ahead of it aside (`queue` only when nothing else holds it); null when it runs at once"
  }),
  fails: Schema.NullOr(Schema.String).annotate({
    description: "The error it is expected to fail with at its turn (`offHours` under offHoursPolicy reject); null otherwise"
  }),
  ahead: Schema.Int.annotate({ description: "Writes expected to start before it" }),
  aheadInCategory: Schema.Int.annotate({ description: "Of those, writes of its own category" }),
  summary: Schema.String.annotate({ description: "The forecast in a sentence, local time in the account's zone" })
}).annotate({ identifier: "WriteForecast" })
export type WriteForecast = typeof WriteForecast.Type

/** An awaiting-approval write: when it could start if a person approved it now. */
export const ApprovalForecast = Schema.Struct({
  jobId: Uuid,
  kind: Schema.String,
  category: Schema.NullOr(Category),
  earliestStart: Schema.NullOr(DateTimeString).annotate({
    description: "When it would start if it and every write awaiting approval were approved now (it keeps its place in creation order)"
  }),
  summary: Schema.String
}).annotate({ identifier: "ApprovalForecast" })

/** What `assume` added, forecast without being created. */
export const AssumedForecast = Schema.Struct({
  command: Schema.String,
  count: Schema.Int,
  category: Schema.NullOr(Category),
  firstStart: Schema.NullOr(DateTimeString).annotate({ description: "When the first of them is expected to start" }),
  lastStart: Schema.NullOr(DateTimeString).annotate({
    description: "When the last of them is expected to start; null when that cannot be foreseen"
  })
}).annotate({ identifier: "AssumedForecast" })

/** One local day of the forecast, for a timeline. */
export const DayForecast = Schema.Struct({
  date: Schema.String.annotate({ description: "The account's local date (YYYY-MM-DD)" }),
  categories: Schema.Array(Schema.Struct({
    category: Category,
    writes: Schema.Int.annotate({ description: "Writes of the category expected to start that day (queued and assumed)" }),
    budget: Schema.Int.annotate({ description: "What the category may spend that day with nothing spent yet, after warm-up and health" })
  }))
}).annotate({ identifier: "DayForecast" })

/** The forecast's example in the OpenAPI document (and the dashboard's tests). */
export const forecastExample: Forecast = {
  accountId: "0b7c6a1e-3f4d-4e2a-9b8c-7d6e5f4a3b2c",
  from: "2026-11-23T08:00:00.000Z",
  timezone: "Europe/Berlin",
  pacingGapSeconds: 82.5,
  emptyAt: "2026-11-24T09:01:22.500Z",
  total: 2,
  beyondCap: 0,
  writes: [{
    jobId: "5e0a1c3d-2b4f-4a6e-8c9d-0f1e2d3c4b5a",
    kind: "send_message",
    category: "messages",
    status: "queued",
    expectedStart: "2026-11-23T08:00:00.000Z",
    waitsFor: null,
    fails: null,
    ahead: 0,
    aheadInCategory: 0,
    summary: "expected around Monday 09:00 (Europe/Berlin), first in line"
  }, {
    jobId: "7f0c2f6e-5a7b-4d1c-9a44-1d2b3c4d5e6f",
    kind: "connect",
    category: "invites",
    status: "scheduled",
    expectedStart: "2026-11-24T08:00:00.000Z",
    waitsFor: "budget",
    fails: null,
    ahead: 1,
    aheadInCategory: 0,
    summary: "expected around Tuesday 09:00 (Europe/Berlin), first of its category, waiting for budget first"
  }],
  nextCursor: null,
  awaitingApproval: [{
    jobId: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
    kind: "connect",
    category: "invites",
    earliestStart: "2026-11-24T08:01:22.500Z",
    summary: "after approval, at the earliest Tuesday 09:01 (Europe/Berlin)"
  }],
  assumed: [{
    command: "connect",
    count: 300,
    category: "invites",
    firstStart: "2026-11-24T08:01:22.500Z",
    lastStart: "2026-12-29T09:12:00.000Z"
  }],
  days: [{ date: "2026-11-23", categories: [{ category: "messages", writes: 1, budget: 50 }] }],
  limits: [
    "The pause between writes is random (45 to 120 s); the forecast takes 82.5 s."
  ]
}

/** The forecast of an account's open writes. */
export const Forecast = Schema.Struct({
  accountId: Uuid,
  from: DateTimeString.annotate({ description: "The instant the forecast runs from (the service's clock)" }),
  timezone: Schema.String.annotate({ description: "The account's zone: days and summaries are local to it" }),
  pacingGapSeconds: Schema.Number.annotate({
    description: "The pause assumed between two writes: the expected value of the Governor's random 45 to 120 seconds"
  }),
  emptyAt: Schema.NullOr(DateTimeString).annotate({
    description: "When the last queued (and assumed) write is expected to start; `from` when none is queued; null when some cannot be foreseen"
  }),
  total: Schema.Int.annotate({ description: "Queued and scheduled writes forecast, over every page" }),
  beyondCap: Schema.Int.annotate({ description: `Open writes past the first ${FORECAST_CAP} (oldest first), not forecast` }),
  writes: Schema.Array(WriteForecast).annotate({
    description: "Queued and scheduled writes in the order they are expected to start; those that cannot be foreseen last"
  }),
  nextCursor: Schema.NullOr(Schema.String).annotate({ description: "Pass as `cursor` for the next page of `writes`; null on the last" }),
  awaitingApproval: Schema.Array(ApprovalForecast).annotate({ description: "Writes awaiting a person, apart, oldest first" }),
  assumed: Schema.Array(AssumedForecast).annotate({ description: "The hypothetical writes of `assume`, in its order" }),
  days: Schema.Array(DayForecast).annotate({ description: "Writes expected per local day and category, against the day's budget" }),
  limits: Schema.Array(Schema.String).annotate({ description: "What the forecast cannot know" })
}).annotate({
  identifier: "Forecast",
  examples: [forecastExample]
})
export type Forecast = typeof Forecast.Type
