/**
 * The middleware contracts every endpoint declares: authentication by bearer
 * key, the owner/admin role check, and the errors any request can meet.
 *
 * @since 1.0.0
 */
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import { CurrentPrincipal } from "../domain/Principal.ts"
import { BadRequest, Internal, NotAllowed, RateLimited, Unauthorized } from "./Errors.ts"

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
 * 429 `rateLimited` and 500 `internal` are produced by the request gate around
 * the API and are declared here so every operation documents them.
 */
export class RequestErrors extends HttpApiMiddleware.Service<RequestErrors>()("outreach/RequestErrors", {
  error: [BadRequest, RateLimited, Internal]
}) {}
