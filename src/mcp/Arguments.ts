/**
 * The assistants' argument vocabulary, one for every tool: a thing's id is
 * `<thing>Id` (`accountId`, `jobId`, `workflowId`, `automationId`,
 * `personId`), never `account` or `id`; numbers are JSON numbers (`wait: 30`,
 * `limit: 20`, `hours: 48`), never the query string's digits; and a write's
 * REST `Idempotency-Key` is `idempotencyKey`. The ranges and descriptions are
 * the REST contract's own (`api/JobsApi.ts`, `api/InboxApi.ts`).
 */
import { Effect, Schema } from "effect"
import { Uuid } from "../api/Envelope.ts"
import { forecastLimitRange } from "../api/ForecastApi.ts"
import { briefHoursRange } from "../api/InboxApi.ts"
import { integerArgument, LIST_LIMIT_DEFAULT, listLimitRange, waitRange } from "../api/JobsApi.ts"

/** The account (seat) a tool acts on. */
export const accountId = Uuid.annotate({ description: "The account (seat) it acts on" })

/** An optional filter by account. */
export const accountFilter = Schema.optionalKey(Uuid.annotate({ description: "Only this account's" }))

export const jobId = Uuid.annotate({ description: "The job's id" })
export const workflowId = Uuid.annotate({ description: "The workflow's id" })
export const automationId = Uuid.annotate({ description: "The automation's id" })
export const personId = Uuid.annotate({ description: "The person's id (from find_people)" })

/** Long-poll seconds of `get_job`, a number. */
export const wait = Schema.optionalKey(integerArgument(waitRange))

/** Page size of the lists, a number; 50 when left out. */
export const limit = integerArgument(listLimitRange).pipe(
  Schema.withDecodingDefaultTypeKey(Effect.succeed(LIST_LIMIT_DEFAULT))
)

/** Page size of the forecast, a number; 100 when left out. */
export const forecastLimit = Schema.optionalKey(integerArgument(forecastLimitRange))

/** Look-back hours of the brief, a number. */
export const hours = Schema.optionalKey(integerArgument(briefHoursRange))

/**
 * The REST Idempotency-Key, as an argument: with it a write is idempotent,
 * without it two calls are two writes (so no write tool claims `idempotentHint`).
 */
export const idempotencyKey = Schema.optionalKey(
  Schema.String.check(Schema.isPattern(/^[\x21-\x7E]{1,255}$/u)).annotate({
    description:
      "1 to 255 visible ASCII characters. Give one to make the call safe to repeat: the same key and arguments within 24 hours answer the first call's result and create nothing (the REST Idempotency-Key, shared with it). Without it every call is a new write."
  })
)
