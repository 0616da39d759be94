/**
 * The real service, in process, on an ephemeral port, over a fresh database:
 * HTTP tests go through the real gate, middleware and handlers.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { HttpClient, HttpClientRequest, HttpRouter } from "effect/http"
import * as App from "../../src/App.ts"
import * as Server from "../../src/http/Server.ts"
import { AppConfig, type AppSettings } from "../../src/platform/AppConfig.ts"
import * as ServiceClock from "../../src/platform/ServiceClock.ts"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import * as TestDatabase from "./TestDatabase.ts"

/**
 * The service's routes served on an ephemeral port, with an `HttpClient`
 * pointed at it; `extraRoutes` adds test-only routes beside them.
 */
export const layer = (
  overrides: Partial<AppSettings> = {},
  extraRoutes: Layer.Layer<never, never, HttpRouter.HttpRouter> = Layer.empty
) =>
  HttpRouter.serve(Layer.merge(Server.routes, extraRoutes), { disableLogger: true, disableListenLog: true }).pipe(
    Layer.provideMerge(NodeHttpServer.layerTest),
    Layer.provideMerge(App.core),
    Layer.provideMerge(ServiceClock.layer),
    Layer.provideMerge(TestDatabase.layer),
    // Background syncing is off unless a test asks for it: its events and list_polls spend would
    // otherwise show in every test that connects an account and moves the clock.
    Layer.provideMerge(AppConfig.layerWith({ inboxSync: false, ...overrides }))
  )

/** A response, read whole. */
export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  // Untyped JSON as received: tests read it like an integrator would.
  readonly body: any
}

/** Sends a request and reads the reply; `body` is sent as JSON unless `raw` is given. */
export const call = (
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  options: {
    readonly token?: string
    readonly body?: unknown
    readonly raw?: { readonly text: string; readonly contentType: string }
    readonly headers?: Record<string, string>
  } = {}
) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    let request = HttpClientRequest.make(method)(path).pipe(HttpClientRequest.setHeaders(options.headers ?? {}))
    if (options.token !== undefined) request = HttpClientRequest.bearerToken(request, options.token)
    if (options.raw !== undefined) {
      request = HttpClientRequest.bodyText(request, options.raw.text, options.raw.contentType)
    } else if (options.body !== undefined) {
      request = HttpClientRequest.bodyJsonUnsafe(request, options.body)
    }
    const response = yield* client.execute(request)
    const text = yield* response.text
    const reply: Reply = {
      status: response.status,
      headers: response.headers,
      body: text === "" ? undefined : (response.headers["content-type"] ?? "").startsWith("application/json")
        ? JSON.parse(text)
        : text
    }
    return reply
  }).pipe(Effect.orDie)

/** A new workspace and its owner key value. */
export const newWorkspace = (name = "Test workspace") =>
  Effect.gen(function*() {
    const workspaces = yield* Workspaces
    return yield* workspaces.create({ name })
  })
