/**
 * The HTTP application, wired: every adapter's routes (the REST API's handlers
 * in `http/`, the people's dashboard in `dashboard/`, MCP in `mcp/`, the
 * sandbox's endpoints and sign-in page in `sandbox/http/`) behind the request
 * gate (handed the dashboard's routes and "not found" page as a value), and the
 * cluster's runner endpoint (its own check, past the gate), served by Node with
 * graceful shutdown (stop accepting, finish in-flight requests). It is wiring, like
 * `App.ts`: the one place that knows every adapter, so none of them imports
 * another's routes.
 */
import { createServer } from "node:http"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Clock, Context, Effect, Layer, Scope } from "effect"
import { HttpMiddleware, HttpRouter, HttpServer, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import * as Time from "./domain/Time.ts"
import { Api } from "./api/Api.ts"
import { Platform } from "./http/Platform.ts"
import * as RouteServices from "./http/RouteServices.ts"
import { AccountsHandlers } from "./http/AccountsHandlers.ts"
import * as ApiReference from "./http/ApiReference.ts"
import { ApprovalsHandlers } from "./http/ApprovalsHandlers.ts"
import { AutomationsHandlers } from "./http/AutomationsHandlers.ts"
import { answerClientErrors } from "./http/ClientErrors.ts"
import { answerWhileNotServing } from "./http/NotServing.ts"
import * as Dashboard from "./dashboard/Dashboard.ts"
import * as Gate from "./http/Gate.ts"
import { IdentityHandlers } from "./http/IdentityHandlers.ts"
import { ForecastHandlers } from "./http/ForecastHandlers.ts"
import { InboxHandlers } from "./http/InboxHandlers.ts"
import { JobsHandlers } from "./http/JobsHandlers.ts"
import { KeysHandlers } from "./http/KeysHandlers.ts"
import { AuthenticationLive, RequestErrorsLive } from "./http/Middleware.ts"
import { PeopleHandlers } from "./http/PeopleHandlers.ts"
import { ActivityHandlers } from "./http/ActivityHandlers.ts"
import { SystemHandlers } from "./http/SystemHandlers.ts"
import { WebhooksHandlers } from "./http/WebhooksHandlers.ts"
import { WorkflowsHandlers } from "./http/WorkflowsHandlers.ts"
import * as McpHttp from "./mcp/McpHttp.ts"
import * as OAuthRoutes from "./http/OAuthRoutes.ts"
import { AppConfig } from "./platform/AppConfig.ts"
import * as Cluster from "./platform/Cluster.ts"
import * as ConnectPage from "./sandbox/http/ConnectPage.ts"
import * as UnipileWebhooks from "./http/UnipileWebhooks.ts"
import { SandboxClockHandlers } from "./sandbox/http/SandboxClockHandlers.ts"
import { SandboxHandlers } from "./sandbox/http/SandboxHandlers.ts"

/** Where the OpenAPI 3.1 document is served. */
export const openapiPath = "/openapi.json"

/** Where a person reads the API: the document rendered by Scalar (`http/ApiReference.ts`). */
export const docsPath = "/docs"

const apiReference = Layer.mergeAll(
  ApiReference.layer(Api, docsPath),
  HttpRouter.add("GET", "/", HttpServerResponse.redirect(docsPath, { status: 302 }))
)

/** Every route of the service, with the gate; needs the core services. */
export const routes = Layer.mergeAll(
  HttpApiBuilder.layer(Api, { openapiPath }).pipe(
    Layer.provide([SystemHandlers, IdentityHandlers, KeysHandlers, AccountsHandlers, SandboxClockHandlers, SandboxHandlers, JobsHandlers, ApprovalsHandlers, InboxHandlers, ForecastHandlers, PeopleHandlers, WorkflowsHandlers, AutomationsHandlers, WebhooksHandlers, ActivityHandlers]),
    Layer.provide([AuthenticationLive, RequestErrorsLive])
  ),
  Gate.layer([
    ...Object.values(Api.groups).flatMap((group) =>
      Object.values(group.endpoints).map(({ method, path }) => ({ method, path }))
    ),
    { method: "GET", path: openapiPath },
    { method: "GET", path: docsPath },
    { method: "GET", path: "/" },
    ...ConnectPage.connectRoutes,
    { method: "POST", path: UnipileWebhooks.path },
    { method: "POST", path: UnipileWebhooks.callbackPath },
    { method: "POST", path: McpHttp.mcpPath },
    { method: "DELETE", path: McpHttp.mcpPath },
    ...OAuthRoutes.routes
  ], [Dashboard.pages]),
  RouteServices.servicesAtBuild(ConnectPage.layer),
  RouteServices.servicesAtBuild(UnipileWebhooks.layer),
  RouteServices.servicesAtBuild(UnipileWebhooks.callbackLayer),
  RouteServices.servicesAtBuild(Dashboard.layer),
  apiReference,
  McpHttp.layer,
  RouteServices.servicesAtBuild(OAuthRoutes.layer),
  Cluster.routes
)

/**
 * Node's HTTP server with the envelope on the parser's refusals. Node's own 400
 * for a request without `Host` has no body, so that check is left to the gate.
 * Idle connections stay open 65 seconds: with Node's 5, a client reusing a
 * connection in the instant the server closed it got ECONNRESET (seen with the
 * MCP SDK's client on a busy machine); a graceful stop still closes them.
 * A request that comes while no route is served (the port is bound before the core is built) is
 * answered 503 rather than held open.
 */
export const nodeServer = (now: () => number) => () =>
  answerWhileNotServing(
    answerClientErrors(createServer({ requireHostHeader: false, keepAliveTimeout: 65_000 }), now),
    now
  )

/**
 * Node listening on `HOST:PORT`. Built beneath the core, before the routes are served: the cluster
 * needs the port it really listens on (`PORT=0` asks the system for one) for its runner address,
 * and on shutdown the listener closes last, so the runner endpoint answers while accounts move.
 */
export const listener = Layer.unwrap(Effect.gen(function*() {
  const config = yield* AppConfig
  const clock = yield* Clock.Clock
  const server = nodeServer(() => clock.currentTimeMillisUnsafe())()
  // The port keeps accepting while the service stops: the routes' end does not close it (Node's
  // `close` would refuse new connections while requests drain and accounts move); requests meet the
  // gate's 503 while draining, then `answerWhileNotServing`'s. It closes last: idle connections at
  // once, a connection still sending its request within SHUTDOWN_TIMEOUT (real time), then cut.
  const closedLast = Layer.effectDiscard(Effect.addFinalizer(() =>
    Effect.callback<void>((resume) => {
      server.close(() => resume(Effect.void))
      server.closeIdleConnections()
    }).pipe(
      Effect.timeoutOption(config.shutdownTimeout),
      Effect.ensuring(Effect.sync(() => server.closeAllConnections())),
      Time.onRealTime
    )
  ))
  return closedLast.pipe(Layer.provideMerge(NodeHttpServer.layer(() => server, {
    host: config.host,
    port: config.port,
    disablePreemptiveShutdown: true
  })))
}))

/**
 * What requests need beside the {@link Platform}: the clock (the sandbox's test clock,
 * `OUTREACH_CLOCK=test`, is provided above the platform), the server and the scope requests run
 * in. Routes take their services when they are built (the API's handler groups,
 * `http/HandlerGroup.ts`) or are given them per request (`http/RouteServices.ts`); the compiler
 * holds this list to the routes: a route that asks for a service per request makes {@link serve}
 * fail to compile.
 */
const perRequest = Context.pick(Clock.Clock, HttpServer.HttpServer, Scope.Scope)

/** The services the routes are built in and ask for per request, and the server they are served by. */
type AppServices =
  | Exclude<HttpRouter.Request.Without<Layer.Services<typeof routes>>, HttpRouter.HttpRouter>
  | HttpRouter.Request.Only<"Requires", Layer.Services<typeof routes>>
  | HttpServer.HttpServer
  | Scope.Scope

/**
 * `HttpRouter.serve` on a small context: `app` (the {@link routes}) is built in the app's services,
 * and each request runs on the {@link Platform} with {@link perRequest} added, not on every service
 * of the app (`http/Platform.ts` says why). `logRequests`: one log line per request;
 * `logAddress`: the address, once listening.
 */
export const serve = (
  app: typeof routes,
  options: { readonly logRequests: boolean; readonly logAddress: boolean }
) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const platform = yield* Platform
    const handler = yield* HttpRouter.toHttpEffect(app)
    const serving = options.logRequests
      ? HttpServer.serveEffect(handler, HttpMiddleware.logger)
      : HttpServer.serveEffect(handler)
    yield* Effect.updateContext(serving, (context: Context.Context<AppServices>) => Context.merge(platform, perRequest(context)))
    if (options.logAddress) yield* HttpServer.logAddress
  }))

/** The routes served on the {@link listener}; one log line per request only with `LOG_REQUESTS=true`. */
export const layer = Layer.unwrap(AppConfig.useSync((config) =>
  serve(routes, { logRequests: config.logRequests, logAddress: true })))
