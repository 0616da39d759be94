/**
 * Implementations of the API's middleware contracts (`api/Security.ts`).
 */
import { Context, Effect, Layer, Redacted, type Types } from "effect"
import { HttpServerRequest, type HttpServerResponse } from "effect/http"
import { type HttpApiEndpoint, HttpApiMiddleware } from "effect/http-api"
import { BadRequest, Internal, NotAllowed, Unauthorized } from "../api/Errors.ts"
import { describeProblems, missingObject, namedProblems } from "../domain/Problems.ts"
import { Authentication, Permission, RequestErrors } from "../api/Security.ts"
import { Credentials } from "../auth/Credentials.ts"
import { type Action, permits, refusal } from "../domain/Permissions.ts"
import { CurrentPrincipal, type Principal, roleOf } from "../domain/Principal.ts"
import { Admitted } from "./Admission.ts"
import { csrfHeader, csrfMatches, sessionTokenOf } from "./SessionCookie.ts"

const missingKey = new Unauthorized({
  error: {
    message: "The request has no API key.",
    next:
      "Send the header `Authorization: Bearer svc_...`. Create a key with POST /v1/keys or `npm run cli -- workspace create`."
  }
})

const unknownKey = new Unauthorized({
  error: {
    message: "The API key is unknown or revoked, or its workspace is not active.",
    next: "Check the key you send; list your keys with GET /v1/keys using a valid key, or create a new one."
  }
})

const assistantToken = new Unauthorized({
  error: {
    message: "An assistant's OAuth access token is for the MCP server at /mcp only, not for the REST API.",
    next: "Call the REST API with an API key (`Authorization: Bearer svc_...`), or use the token at /mcp."
  }
})

const cookieWithoutCsrf = new Unauthorized({
  error: {
    message: "The dashboard's session cookie alone does not authorize a change: the CSRF token is missing or wrong.",
    next:
      "Send the `x-csrf-token` header the dashboard's pages carry, or authenticate with `Authorization: Bearer ...` instead."
  }
})

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"])

/** The action of an operation; one without a rule is treated as the strictest (owners only). */
export const actionOf = (endpoint: HttpApiEndpoint.Top): Action | "public" =>
  Context.getOrUndefined(endpoint.annotations, Permission) ?? "workspaceSettings"

/** 403 `notAllowed` when the caller's role may not do what the operation does. */
const refusedFor = (principal: Principal, endpoint: HttpApiEndpoint.Top): NotAllowed | undefined => {
  const action = actionOf(endpoint)
  const role = roleOf(principal)
  if (action === "public" || permits(role, action)) return undefined
  return new NotAllowed({
    error: {
      message: refusal(role, action),
      next: "Ask an owner or admin of the workspace to do it, or to give you a role or a key that may (docs/dashboard.md lists who may do what)."
    }
  })
}

/** Serves the request as `principal`, when its role may do the operation's action. */
const authorized = <E, R>(
  httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
  principal: Principal,
  endpoint: HttpApiEndpoint.Top
) => {
  const refused = refusedFor(principal, endpoint)
  return refused === undefined ? Effect.provideService(httpEffect, CurrentPrincipal, principal) : Effect.fail(refused)
}

/**
 * A request with no `Authorization` header, signed in by the dashboard's session cookie: the
 * person's session, for reads; a change also needs the CSRF token (`x-csrf-token`), since a
 * browser sends the cookie on its own.
 */
const cookieSession = <E, R>(
  httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
  credentials: Credentials["Service"],
  endpoint: HttpApiEndpoint.Top
) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const token = sessionTokenOf(request)
    if (token === undefined) return yield* missingKey
    const admitted = yield* Admitted
    const principal = admitted.resolved
      ? (admitted.via === "cookie" ? admitted.principal : undefined)
      : yield* credentials.resolve(token)
    if (principal === undefined || principal.kind !== "session") return yield* unknownKey
    if (!safeMethods.has(request.method) && !csrfMatches(token, request.headers[csrfHeader])) {
      return yield* cookieWithoutCsrf
    }
    return yield* authorized(httpEffect, principal, endpoint)
  })

/** Bearer authentication: uses the gate's lookup when there was one, else looks the key up. */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const credentials = yield* Credentials
    // The request served as the caller, or refused when the key resolved to no one.
    const servedAs = (
      httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, CurrentPrincipal>,
      endpoint: HttpApiEndpoint.Top
    ) =>
    (
      principal: Principal | undefined
    ): Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled | Unauthorized | NotAllowed> =>
      principal === undefined
        ? Effect.fail(unknownKey)
        : principal.kind === "assistant"
        ? Effect.fail(assistantToken)
        : authorized(httpEffect, principal, endpoint)
    return Authentication.of({
      // On every request: plain combinators, no generator, and no lookup when the gate made one.
      bearer: (httpEffect, { credential, endpoint }) => {
        const token = Redacted.value(credential)
        if (token === "") return cookieSession(httpEffect, credentials, endpoint)
        return Effect.flatMap(Admitted, (admitted) =>
          admitted.resolved
            ? servedAs(httpEffect, endpoint)(admitted.principal)
            : Effect.flatMap(credentials.resolve(token), servedAs(httpEffect, endpoint)))
      }
    })
  })
)

const slotName = { Params: "path", Headers: "header", Query: "query", Payload: "body" } as const

/** Schema failures of a request answer 400 `badRequest` naming every offending field. */
export const RequestErrorsLive = HttpApiMiddleware.layerSchemaErrorTransform(RequestErrors, (error) => {
  if (error.kind === "Body" || error.kind === "ResponseHeaders") {
    // Our own response failed its schema: a bug, logged with its cause.
    return Effect.logError("response failed its schema", error.cause).pipe(
      Effect.andThen(Effect.fail(
        new Internal({ error: { message: "The service failed to answer.", next: "Retry later." } })
      ))
    )
  }
  const where = slotName[error.kind]
  const issue = error.cause.issue
  return Effect.fail(
    new BadRequest({
      error: {
        message: missingObject(where, issue) ?? describeProblems(namedProblems(where, issue)),
        next: "Fix the fields named in the message and send the request again; GET /openapi.json describes every field."
      }
    })
  )
})
