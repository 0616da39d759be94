/**
 * The sandbox's test clock: `GET/POST /v1/sandbox/clock`.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { DateTimeString, Ok } from "./Envelope.ts"
import { Conflict, NotFound, Unprocessable } from "./Errors.ts"
import { allowedTo, Authentication } from "./Security.ts"
import { exactlyOneOf } from "../domain/Rules.ts"
import { Text } from "../domain/Text.ts"

const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/

/**
 * The epoch milliseconds of an ISO 8601 (RFC 3339) date-time with a zone
 * (`Z` or `+hh:mm`), or `undefined` when the text is not a real one
 * (no zone, February 30th, hour 24...).
 */
export const instantMillis = (text: string): number | undefined => {
  const match = rfc3339.exec(text)
  if (match === null) return undefined
  const [, year, month, day, hour] = match
  const ms = Date.parse(text)
  // Date.parse rolls February 30th over into March and accepts 24:00: refuse both.
  const daysInMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate()
  return Number.isNaN(ms) || Number(hour) > 23 || Number(day) < 1 || Number(day) > daysInMonth ? undefined : ms
}

const maxAdvanceSeconds = 10 * 366 * 24 * 60 * 60

/** `POST /v1/sandbox/clock` body: exactly one of `advanceSeconds` and `to`. */
export const MoveClock = Schema.Struct({
  advanceSeconds: Schema.optionalKey(
    Schema.Int.check(
      Schema.isGreaterThan(0, { message: "must be an integer greater than 0" }),
      Schema.isLessThanOrEqualTo(maxAdvanceSeconds, {
        message: `must be at most ${maxAdvanceSeconds} (ten years); move in several steps`
      })
    ).annotate({
      description: `Seconds to move the clock forward: an integer from 1 to ${maxAdvanceSeconds} (ten years)`,
      examples: [3600]
    })
  ),
  to: Schema.optionalKey(
    // Annotated before the check: annotations given after a check belong to the check.
    Text.annotate({
      format: "date-time",
      description: "The instant to move the clock to (ISO 8601 with `Z` or an offset); not before `now`",
      examples: ["2026-11-23T09:00:00.000Z"]
    }).check(
      Schema.makeFilter((text: string) => instantMillis(text) !== undefined, {
        message: "must be an ISO 8601 date-time with a zone, such as 2026-11-23T09:00:00Z",
        expected: "an ISO 8601 date-time with a zone",
        toJsonSchema: () => ({ format: "date-time" })
      })
    )
  )
}).annotate({
  identifier: "MoveClock",
  description: "Exactly one of `advanceSeconds` (move forward by) and `to` (move to an instant).",
  examples: [{ advanceSeconds: 3600 }, { to: "2026-11-23T09:00:00.000Z" }]
}).check(
  exactlyOneOf("advanceSeconds", "to")
)

const clockExample = { ok: true, now: "2026-11-21T09:30:00.000Z", mode: "test" } as const

/** The clock's time and which clock it is. */
export const ClockState = Ok({
  now: DateTimeString.annotate({ description: "The service's current time (ISO 8601, UTC)" }),
  mode: Schema.Literals(["system", "test"]).annotate({
    description:
      "`test`: the sandbox's test clock (`OUTREACH_CLOCK=test`), moved only by POST /v1/sandbox/clock; `system`: the real time",
    examples: ["test"]
  })
}).annotate({ identifier: "ClockState", examples: [clockExample] })

export class SandboxClockApi extends HttpApiGroup.make("sandboxClock")
  .add(
    HttpApiEndpoint.get("read", "/v1/sandbox/clock", {
      success: ClockState,
      error: NotFound
    }).annotateMerge(allowedTo("read")).annotateMerge(OpenApi.annotations({
      summary: "Read the clock",
      description:
        "The time every rule of the service uses (working hours, budgets, warm-up days, expiries, retries) and whether it is the sandbox's test clock."
    })),
    HttpApiEndpoint.post("move", "/v1/sandbox/clock", {
      payload: MoveClock,
      success: ClockState,
      error: [NotFound, Conflict, Unprocessable]
    }).annotateMerge(allowedTo("driveSandbox")).annotateMerge(OpenApi.annotations({
      summary: "Move the test clock",
      description: [
        "Moves the sandbox's test clock forward by `advanceSeconds` or to the instant `to`; everything due on the way",
        "(scheduled jobs, retries, expiries) happens in order. The clock never goes back: a `to` before `now` answers",
        "422 `unprocessable`. The time survives restarts. Only with `OUTREACH_CLOCK=test`; on the system clock this",
        "answers 409 `conflict`. The clock is the whole service's: any sandbox workspace may move it, and it moves for",
        "every workspace, which is acceptable in a sandbox only (a server on the test clock serves no live workspace).",
        "A live workspace's key gets 404 `notFound` from the clock endpoints."
      ].join(" ")
    }))
  )
  .middleware(Authentication)
  .annotateMerge(OpenApi.annotations({
    title: "Sandbox clock",
    description: "The test clock of the sandbox (`OUTREACH_CLOCK=test`); one clock for the whole service, shared by every workspace. Only with the sandbox network driver."
  }))
{}
