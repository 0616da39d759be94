// A second reference for `npm run bench`: the least an Effect HttpApi server does for GET /v1/me
// and GET /v1/jobs/{id}. Two endpoints with the service's schemas (`Me`; the job's path, query and
// answer), a bearer-security middleware that provides a caller
// without looking anything up, and the same rate-limit headers added by router middleware; no
// database, no other services. The service cannot be faster than this on the same framework, so
// its row beside this one shows what the service itself adds. Logs "Listening on http://…:PORT".
import { createServer } from "node:http"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Context, Effect, Layer, Redacted, Schema } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import {
  HttpApi,
  HttpApiBuilder,
  HttpApiEndpoint,
  HttpApiGroup,
  HttpApiMiddleware,
  HttpApiSecurity
} from "effect/http-api"
import { Ok } from "../src/api/Envelope.ts"
import { Me } from "../src/api/IdentityApi.ts"
import { Job, jobId, jobWaitQuery } from "../src/api/JobsApi.ts"
import { jobAnswer, meAnswer, rateLimitHeaders } from "./answers.ts"

class Caller extends Context.Service<Caller, { readonly token: string }>()("bench/Caller") {}

class Bearer extends HttpApiMiddleware.Service<Bearer, { provides: Caller }>()("bench/Bearer", {
  security: { bearer: HttpApiSecurity.bearer }
}) {}

const JobAnswer = Ok({ job: Job })

const Api = HttpApi.make("floor").add(
  HttpApiGroup.make("identity")
    .add(HttpApiEndpoint.get("me", "/v1/me", { success: Me }))
    .add(HttpApiEndpoint.get("job", "/v1/jobs/:id", { params: jobId, query: jobWaitQuery, success: JobAnswer }))
    .middleware(Bearer)
)

const job = Schema.decodeUnknownSync(JobAnswer)(jobAnswer)

const Identity = HttpApiBuilder.group(
  Api,
  "identity",
  (handlers) => handlers.handle("me", () => Effect.succeed(meAnswer)).handle("job", () => Effect.succeed(job))
)

const BearerLive = Layer.succeed(Bearer, {
  bearer: (httpEffect, { credential }) => Effect.provideService(httpEffect, Caller, { token: Redacted.value(credential) })
})

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
