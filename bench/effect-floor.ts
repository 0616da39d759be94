// A second reference for `npm run bench`: the least an Effect HttpApi server does for GET /v1/me.
// One endpoint with the service's `Me` schema, a bearer-security middleware that provides a caller
// without looking anything up, and the same rate-limit headers added by router middleware; no
// database, no other services. The service cannot be faster than this on the same framework, so
// its row beside this one shows what the service itself adds. Logs "Listening on http://…:PORT".
import { createServer } from "node:http"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Context, Effect, Layer, Redacted } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import {
  HttpApi,
  HttpApiBuilder,
  HttpApiEndpoint,
  HttpApiGroup,
  HttpApiMiddleware,
  HttpApiSecurity
} from "effect/http-api"
import { Me } from "../src/api/IdentityApi.ts"

class Caller extends Context.Service<Caller, { readonly token: string }>()("bench/Caller") {}

class Bearer extends HttpApiMiddleware.Service<Bearer, { provides: Caller }>()("bench/Bearer", {
  security: { bearer: HttpApiSecurity.bearer }
}) {}

const Api = HttpApi.make("floor").add(
  HttpApiGroup.make("identity").add(HttpApiEndpoint.get("me", "/v1/me", { success: Me })).middleware(Bearer)
)

const answer = {
  ok: true as const,
  orgId: "3b1f8a52-4c1e-4d8e-9c77-2a5e0d6f9b10",
  kind: "key" as const,
  keyName: "Owner key",
  org: null,
  user: null
}

const Identity = HttpApiBuilder.group(Api, "identity", (handlers) => handlers.handle("me", () => Effect.succeed(answer)))

const BearerLive = Layer.succeed(Bearer, {
  bearer: (httpEffect, { credential }) => Effect.provideService(httpEffect, Caller, { token: Redacted.value(credential) })
})

const rateLimitHeaders = { "ratelimit-limit": "600", "ratelimit-remaining": "599", "ratelimit-reset": "60" }
const Headers = HttpRouter.middleware(
  (httpEffect) => Effect.map(httpEffect, (response) => HttpServerResponse.setHeaders(response, rateLimitHeaders)),
  { global: true }
)

const routes = Layer.mergeAll(
  HttpApiBuilder.layer(Api).pipe(Layer.provide(Identity), Layer.provide(BearerLive)),
  Headers
)

HttpRouter.serve(routes, { disableLogger: true }).pipe(
  Layer.provide(NodeHttpServer.layer(createServer, { host: "127.0.0.1", port: 0 })),
  Layer.launch,
  NodeRuntime.runMain
)
