/**
 * OAuth 2.1 for assistants, as the MCP authorization specification asks: the
 * metadata documents (RFC 9728, RFC 8414), the forms and JSON of registration
 * (RFC 7591), authorization and token requests as Schemas, the checks of an
 * authorization request (a registered client and redirect URI, PKCE with S256
 * only, the `/mcp` resource), and errors in RFC 6749's format (`error`,
 * `error_description`), never the REST envelope: OAuth clients read these.
 */
import { Effect, Schema } from "effect"
import { HttpServerResponse } from "effect/http"
import { describeProblems, namedProblems } from "../domain/Problems.ts"
import { type Client, Grants } from "../oauth/Grants.ts"

/** Where the endpoints live (the metadata documents give their full URLs). */
export const paths = {
  protectedResource: "/.well-known/oauth-protected-resource",
  authorizationServer: "/.well-known/oauth-authorization-server",
  register: "/oauth/register",
  authorize: "/oauth/authorize",
  token: "/oauth/token"
} as const

/** The protected resource: the MCP server. */
export const resourceOf = (baseUrl: string): string => `${baseUrl}/mcp`

/** RFC 9728's document, where `WWW-Authenticate` points an assistant that has no token. */
export const ProtectedResourceMetadata = Schema.Struct({
  resource: Schema.String,
  authorization_servers: Schema.Array(Schema.String),
  bearer_methods_supported: Schema.Array(Schema.String),
  resource_name: Schema.String,
  resource_documentation: Schema.String
})

/** RFC 8414's document. */
export const AuthorizationServerMetadata = Schema.Struct({
  issuer: Schema.String,
  authorization_endpoint: Schema.String,
  token_endpoint: Schema.String,
  registration_endpoint: Schema.String,
  response_types_supported: Schema.Array(Schema.String),
  grant_types_supported: Schema.Array(Schema.String),
  code_challenge_methods_supported: Schema.Array(Schema.String),
  token_endpoint_auth_methods_supported: Schema.Array(Schema.String),
  service_documentation: Schema.String
})

export const protectedResourceMetadata = (baseUrl: string): typeof ProtectedResourceMetadata.Type => ({
  resource: resourceOf(baseUrl),
  authorization_servers: [baseUrl],
  bearer_methods_supported: ["header"],
  resource_name: "Outreach Service MCP server",
  resource_documentation: `${baseUrl}/docs`
})

export const authorizationServerMetadata = (baseUrl: string): typeof AuthorizationServerMetadata.Type => ({
  issuer: baseUrl,
  authorization_endpoint: baseUrl + paths.authorize,
  token_endpoint: baseUrl + paths.token,
  registration_endpoint: baseUrl + paths.register,
  response_types_supported: ["code"],
  grant_types_supported: ["authorization_code", "refresh_token"],
  // PKCE is required, with S256 only (OAuth 2.1): `plain` would show the verifier to whoever sees the request.
  code_challenge_methods_supported: ["S256"],
  // Assistants are public clients: PKCE, not a secret, binds the code to the client that asked.
  token_endpoint_auth_methods_supported: ["none"],
  service_documentation: `${baseUrl}/docs`
})

/** RFC 6749's error body (and RFC 7591's for registration). */
export const OAuthError = Schema.Struct({ error: Schema.String, error_description: Schema.String })

const noStore = { "cache-control": "no-store", pragma: "no-cache" }

/** A JSON answer of the OAuth endpoints: never cached (it may hold tokens). */
export const oauthJson = <S extends Schema.Top & { readonly DecodingServices: never; readonly EncodingServices: never }>(
  schema: S,
  value: S["Type"],
  status = 200
) =>
  Effect.map(Effect.orDie(Schema.encodeEffect(schema)(value)), (body) =>
    HttpServerResponse.jsonUnsafe(body, { status, headers: noStore }))

/** An error in RFC 6749's format. */
export const oauthError = (status: 400 | 401, error: string, description: string) =>
  oauthJson(OAuthError, { error, error_description: description }, status)

/** Schema problems in words, for `error_description`. */
export const problemsOf = (where: string, error: Schema.SchemaError): string =>
  describeProblems(namedProblems(where, error.issue))

/** RFC 7591's registration request: the fields the service uses (others are ignored, as the RFC allows). */
export const RegistrationRequest = Schema.Struct({
  redirect_uris: Schema.NonEmptyArray(Schema.String),
  client_name: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200))),
  grant_types: Schema.optionalKey(Schema.Array(Schema.String)),
  response_types: Schema.optionalKey(Schema.Array(Schema.String)),
  token_endpoint_auth_method: Schema.optionalKey(Schema.String)
})

/** RFC 7591's answer: the client as registered. */
export const ClientInformation = Schema.Struct({
  client_id: Schema.String,
  client_id_issued_at: Schema.Number,
  client_name: Schema.String,
  redirect_uris: Schema.Array(Schema.String),
  grant_types: Schema.Array(Schema.String),
  response_types: Schema.Array(Schema.String),
  token_endpoint_auth_method: Schema.String
})

export const clientInformation = (client: Client): typeof ClientInformation.Type => ({
  client_id: client.id,
  client_id_issued_at: Math.floor(Date.parse(client.createdAt) / 1000),
  client_name: client.name,
  redirect_uris: client.redirectUris,
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  token_endpoint_auth_method: "none"
})

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"])

/** Why a redirect URI cannot be registered, if it cannot: https, or http on this machine (a desktop app's). */
export const redirectUriProblem = (uri: string): string | undefined => {
  if (!URL.canParse(uri)) return `${uri} is not an absolute URL.`
  const url = new URL(uri)
  if (url.hash !== "") return `${uri} has a fragment; redirect URIs must not.`
  if (url.protocol === "https:") return undefined
  if (url.protocol === "http:" && loopbackHosts.has(url.hostname)) return undefined
  return `${uri} must be https, or http on localhost, 127.0.0.1 or [::1].`
}

/** The token endpoint's form (`application/x-www-form-urlencoded`). */
export const TokenRequest = Schema.Union([
  Schema.Struct({
    grant_type: Schema.Literal("authorization_code"),
    code: Schema.String,
    redirect_uri: Schema.String,
    client_id: Schema.String,
    code_verifier: Schema.String,
    resource: Schema.optionalKey(Schema.String)
  }),
  Schema.Struct({
    grant_type: Schema.Literal("refresh_token"),
    refresh_token: Schema.String,
    client_id: Schema.String,
    resource: Schema.optionalKey(Schema.String),
    scope: Schema.optionalKey(Schema.String)
  })
])

export const TokenResponse = Schema.Struct({
  access_token: Schema.String,
  token_type: Schema.Literal("Bearer"),
  expires_in: Schema.Number,
  refresh_token: Schema.String
})

/** The authorization request's query (or the consent form's fields). */
export const AuthorizationParams = Schema.Struct({
  response_type: Schema.optionalKey(Schema.String),
  client_id: Schema.optionalKey(Schema.String),
  redirect_uri: Schema.optionalKey(Schema.String),
  code_challenge: Schema.optionalKey(Schema.String),
  code_challenge_method: Schema.optionalKey(Schema.String),
  state: Schema.optionalKey(Schema.String),
  resource: Schema.optionalKey(Schema.String),
  scope: Schema.optionalKey(Schema.String)
})
export type AuthorizationParams = typeof AuthorizationParams.Type
const decodeParams = Schema.decodeUnknownSync(AuthorizationParams)

/** The authorization parameters of a query or form (the first value of each). */
export const authorizationParamsOf = (get: (name: string) => string | undefined): AuthorizationParams =>
  decodeParams(Object.fromEntries(
    Object.keys(AuthorizationParams.fields).flatMap((name) => {
      const value = get(name)
      return value === undefined ? [] : [[name, value]]
    })
  ))

/** A checked authorization request. */
export interface AuthorizationRequest {
  readonly client: Client
  readonly redirectUri: string
  readonly codeChallenge: string
  readonly params: AuthorizationParams
}

/**
 * A refused authorization request: shown where it was made when the client or
 * its redirect URI cannot be trusted, else sent back to the client's redirect URI.
 */
export class AuthorizationRefused extends Schema.TaggedError<AuthorizationRefused>()("AuthorizationRefused", {
  error: Schema.String,
  description: Schema.String,
  redirectUri: Schema.optionalKey(Schema.String),
  state: Schema.optionalKey(Schema.String)
}) {}

const pkceChallenge = /^[A-Za-z0-9_-]{43}$/

/** Checks an authorization request in RFC 6749's order: client and redirect URI first, then the rest. */
export const checkAuthorization = (params: AuthorizationParams, baseUrl: string) =>
  Effect.gen(function*() {
    if (params.client_id === undefined) {
      return yield* new AuthorizationRefused({ error: "invalid_request", description: "client_id is missing." })
    }
    const client = yield* (yield* Grants).client(params.client_id)
    if (client === undefined) {
      return yield* new AuthorizationRefused({
        error: "invalid_client",
        description: `No client ${params.client_id} is registered; register with POST ${paths.register}.`
      })
    }
    const redirectUri = params.redirect_uri
    if (redirectUri === undefined || !client.redirectUris.includes(redirectUri)) {
      return yield* new AuthorizationRefused({
        error: "invalid_request",
        description: redirectUri === undefined
          ? "redirect_uri is missing."
          : "redirect_uri is not one the client registered (it must match exactly)."
      })
    }
    const back = (error: string, description: string) =>
      new AuthorizationRefused({
        error,
        description,
        redirectUri,
        ...(params.state === undefined ? {} : { state: params.state })
      })
    if (params.response_type !== "code") {
      return yield* back("unsupported_response_type", "response_type must be `code`.")
    }
    if (params.code_challenge === undefined) {
      return yield* back("invalid_request", "code_challenge is missing: PKCE (S256) is required.")
    }
    if (params.code_challenge_method !== "S256") {
      return yield* back("invalid_request", "code_challenge_method must be S256 (plain is not accepted).")
    }
    if (!pkceChallenge.test(params.code_challenge)) {
      return yield* back("invalid_request", "code_challenge must be the 43-character base64url SHA-256 of the verifier.")
    }
    if (params.resource !== undefined && params.resource !== resourceOf(baseUrl)) {
      return yield* back("invalid_target", `resource must be ${resourceOf(baseUrl)}, the MCP server.`)
    }
    return { client, redirectUri, codeChallenge: params.code_challenge, params } satisfies AuthorizationRequest
  })

/** The client's redirect URI with the answer's parameters (the code, or the error) and the request's state. */
export const redirectBack = (redirectUri: string, answer: Readonly<Record<string, string | undefined>>) => {
  const url = new URL(redirectUri)
  for (const [name, value] of Object.entries(answer)) if (value !== undefined) url.searchParams.set(name, value)
  return HttpServerResponse.redirect(url.toString(), { status: 303, headers: noStore })
}

/** A refusal as its answer: back to the client when it can be trusted with it, else an error here. */
export const refusal = (refused: AuthorizationRefused) =>
  refused.redirectUri === undefined
    ? oauthError(400, refused.error, refused.description)
    : Effect.succeed(redirectBack(refused.redirectUri, {
      error: refused.error,
      error_description: refused.description,
      state: refused.state
    }))

/** Parameters as a query string every character of which a dashboard `next` link keeps (`%20`, never `+`). */
export const queryOf = (params: AuthorizationParams): string =>
  Object.entries(params).map(([name, value]) =>
    `${name}=${encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`
  ).join("&")
