/**
 * The forecast of an account's writes: `GET /v1/accounts/{id}/forecast`.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Text } from "../domain/Text.ts"
import { Ok, Uuid } from "./Envelope.ts"
import { BadRequest, NotFound, Unprocessable } from "./Errors.ts"
import { Cursor, type IntegerRange, integerQuery } from "./JobsApi.ts"
import { allowedTo, Authentication } from "./Security.ts"
import { ASSUME_MAX, Forecast, FORECAST_PAGE_DEFAULT, FORECAST_PAGE_MAX } from "../domain/ForecastRecord.ts"
export { Forecast, forecastExample } from "../domain/ForecastRecord.ts"

/** `assume`: hypothetical writes, `command:count` pairs separated by commas. */
export const Assume = Text.check(
  Schema.isMaxLength(400),
  Schema.isPattern(/^[a-z_]+:\d{1,5}(,[a-z_]+:\d{1,5})*$/u, {
    message: "must be command:count pairs separated by commas, such as connect:300,send_message:20"
  })
).annotate({
  description: `Hypothetical writes to add after the queue without creating them: write commands with a count, such as \`connect:300,send_message:20\` (at most ${ASSUME_MAX} in all)`,
  examples: ["connect:300"]
})

/** The forecast's page size: 1 to `FORECAST_PAGE_MAX` writes. */
export const forecastLimitRange: IntegerRange = {
  minimum: 1,
  maximum: FORECAST_PAGE_MAX,
  description: `Writes per page, 1 to ${FORECAST_PAGE_MAX} (default ${FORECAST_PAGE_DEFAULT})`,
  example: FORECAST_PAGE_DEFAULT
}

/** The query of `GET /v1/accounts/{id}/forecast` (the assistants' `forecast_account` takes its `limit` as a number). */
export const forecastQuery = {
  assume: Schema.optionalKey(Assume),
  cursor: Schema.optionalKey(Cursor),
  limit: Schema.optionalKey(integerQuery(forecastLimitRange))
}

export class ForecastApi extends HttpApiGroup.make("forecast")
  .add(
    HttpApiEndpoint.get("forecast", "/v1/accounts/:id/forecast", {
      params: { id: Uuid },
      query: forecastQuery,
      success: Ok({ forecast: Forecast }),
      error: [BadRequest, NotFound, Unprocessable]
    }).annotateMerge(allowedTo("read")).annotateMerge(OpenApi.annotations({
      summary: "Forecast the account's writes",
      description: [
        "When each queued or scheduled write of the account is expected to start, what it waits for first, and when the",
        "queue is expected to be empty: the Governor's own rules (`chooseWrite`, `planJob`) run forward from now over the",
        "account's working hours and off-hours policy, its daily, weekly and monthly budgets, the warm-up days to come and",
        "its health, with the pacing gap at its expected value (`pacingGapSeconds`). Writes awaiting approval are listed",
        "apart with when they could start if approved now. `assume` adds hypothetical writes after the queue without",
        "creating them. Read-only. Replies, acceptances, pauses and health changes to come cannot be foreseen (`limits`)."
      ].join(" ")
    }))
  )
  .middleware(Authentication)
  .annotateMerge(OpenApi.annotations({ title: "Forecast" }))
{}
