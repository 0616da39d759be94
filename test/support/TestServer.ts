/**
 * The real service, in process, on an ephemeral port, over a fresh database:
 * HTTP tests go through the real gate, middleware and handlers.
 */
import { connect } from "node:net"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest, HttpRouter, HttpServer } from "effect/http"
import * as App from "../../src/App.ts"
import { Platform } from "../../src/http/Platform.ts"
import * as Server from "../../src/Server.ts"
import type { NetworkDriver } from "../../src/network/NetworkDriver.ts"
import { AppConfig, type AppSettings } from "../../src/platform/AppConfig.ts"
import * as ServiceClock from "../../src/platform/ServiceClock.ts"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import * as TestDatabase from "./TestDatabase.ts"

/**
 * Node's server as the service configures it (the envelope on parser errors,
 * no bodiless 400 for a missing Host), on an ephemeral port, with a client
 * pointed at it: `NodeHttpServer.layerTest` with the service's own server.
 */
const httpServer = Layer.unwrap(Effect.clockWith((clock) =>
  Effect.succeed(HttpServer.layerTestClient.pipe(
    Layer.provide(
      Layer.fresh(FetchHttpClient.layer).pipe(Layer.provide(Layer.succeed(FetchHttpClient.RequestInit)({ keepalive: false })))
    ),
    Layer.provideMerge(NodeHttpServer.layer(Server.nodeServer(() => clock.currentTimeMillisUnsafe()), { port: 0 }))
  ))
))

/**
 * The service's routes served on an ephemeral port, with an `HttpClient`
 * pointed at it; `extraRoutes` adds test-only routes beside them.
 */
export const layer = (
  overrides: Partial<AppSettings> = {},
  extraRoutes: Layer.Layer<never, never, HttpRouter.HttpRouter> = Layer.empty,
  /** What the routes see as the network driver, built from the service's own (an embedder's driver). */
  driver?: Layer.Layer<NetworkDriver, never, NetworkDriver>,
  /** The service's core: the sandbox's by default, or `App.coreWith` another network driver. */
  core: Layer.Layer<Layer.Success<typeof App.core>, never, Layer.Services<typeof App.core>> = App.core
) =>
  // On close the requests drain first, as the service's do (`App.drainOnStop`): live streams and
  // long-polls end then, so the server's own close does not wait for them.
  App.drainOnStop.pipe(
    Layer.provideMerge(
      Server.serve(driver === undefined ? Layer.merge(Server.routes, extraRoutes) : Layer.merge(Server.routes, extraRoutes).pipe(Layer.provide(driver)), {
        logRequests: false,
        logAddress: false
      })
    ),
    Layer.provideMerge(core),
    // The listener beneath the core, as in `App.layer`: on a PostgreSQL server the cluster's runner gives
    // its peers (itself included) the port it listens on, not the default 8080, where another process may be.
    Layer.provideMerge(httpServer),
    Layer.provideMerge(ServiceClock.layer),
    Layer.provideMerge(TestDatabase.layer),
    // Requests are served on configuration and logging, as in `App.layer`.
    Layer.provideMerge(Platform.layer),
    // Background syncing is off unless a test asks for it: its events and list_polls spend would
    // otherwise show in every test that connects an account and moves the clock.
    Layer.provideMerge(AppConfig.layerWith({ inboxSync: false, port: 0, ...overrides }))
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

/** A reply read off a raw socket: what a client that speaks its own HTTP gets. */
export interface RawReply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/**
 * Writes `request` byte for byte to the test server and reads until the server
 * closes the connection (send `Connection: close`; Node closes after a parser
 * error by itself): for requests no HTTP client would send (a bad method, a
 * missing Host, a body too large in chunks).
 */
export const rawCall = (request: string | ReadonlyArray<string | Buffer>) =>
  Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    const address = server.address
    if (address._tag === "UnixPathAddress") return yield* Effect.die(new Error("the test server has no TCP address"))
    const text = yield* Effect.promise(() =>
      new Promise<string>((resolve) => {
        const socket = connect(address.port, "127.0.0.1")
        const chunks: Array<Buffer> = []
        socket.on("data", (chunk: Buffer) => chunks.push(chunk))
        // The server may close while a large body is still being written: what it answered is what counts.
        socket.on("error", () => socket.destroy())
        socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")))
        for (const part of typeof request === "string" ? [request] : request) socket.write(part)
      })
    )
    // The final response (an interim `100 Continue` may come first).
    const last = text.replace(/^HTTP\/1\.1 100 [^\r]*\r\n\r\n/, "")
    const [head, ...rest] = last.split("\r\n\r\n")
    const [statusLine, ...headerLines] = head.split("\r\n")
    const headers = Object.fromEntries(headerLines.map((line) => {
      const colon = line.indexOf(":")
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]
    }))
    const reply: RawReply = { status: Number(statusLine.split(" ")[1]), headers, body: rest.join("\r\n\r\n") }
    return reply
  })
