/**
 * The MCP server at `POST /mcp` (streamable HTTP, protocol 2025-06-18 and
 * newer), on the service's own router, behind the same gate as REST: every
 * request counts against the key's 600 a minute, and every request is
 * authenticated afresh, `initialize` and lists included, so a revoked key
 * fails the assistant's very next call. The server is built at the first
 * request to it (`http/OnFirstUse.ts`): building its tools at start-up cost
 * the idle service about 15-28 MB.
 *
 * @since 1.0.0
 */
import { Effect, Layer } from "effect"
import { McpProtocol, McpServer } from "effect/ai"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { Credentials } from "../auth/Credentials.ts"
import { CurrentPrincipal } from "../domain/Principal.ts"
import { Admitted } from "../http/Admission.ts"
import { errorResponse } from "../http/Errors.ts"
import { bearerToken } from "../http/Gate.ts"
import { onFirstUse } from "../http/OnFirstUse.ts"
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
    "You may list approvals, never decide them. Follow a job with get_job (use `wait` instead of polling)."
  ].join(" ")
}

const unauthorized = (message: string) =>
  errorResponse(401, {
    message,
    next: "Send `Authorization: Bearer svc_...` with a valid API key; create one with POST /v1/keys or `npm run cli -- key create`."
  }, { "www-authenticate": "Bearer realm=\"outreach\"" })

/** The caller of each MCP request, from the gate's lookup (or a lookup of its own when embedded without the gate). */
const Authenticated = HttpRouter.middleware<{ provides: CurrentPrincipal }>()(Effect.gen(function*() {
  const credentials = yield* Credentials
  return (httpEffect) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const token = bearerToken(request.headers.authorization)
      if (token === undefined || token === "") return unauthorized("The MCP request has no API key.")
      const admitted = yield* Admitted
      const principal = admitted.resolved ? admitted.principal : yield* credentials.resolve(token)
      if (principal === undefined) {
        return unauthorized("The API key is unknown or revoked, or its workspace is not active.")
      }
      return yield* Effect.provideService(httpEffect, CurrentPrincipal, principal)
    })
}))

/** Tools, their handlers and the resources; every tool call asks the role rule first. */
const registrations = Layer.mergeAll(
  McpServer.toolkit(CommandTools),
  McpServer.toolkit(ServiceTools),
  Resources.layer,
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
