/**
 * Turning anything that is not already an API error into the envelope: the
 * router's misses, platform responses (413, 415) and defects. This is the one
 * place where a bare HTTP status becomes an error type.
 */
import { Schema } from "effect"
import { HttpServerResponse } from "effect/http"
import {
  BadRequest,
  HeadersTooLarge,
  Internal,
  MethodNotAllowed,
  NotFound,
  PayloadTooLarge,
  RateLimited,
  RequestTimeout,
  Unauthorized,
  Unavailable,
  UnsupportedMediaType
} from "../api/Errors.ts"

interface Details {
  readonly message: string
  readonly next: string
}

const encoders = {
  400: Schema.encodeSync(BadRequest),
  401: Schema.encodeSync(Unauthorized),
  404: Schema.encodeSync(NotFound),
  405: Schema.encodeSync(MethodNotAllowed),
  408: Schema.encodeSync(RequestTimeout),
  413: Schema.encodeSync(PayloadTooLarge),
  415: Schema.encodeSync(UnsupportedMediaType),
  429: Schema.encodeSync(RateLimited),
  431: Schema.encodeSync(HeadersTooLarge),
  500: Schema.encodeSync(Internal),
  503: Schema.encodeSync(Unavailable)
} as const

const constructors = {
  400: (d: Details) => encoders[400](new BadRequest({ error: d })),
  401: (d: Details) => encoders[401](new Unauthorized({ error: d })),
  404: (d: Details) => encoders[404](new NotFound({ error: d })),
  405: (d: Details) => encoders[405](new MethodNotAllowed({ error: d })),
  408: (d: Details) => encoders[408](new RequestTimeout({ error: d })),
  413: (d: Details) => encoders[413](new PayloadTooLarge({ error: d })),
  415: (d: Details) => encoders[415](new UnsupportedMediaType({ error: d })),
  429: (d: Details) => encoders[429](new RateLimited({ error: d })),
  431: (d: Details) => encoders[431](new HeadersTooLarge({ error: d })),
  500: (d: Details) => encoders[500](new Internal({ error: d })),
  503: (d: Details) => encoders[503](new Unavailable({ error: d }))
} as const

export type EnvelopeStatus = keyof typeof constructors

/** The encoded envelope of an error, for answers written outside the router (Node's parser errors). */
export const errorBody = (status: EnvelopeStatus, details: Details): unknown => constructors[status](details)

/** An error response in the envelope. */
export const errorResponse = (
  status: EnvelopeStatus,
  details: Details,
  headers?: Record<string, string>
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.jsonUnsafe(constructors[status](details), { status, headers: headers ?? {} })

const isEnvelopeStatus = (status: number): status is EnvelopeStatus => status in constructors

/** Default wording for a status the platform produced without a body of ours. */
const defaults = (status: number): { readonly status: EnvelopeStatus } & Details => {
  switch (status) {
    case 400:
      return { status, message: "The request is malformed.", next: "Check the request against GET /openapi.json." }
    case 404:
      return { status, message: "Nothing here.", next: "Check the path against GET /openapi.json." }
    case 413:
      return {
        status,
        message: "The request body is too large.",
        next: "Send a smaller body (the limit is 1 MiB unless the operator set MAX_BODY_BYTES)."
      }
    case 415:
      return {
        status,
        message: "The request body must be JSON.",
        next: "Send the body as JSON with `Content-Type: application/json`."
      }
    case 503:
      return { status, message: "The service is not available right now.", next: "Retry in a few seconds." }
    default:
      return isEnvelopeStatus(status) && status < 500
        ? { status, message: `The request failed (HTTP ${status}).`, next: "Check the request against GET /openapi.json." }
        : { status: 500, message: "The service failed unexpectedly; it has been logged.", next: "Retry later." }
  }
}

/** A body the service wrote itself: the API's JSON, or a page for a person (the sign-in link's). */
const isOwnBody = (response: HttpServerResponse.HttpServerResponse): boolean => {
  const contentType = "contentType" in response.body ? response.body.contentType ?? "" : ""
  return response.body._tag !== "Empty" && (contentType.startsWith("application/json") || contentType.startsWith("text/html"))
}

/** Error responses without a body of ours (platform 413/415, bare 4xx/5xx) get the envelope. */
export const ensureEnvelope = (response: HttpServerResponse.HttpServerResponse): HttpServerResponse.HttpServerResponse => {
  if (response.status < 400 || isOwnBody(response)) return response
  const { status, ...details } = defaults(response.status)
  // Headers that describe the old body (its type and length) must not describe the new one.
  const kept = Object.fromEntries(Object.entries(response.headers).filter(([name]) => !name.startsWith("content-")))
  return errorResponse(status, details, kept)
}
