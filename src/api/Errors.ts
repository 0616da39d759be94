/**
 * The error responses of the API, each encoded as the spec's envelope
 * `{ok: false, error: {type, message, next}}`. This is the one place where an
 * error type, its HTTP status and its description are defined.
 *
 * Construct one with `new NotFound({ error: { message, next } })`; `ok` and
 * `error.type` are filled in.
 *
 * @since 1.0.0
 */
import { Schema } from "effect"

const envelope = <const Type extends string>(type: Type) =>
  Schema.Struct({
    ok: Schema.tag(false),
    error: Schema.Struct({
      type: Schema.tag(type).annotate({ description: "Stable machine-readable error type" }),
      message: Schema.String.annotate({ description: "What went wrong, for a person" }),
      next: Schema.String.annotate({ description: "What to do about it" })
    })
  })

/** 400: the request is malformed (bad JSON, a field that fails its schema, a bad path parameter). */
export class BadRequest extends Schema.Error<BadRequest>("BadRequest")(envelope("badRequest"), {
  httpApiStatus: 400,
  description: "The request is malformed: the message names every offending field."
}) {
  readonly _tag = "BadRequest"
}

/** 401: the credential is missing, unknown or revoked, or the workspace is not active. */
export class Unauthorized extends Schema.Error<Unauthorized>("Unauthorized")(envelope("unauthorized"), {
  httpApiStatus: 401,
  description: "Missing, unknown or revoked API key, or the workspace is not active."
}) {
  readonly _tag = "Unauthorized"
}

/** 403: the caller's role may not do this, or every seat is in use. */
export class NotAllowed extends Schema.Error<NotAllowed>("NotAllowed")(envelope("notAllowed"), {
  httpApiStatus: 403,
  description: "The caller's role is not allowed to do this (or every seat is in use)."
}) {
  readonly _tag = "NotAllowed"
}

/** 404: the resource (or route) does not exist in the caller's workspace. */
export class NotFound extends Schema.Error<NotFound>("NotFound")(envelope("notFound"), {
  httpApiStatus: 404,
  description: "The resource does not exist in this workspace."
}) {
  readonly _tag = "NotFound"
}

/** 409: the request conflicts with one still being handled (same Idempotency-Key) or with the resource's state. */
export class Conflict extends Schema.Error<Conflict>("Conflict")(envelope("conflict"), {
  httpApiStatus: 409,
  description: "The request conflicts with the resource's current state or with a request still in progress."
}) {
  readonly _tag = "Conflict"
}

/** 422: the request is well formed but cannot be processed. */
export class Unprocessable extends Schema.Error<Unprocessable>("Unprocessable")(envelope("unprocessable"), {
  httpApiStatus: 422,
  description: "The request is understood but cannot be processed."
}) {
  readonly _tag = "Unprocessable"
}

/** 429: more than the allowed requests in the current calendar minute. */
export class RateLimited extends Schema.Error<RateLimited>("RateLimited")(envelope("rateLimited"), {
  httpApiStatus: 429,
  description:
    "More than 600 requests in this calendar minute for this credential. Wait the seconds given in `retry-after` (also in `next`)."
}) {
  readonly _tag = "RateLimited"
}

/** 500: an unexpected failure; it is logged with its cause, never shown. */
export class Internal extends Schema.Error<Internal>("Internal")(envelope("internal"), {
  httpApiStatus: 500,
  description: "An unexpected failure. It has been logged; retry later."
}) {
  readonly _tag = "Internal"
}

/** 405: the path exists but not with this method; the `allow` header lists the methods it has. */
export class MethodNotAllowed extends Schema.Error<MethodNotAllowed>("MethodNotAllowed")(envelope("methodNotAllowed"), {
  httpApiStatus: 405,
  description: "The path exists but does not accept this method; see the `allow` header."
}) {
  readonly _tag = "MethodNotAllowed"
}

/** 413: the body is larger than the service accepts. */
export class PayloadTooLarge extends Schema.Error<PayloadTooLarge>("PayloadTooLarge")(envelope("payloadTooLarge"), {
  httpApiStatus: 413,
  description: "The request body is larger than the limit (1 MiB by default)."
}) {
  readonly _tag = "PayloadTooLarge"
}

/** 415: the body is not JSON. */
export class UnsupportedMediaType
  extends Schema.Error<UnsupportedMediaType>("UnsupportedMediaType")(envelope("unsupportedMediaType"), {
    httpApiStatus: 415,
    description: "The request body must be `application/json`."
  })
{
  readonly _tag = "UnsupportedMediaType"
}

/** 503: the service cannot reach its database (health check) or is shutting down. */
export class Unavailable extends Schema.Error<Unavailable>("Unavailable")(envelope("unavailable"), {
  httpApiStatus: 503,
  description: "The service cannot serve right now (database unreachable or shutting down)."
}) {
  readonly _tag = "Unavailable"
}
