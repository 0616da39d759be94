/**
 * Implementations of the API's middleware contracts (`api/Security.ts`).
 *
 * @since 1.0.0
 */
import { Effect, Layer, Redacted, type Types } from "effect"
import type { HttpServerResponse } from "effect/http"
import { HttpApiMiddleware } from "effect/http-api"
import { BadRequest, Internal, NotAllowed, Unauthorized } from "../api/Errors.ts"
import { describeProblems, missingObject, namedProblems } from "../api/Problems.ts"
import { Authentication, RequestErrors, RequireManager } from "../api/Security.ts"
import { Credentials } from "../auth/Credentials.ts"
import { canManageWorkspace, CurrentPrincipal } from "../domain/Principal.ts"
import { Admitted } from "./Admission.ts"

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

/** Bearer authentication: uses the gate's lookup when there was one, else looks the key up. */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const credentials = yield* Credentials
    return Authentication.of({
      // On every request: plain combinators, no generator.
      bearer: (httpEffect, { credential }) => {
        const token = Redacted.value(credential)
        if (token === "") return Effect.fail(missingKey)
        return Effect.flatMap(Admitted, (admitted) =>
          Effect.flatMap(
            admitted.resolved ? Effect.succeed(admitted.principal) : credentials.resolve(token),
            (principal): Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled | Unauthorized> =>
              principal === undefined
                ? Effect.fail(unknownKey)
                : Effect.provideService(httpEffect, CurrentPrincipal, principal)
          ))
      }
    })
  })
)

/** Owner/admin check for keys and webhooks. */
export const RequireManagerLive = Layer.succeed(
  RequireManager,
  (httpEffect) =>
    Effect.gen(function*() {
      const principal = yield* CurrentPrincipal
      if (!canManageWorkspace(principal)) {
        return yield* new NotAllowed({
          error: {
            message: "Only owners and admins (and API keys) can manage keys and webhooks.",
            next: "Ask an owner or admin of the workspace, or use an API key."
          }
        })
      }
      return yield* httpEffect
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
