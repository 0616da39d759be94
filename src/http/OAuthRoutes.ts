/**
 * The OAuth endpoints an assistant calls before `/mcp`: the two metadata
 * documents, dynamic client registration, the authorization endpoint (which
 * checks the request, then hands the person to the dashboard's consent page,
 * signing in on the way) and the token endpoint. Answers are RFC 6749's JSON,
 * not the REST envelope.
 */
import { Effect, Layer, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse, UrlParams } from "effect/http"
import { AppConfig } from "../platform/AppConfig.ts"
import { baseUrlOf } from "./BaseUrl.ts"
import { Grants } from "../oauth/Grants.ts"
import * as Protocol from "./OAuthProtocol.ts"

/** Where the authorization endpoint sends the person: the dashboard's consent page. */
export const consentPath = "/dashboard/oauth/authorize"

/** Every route here, for the gate's 404/405 table. */
export const routes = [
  { method: "GET", path: Protocol.paths.protectedResource },
  { method: "GET", path: `${Protocol.paths.protectedResource}/mcp` },
  { method: "GET", path: Protocol.paths.authorizationServer },
  { method: "POST", path: Protocol.paths.register },
  { method: "GET", path: Protocol.paths.authorize },
  { method: "POST", path: Protocol.paths.token }
] as const

/** The service's address as this request reaches it. */
export const baseUrl = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  return baseUrlOf(request, yield* AppConfig)
})

const protectedResource = Effect.flatMap(baseUrl, (base) =>
  Protocol.oauthJson(Protocol.ProtectedResourceMetadata, Protocol.protectedResourceMetadata(base)))

const authorizationServer = Effect.flatMap(baseUrl, (base) =>
  Protocol.oauthJson(Protocol.AuthorizationServerMetadata, Protocol.authorizationServerMetadata(base)))

const decodeRegistration = Schema.decodeUnknownEffect(Protocol.RegistrationRequest)

const register = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const body = yield* Effect.option(request.json)
  if (Option.isNone(body)) {
    return yield* Protocol.oauthError(400, "invalid_client_metadata", "The body must be a JSON object (RFC 7591).")
  }
  const decoded = yield* Effect.result(decodeRegistration(body.value))
  if (decoded._tag === "Failure") {
    return yield* Protocol.oauthError(400, "invalid_client_metadata", Protocol.problemsOf("body", decoded.failure))
  }
  const metadata = decoded.success
  const problem = metadata.redirect_uris.map(Protocol.redirectUriProblem).find((p) => p !== undefined)
  if (problem !== undefined) return yield* Protocol.oauthError(400, "invalid_redirect_uri", problem)
  if (metadata.response_types !== undefined && metadata.response_types.some((type) => type !== "code")) {
    return yield* Protocol.oauthError(400, "invalid_client_metadata", "response_types may hold `code` only.")
  }
  const client = yield* (yield* Grants).register({
    name: metadata.client_name ?? "An unnamed assistant",
    redirectUris: metadata.redirect_uris
  })
  return yield* Protocol.oauthJson(Protocol.ClientInformation, Protocol.clientInformation(client), 201)
})

const authorize = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const query = new URL(request.url, "http://localhost").searchParams
  const params = Protocol.authorizationParamsOf((name) => query.get(name) ?? undefined)
  const checked = yield* Effect.result(Protocol.checkAuthorization(params, yield* baseUrl))
  if (checked._tag === "Failure") return yield* Protocol.refusal(checked.failure)
  // The person signs in (with two-factor) on the way to the consent page, which checks the request again.
  return HttpServerResponse.redirect(`${consentPath}?${Protocol.queryOf(params)}`, { status: 303 })
})

const decodeToken = Schema.decodeUnknownEffect(Protocol.TokenRequest)

const token = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const form = yield* Effect.option(request.urlParamsBody)
  if (Option.isNone(form)) {
    return yield* Protocol.oauthError(400, "invalid_request", "The body must be an application/x-www-form-urlencoded form.")
  }
  const fields = UrlParams.toRecord(form.value)
  const grantType = fields["grant_type"]
  if (grantType !== "authorization_code" && grantType !== "refresh_token") {
    return yield* Protocol.oauthError(400, "unsupported_grant_type", "grant_type must be authorization_code or refresh_token.")
  }
  const decoded = yield* Effect.result(decodeToken(fields))
  if (decoded._tag === "Failure") return yield* Protocol.oauthError(400, "invalid_request", Protocol.problemsOf("form", decoded.failure))
  const input = decoded.success
  const base = yield* baseUrl
  if (input.resource !== undefined && input.resource !== Protocol.resourceOf(base)) {
    return yield* Protocol.oauthError(400, "invalid_target", `resource must be ${Protocol.resourceOf(base)}, the MCP server.`)
  }
  const grants = yield* Grants
  if ((yield* grants.client(input.client_id)) === undefined) {
    return yield* Protocol.oauthError(401, "invalid_client", `No client ${input.client_id} is registered.`)
  }
  const issued = yield* Effect.result(
    input.grant_type === "authorization_code"
      ? grants.redeem({
        code: input.code,
        clientId: input.client_id,
        redirectUri: input.redirect_uri,
        codeVerifier: input.code_verifier
      })
      : grants.refresh({ refreshToken: input.refresh_token, clientId: input.client_id })
  )
  if (issued._tag === "Failure") return yield* Protocol.oauthError(400, "invalid_grant", issued.failure.description)
  return yield* Protocol.oauthJson(Protocol.TokenResponse, {
    access_token: issued.success.accessToken,
    token_type: "Bearer",
    expires_in: issued.success.expiresIn,
    refresh_token: issued.success.refreshToken
  })
})

export const layer = Layer.mergeAll(
  HttpRouter.add("GET", Protocol.paths.protectedResource, protectedResource),
  HttpRouter.add("GET", `${Protocol.paths.protectedResource}/mcp`, protectedResource),
  HttpRouter.add("GET", Protocol.paths.authorizationServer, authorizationServer),
  HttpRouter.add("POST", Protocol.paths.register, register),
  HttpRouter.add("GET", Protocol.paths.authorize, authorize),
  HttpRouter.add("POST", Protocol.paths.token, token)
)
