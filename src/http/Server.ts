/**
 * The HTTP application: the API's handlers behind the request gate, served by
 * Node with graceful shutdown (stop accepting, finish in-flight requests).
 *
 * @since 1.0.0
 */
import { createServer } from "node:http"
import { NodeHttpServer } from "@effect/platform-node"
import { Clock, Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import { Api } from "../api/Api.ts"
import * as McpHttp from "../mcp/McpHttp.ts"
import { AccountsHandlers } from "./AccountsHandlers.ts"
import { ApprovalsHandlers } from "./ApprovalsHandlers.ts"
import { AutomationsHandlers } from "./AutomationsHandlers.ts"
import * as ConnectPage from "./ConnectPage.ts"
import * as Dashboard from "./dashboard/Dashboard.ts"
import { SandboxHandlers } from "./SandboxHandlers.ts"
import { AppConfig } from "../platform/AppConfig.ts"
import * as Gate from "./Gate.ts"
import { IdentityHandlers } from "./IdentityHandlers.ts"
import { InboxHandlers } from "./InboxHandlers.ts"
import { JobsHandlers } from "./JobsHandlers.ts"
import { KeysHandlers } from "./KeysHandlers.ts"
import { PeopleHandlers } from "./PeopleHandlers.ts"
import { answerClientErrors } from "./ClientErrors.ts"
import { AuthenticationLive, RequestErrorsLive, RequireManagerLive } from "./Middleware.ts"
import { SandboxClockHandlers } from "./SandboxClockHandlers.ts"
import { SystemHandlers } from "./SystemHandlers.ts"
import { WebhooksHandlers } from "./WebhooksHandlers.ts"
import { WorkflowsHandlers } from "./WorkflowsHandlers.ts"

/** Where the OpenAPI 3.1 document is served. */
export const openapiPath = "/openapi.json"

/** Where a person reads the API: the document rendered by Scalar (inlined by `effect`, no CDN). */
export const docsPath = "/docs"

const apiReference = Layer.mergeAll(
  HttpApiScalar.layer(Api, { path: docsPath }),
  HttpRouter.add("GET", "/", HttpServerResponse.redirect(docsPath, { status: 302 }))
)

/** Every route of the service, with the gate; needs the core services. */
export const routes = Layer.mergeAll(
  HttpApiBuilder.layer(Api, { openapiPath }).pipe(
    Layer.provide([SystemHandlers, IdentityHandlers, KeysHandlers, AccountsHandlers, SandboxClockHandlers, SandboxHandlers, JobsHandlers, ApprovalsHandlers, InboxHandlers, PeopleHandlers, WorkflowsHandlers, AutomationsHandlers, WebhooksHandlers]),
    Layer.provide([AuthenticationLive, RequireManagerLive, RequestErrorsLive])
  ),
  Gate.layer([
    ...Object.values(Api.groups).flatMap((group) =>
      Object.values(group.endpoints).map(({ method, path }) => ({ method, path }))
    ),
    { method: "GET", path: openapiPath },
    { method: "GET", path: docsPath },
    { method: "GET", path: "/" },
    ...ConnectPage.connectRoutes,
    ...Dashboard.routes,
    { method: "POST", path: McpHttp.mcpPath },
    { method: "DELETE", path: McpHttp.mcpPath }
  ]),
  ConnectPage.layer,
  Dashboard.layer,
  apiReference,
  McpHttp.layer
)

/**
 * Node's HTTP server with the envelope on the parser's refusals. Node's own 400
 * for a request without `Host` has no body, so that check is left to the gate.
 */
export const nodeServer = (now: () => number) => () =>
  answerClientErrors(createServer({ requireHostHeader: false }), now)

/** The routes served on `HOST:PORT`; one log line per request only with `LOG_REQUESTS=true`. */
export const layer = Layer.unwrap(Effect.gen(function*() {
  const config = yield* AppConfig
  const clock = yield* Clock.Clock
  return HttpRouter.serve(routes, { disableLogger: !config.logRequests }).pipe(
    Layer.provide(NodeHttpServer.layer(nodeServer(() => clock.currentTimeMillisUnsafe()), {
      host: config.host,
      port: config.port,
      gracefulShutdownTimeout: config.shutdownTimeout
    }))
  )
}))
