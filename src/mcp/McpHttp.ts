/**
 * The MCP server at `POST /mcp` (streamable HTTP, protocol 2025-06-18 and
 * newer), on the service's own router, behind the same gate as REST: every
 * request counts against the key's 600 a minute, and every request is
 * authenticated afresh, `initialize` and lists included, so a revoked key
 * fails the assistant's very next call. The server is built at the first
 * request to it (`http/OnFirstUse.ts`): building its tools at start-up cost
 * the idle service about 15-28 MB.
 */
import { Effect, Layer } from "effect"
import { McpProtocol, McpServer } from "effect/ai"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { Credentials } from "../auth/Credentials.ts"
import { CurrentPrincipal } from "../domain/Principal.ts"
import { Admitted } from "../http/Admission.ts"
import { errorResponse } from "../http/ErrorResponses.ts"
import { bearerToken } from "../http/Gate.ts"
import { onFirstUse } from "../http/OnFirstUse.ts"
import { baseUrlOf } from "../http/BaseUrl.ts"
import { AppConfig } from "../platform/AppConfig.ts"
import { paths } from "../http/OAuthProtocol.ts"
import * as Prompts from "./Prompts.ts"
import * as Authorization from "./Authorization.ts"
import * as Resources from "./Resources.ts"
import * as ToolHandlers from "./ToolHandlers.ts"
import { CommandTools, ServiceTools } from "./Tools.ts"

/** Where assistants connect. */
export const mcpPath = "/mcp"

/** The protocol revisions served: 2025-06-18 and every newer one `effect` speaks. */
export const protocols = [McpProtocol.v2025_06_18, McpProtocol.v2025_11_25, McpProtocol.v2026_07_28] as const

/** What the server tells an assistant about itself at `initialize`. */
export const serverInfo = {
  name: "outreach-service",
  version: "1.0.0",
  instructions: [
    "Drive the workspace's connected accounts on the professional network.",
    "Every command is a job: reads answer with their result; writes go through the account's Governor (working hours, budgets, pacing, warm-up) and, in `approve` and `assist` modes, wait for a person's approval.",
    "You may list approvals, never decide them. Follow a job with get_job (use `wait` instead of polling).",
    "Arguments are closed (an unknown one is an error naming it), ids are `<thing>Id` and numbers are numbers; give a write an `idempotencyKey` to make a retry safe.",
    "The prompts review_approvals, triage_replies and plan_campaign walk through the daily work; outreach://openapi.json indexes the REST API."
  ].join(" ")
}

/**
 * 401 with the challenge of the MCP authorization specification (RFC 9728): where the protected
 * resource's metadata is, which names the authorization server an assistant signs in with; and
 * `error="invalid_token"` when a token was sent (RFC 6750), so an OAuth client refreshes it.
 */
const unauthorized = (base: string, message: string, tokenSent: boolean) =>
    errorResponse(401, {
      message,
      next:
        `Sign in with OAuth (an MCP client discovers it from ${base}${paths.protectedResource}/mcp), or send \`Authorization: Bearer svc_...\` with a valid API key (POST /v1/keys).`
    }, {
      "www-authenticate": `Bearer realm="outreach", resource_metadata="${base}${paths.protectedResource}/mcp"${
        tokenSent ? ", error=\"invalid_token\"" : ""
      }`
    })

/** The caller of each MCP request, from the gate's lookup (or a lookup of its own when embedded without the gate). */
const Authenticated = HttpRouter.middleware<{ provides: CurrentPrincipal }>()(Effect.gen(function*() {
  const credentials = yield* Credentials
  const config = yield* AppConfig
  return (httpEffect) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const token = bearerToken(request.headers.authorization)
      const base = baseUrlOf(request, config)
      if (token === undefined || token === "") return unauthorized(base, "The MCP request has no credentials.", false)
      const admitted = yield* Admitted
      const principal = admitted.resolved ? admitted.principal : yield* credentials.resolve(token)
      if (principal === undefined) {
        return unauthorized(
          base,
          "The API key or access token is unknown or revoked (or has expired), or its workspace is not active.",
          true
        )
      }
      return yield* Effect.provideService(httpEffect, CurrentPrincipal, principal)
    })
}))

/** Tools, their handlers, the resources and the prompts; every tool call asks the role rule first. */
const registrations = Layer.mergeAll(
  McpServer.toolkit(CommandTools),
  McpServer.toolkit(ServiceTools),
  Resources.layer,
  Prompts.layer,
  Authorization.layer
).pipe(Layer.provide(ToolHandlers.layer))

/** `POST /mcp` on the router, built at its first request; needs the core services. */
export const layer = onFirstUse(
  mcpPath,
  McpServer.layerHttp({
    ...serverInfo,
    path: mcpPath,
    protocols,
    allowSessionTermination: true,
    registrations
  }).pipe(Layer.provide(Authenticated.layer))
)
