/**
 * The error responses of the API, each encoded as the spec's envelope
 * `{ok: false, error: {type, message, next}}`. This is the one place where an
 * error type, its HTTP status and its description are defined.
 *
 * Construct one with `new NotFound({ error: { message, next } })`; `ok` and
 * `error.type` are filled in.
 */
import { Schema } from "effect"

const envelope = <const Type extends string>(type: Type, example: { message: string; next: string }) =>
  Schema.Struct({
    ok: Schema.tag(false),
    error: Schema.Struct({
      type: Schema.tag(type).annotate({ description: "Stable machine-readable error type" }),
      message: Schema.String.annotate({ description: "What went wrong, for a person" }),
      next: Schema.String.annotate({ description: "What to do about it" })
    })
  }).annotate({ examples: [{ ok: false, error: { type, ...example } }] })

/** 400: the request is malformed (bad JSON, a field that fails its schema, a bad path parameter). */
export class BadRequest extends Schema.Error<BadRequest>("BadRequest")(envelope("badRequest", {
  message: "body.name: Expected a value with a length of at most 80",
  next: "Fix the fields named in the message and send the request again; GET /openapi.json describes every field."
}), {
  httpApiStatus: 400,
  description: "The request is malformed: the message names every offending field."
}) {
  readonly _tag = "BadRequest"
}

/** 401: the credential is missing, unknown or revoked, or the workspace is not active. */
export class Unauthorized extends Schema.Error<Unauthorized>("Unauthorized")(envelope("unauthorized", {
  message: "The API key is unknown or revoked, or its workspace is not active.",
  next: "Check the key you send; list your keys with GET /v1/keys using a valid key, or create a new one."
}), {
  httpApiStatus: 401,
  description: "Missing, unknown or revoked API key, or the workspace is not active."
}) {
  readonly _tag = "Unauthorized"
}

/** 403: the caller's role may not do this, or every seat is in use. */
export class NotAllowed extends Schema.Error<NotAllowed>("NotAllowed")(envelope("notAllowed", {
  message: "Only owners and admins (and API keys) can manage keys and webhooks.",
  next: "Ask an owner or admin of the workspace, or use an API key."
}), {
  httpApiStatus: 403,
  description: "The caller's role is not allowed to do this (or every seat is in use)."
}) {
  readonly _tag = "NotAllowed"
}

/** 404: the resource (or route) does not exist in the caller's workspace. */
export class NotFound extends Schema.Error<NotFound>("NotFound")(envelope("notFound", {
  message: "No API key 5e0a1c3d-2b4f-4a6e-8c9d-0f1e2d3c4b5a in this workspace.",
  next: "List the workspace's keys with GET /v1/keys."
}), {
  httpApiStatus: 404,
  description: "The resource does not exist in this workspace."
}) {
  readonly _tag = "NotFound"
}

/** 409: the request conflicts with one still being handled (same Idempotency-Key) or with the resource's state. */
export class Conflict extends Schema.Error<Conflict>("Conflict")(envelope("conflict", {
  message: "A request with this Idempotency-Key is still being handled.",
  next: "Wait for the first request to finish, then retry to get its response."
}), {
  httpApiStatus: 409,
  description: "The request conflicts with the resource's current state or with a request still in progress."
}) {
  readonly _tag = "Conflict"
}

/** 422: the request is well formed but cannot be processed. */
export class Unprocessable extends Schema.Error<Unprocessable>("Unprocessable")(envelope("unprocessable", {
  message: "This Idempotency-Key was used with a different body.",
  next: "Use a new Idempotency-Key for a different request."
}), {
  httpApiStatus: 422,
  description: "The request is understood but cannot be processed."
}) {
  readonly _tag = "Unprocessable"
}

/** 422: the approval's 72 hours are over; it can no longer be approved and its job has failed. */
export class ApprovalExpired extends Schema.Error<ApprovalExpired>("ApprovalExpired")(envelope("approvalExpired", {
  message: "The approval expired at 2026-11-24T10:00:00.000Z (72 hours after it was asked for); the write was not sent.",
  next: "Create the connect job again if it should still go out."
}), {
  httpApiStatus: 422,
  description: "The approval expired (72 hours): the write was not sent and its job failed."
}) {
  readonly _tag = "ApprovalExpired"
}

/** 429: more than the allowed requests in the current calendar minute. */
export class RateLimited extends Schema.Error<RateLimited>("RateLimited")(envelope("rateLimited", {
  message: "Too many requests: the limit is 600 a minute for each API key.",
  next: "Wait 42 seconds before the next request; use ?wait= on job reads instead of tight polling."
}), {
  httpApiStatus: 429,
  description:
    "More than 600 requests in this calendar minute for this credential. Wait the seconds given in `retry-after` (also in `next`)."
}) {
  readonly _tag = "RateLimited"
}

/** 500: an unexpected failure; it is logged with its cause, never shown. */
export class Internal extends Schema.Error<Internal>("Internal")(envelope("internal", {
  message: "The service failed unexpectedly; the failure has been logged.",
  next: "Retry later; if it persists, contact support with the time of the request."
}), {
  httpApiStatus: 500,
  description: "An unexpected failure. It has been logged; retry later."
}) {
  readonly _tag = "Internal"
}

/** 405: the path exists but not with this method; the `allow` header lists the methods it has. */
export class MethodNotAllowed extends Schema.Error<MethodNotAllowed>("MethodNotAllowed")(envelope("methodNotAllowed", {
  message: "/v1/me does not accept DELETE.",
  next: "Use one of: GET."
}), {
  httpApiStatus: 405,
  description: "The path exists but does not accept this method; see the `allow` header."
}) {
  readonly _tag = "MethodNotAllowed"
}

/** 413: the body is larger than the service accepts. */
export class PayloadTooLarge extends Schema.Error<PayloadTooLarge>("PayloadTooLarge")(envelope("payloadTooLarge", {
  message: "The request body has 2097152 bytes; the limit is 1048576.",
  next: "Send a smaller body."
}), {
  httpApiStatus: 413,
  description: "The request body is larger than the limit (1 MiB by default)."
}) {
  readonly _tag = "PayloadTooLarge"
}

/** 415: the body is not JSON. */
export class UnsupportedMediaType
  extends Schema.Error<UnsupportedMediaType>("UnsupportedMediaType")(envelope("unsupportedMediaType", {
  message: "The request body must be JSON.",
  next: "Send the body as JSON with `Content-Type: application/json`."
}), {
    httpApiStatus: 415,
    description: "The request body must be `application/json`."
  })
{
  readonly _tag = "UnsupportedMediaType"
}

/** 503: the service cannot reach its database (health check) or is shutting down. */
export class Unavailable extends Schema.Error<Unavailable>("Unavailable")(envelope("unavailable", {
  message: "The database does not answer.",
  next: "Retry in a few seconds."
}), {
  httpApiStatus: 503,
  description: "The service cannot serve right now (database unreachable or shutting down)."
}) {
  readonly _tag = "Unavailable"
}

/** 408: the client sent its request too slowly (answered by the connection, before any route). */
export class RequestTimeout extends Schema.Error<RequestTimeout>("RequestTimeout")(envelope("requestTimeout", {
  message: "The request did not arrive in time.",
  next: "Send the whole request (headers and body) promptly, then retry."
}), {
  httpApiStatus: 408,
  description: "The request's headers or body did not arrive within the server's time limit."
}) {
  readonly _tag = "RequestTimeout"
}

/** 431: the request's headers are larger than the server reads (answered before any route). */
export class HeadersTooLarge extends Schema.Error<HeadersTooLarge>("HeadersTooLarge")(envelope("headersTooLarge", {
  message: "The request headers are too large.",
  next: "Send smaller headers (at most 16 KiB in all)."
}), {
  httpApiStatus: 431,
  description: "The request headers are larger than the server accepts (16 KiB in all)."
}) {
  readonly _tag = "HeadersTooLarge"
}

/**
 * Every error of the API says its envelope's `message` as its own (`error.message`, what a log,
 * a stack trace or a caller of the typed client sees), and its envelope's `type` as `type`
 * (`notFound`, `unprocessable`, ...), as the Promise client's `OutreachError` does. Getters on the
 * classes, so the encoded envelope (its fields only) is unchanged.
 */
for (
  const error of [
    BadRequest,
    Unauthorized,
    NotAllowed,
    NotFound,
    Conflict,
    Unprocessable,
    ApprovalExpired,
    RateLimited,
    Internal,
    MethodNotAllowed,
    PayloadTooLarge,
    UnsupportedMediaType,
    Unavailable,
    RequestTimeout,
    HeadersTooLarge
  ]
) {
  Object.defineProperties(error.prototype, {
    message: { get(this: { readonly error: { readonly message: string } }) { return this.error.message } },
    type: { get(this: { readonly error: { readonly type: string } }) { return this.error.type } }
  })
}
