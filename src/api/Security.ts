/**
 * The middleware contracts every endpoint declares: authentication by bearer
 * key with the role check of the operation's action, and the errors any
 * request can meet.
 */
import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import { type Action, rules } from "../domain/Permissions.ts"
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
        "An API key (`svc_` followed by 43 base64url characters) created with `POST /v1/keys`, the dashboard or the operator CLI. A key acts with the role it was made with (`owner`, `admin`, `member` or `read_only`; keys made before keys had roles are owners); each operation's `x-roles` says which roles may call it."
      ),
      HttpApiSecurity.annotate(OpenApi.Format, "svc_...")
    )
  },
  // 403 `notAllowed`: the caller's role may not do the operation's action (`domain/Permissions.ts`).
  error: [Unauthorized, NotAllowed],
  requiredForClient: true
}) {}

/**
 * The action an operation does, from the table of `domain/Permissions.ts`: the
 * authentication middleware refuses every other role with 403 `notAllowed`. An
 * operation without one is refused to all but owners (and a test fails).
 */
export class Permission extends Context.Service<Permission, Action | "public">()("outreach/Permission") {}

/**
 * An operation's annotations for `action`: the rule itself, and for the document
 * `x-roles` (the roles allowed) and `x-action`; `OpenApiExtras.documentRoles` says it
 * in words in the description.
 */
export const allowedTo = (action: Action | "public"): Context.Context<Permission | OpenApi.Override> =>
  Context.make(Permission, action).pipe(
    Context.add(OpenApi.Override, action === "public" ? {} : { "x-action": action, "x-roles": rules[action].roles })
  )

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
