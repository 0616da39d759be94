/**
 * Unauthenticated operational endpoints.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Ok } from "./Envelope.ts"
import { Unavailable } from "./Errors.ts"
import { allowedTo } from "./Security.ts"

/** `GET /healthz`: for load balancers; no key, no rate limit. */
export class SystemApi extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("health", "/healthz", {
      success: Ok({
        status: Schema.Literal("up"),
        database: Schema.Literal("up")
      }).annotate({ examples: [{ ok: true, status: "up", database: "up" }] }),
      error: Unavailable
    }).annotateMerge(allowedTo("public")).annotateMerge(OpenApi.annotations({
      summary: "Health check",
      description:
        "Answers 200 while the service can reach its database and 503 otherwise. Needs no key and is not rate limited."
    }))
  )
  .annotateMerge(OpenApi.annotations({ title: "System", description: "Operational endpoints." }))
{}
