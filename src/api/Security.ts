/**
 * The middleware contracts every endpoint declares: authentication by bearer
 * key, the owner/admin role check, and the errors any request can meet.
 *
 * @since 1.0.0
 */
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import { CurrentPrincipal } from "../domain/Principal.ts"
import {
  BadRequest,
  HeadersTooLarge,
  Internal,
  MethodNotAllowed,
  NotAllowed,
  PayloadTooLarge,
  RateLimited,
  RequestTimeout,
  Unauthorized,
  UnsupportedMediaType
} from "./Errors.ts"

/** `Authorization: Bearer svc_...` on every `/v1` request; provides the caller. */
export class Authentication extends HttpApiMiddleware.Service<Authentication, {
  provides: CurrentPrincipal
}>()("outreach/Authentication", {
  security: {
    bearer: HttpApiSecurity.bearer.pipe(
      HttpApiSecurity.annotate(
        OpenApi.Description,
        "An API key (`svc_` followed by 43 base64url characters) created with `POST /v1/keys`, the dashboard or the operator CLI. Keys act with the workspace owner's rights."
      ),
      HttpApiSecurity.annotate(OpenApi.Format, "svc_...")
    )
  },
  error: Unauthorized,
  requiredForClient: true
}) {}

/** Owner and admin endpoints (keys, webhooks): a member's session gets 403 `notAllowed`. */
export class RequireManager extends HttpApiMiddleware.Service<RequireManager, {
  requires: CurrentPrincipal
}>()("outreach/RequireManager", {
  error: NotAllowed
}) {}

/**
 * Errors any request can meet. Schema failures become 400 `badRequest` here;
 * the others are produced around the API (the request gate: 405, 413, 415,
 * 429, 500; Node's parser: 408, 431) and are declared here so every operation
 * documents them. The document keeps 413 and 415 only where a body is taken.
 */
export class RequestErrors extends HttpApiMiddleware.Service<RequestErrors>()("outreach/RequestErrors", {
  error: [
    BadRequest,
    MethodNotAllowed,
    RequestTimeout,
    PayloadTooLarge,
    UnsupportedMediaType,
    RateLimited,
    HeadersTooLarge,
    Internal
  ]
}) {}
