/**
 * Driving the simulated network from outside, for tests and demos. These
 * endpoints answer 404 unless the sandbox driver is on (`OUTREACH_NETWORK=sandbox`).
 *
 * @since 1.0.0
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { HealthLevel, Tier } from "../domain/Limits.ts"
import { Account } from "./AccountsApi.ts"
import { Ok, Uuid } from "./Envelope.ts"
import { Conflict, NotFound } from "./Errors.ts"
import { Authentication } from "./Security.ts"

const Reason = Schema.optionalKey(Schema.String.check(Schema.isMaxLength(500)))

/** What the simulated network can do to an account. */
export const SandboxEvent = Schema.Union([
  Schema.Struct({ type: Schema.Literal("signed_out"), reason: Reason }),
  Schema.Struct({ type: Schema.Literal("restricted"), reason: Reason }),
  Schema.Struct({ type: Schema.Literal("health"), level: HealthLevel, reason: Reason })
]).annotate({
  identifier: "SandboxEvent",
  examples: [{ type: "signed_out" }, { type: "health", level: "red", reason: "unusual activity" }]
})

export class SandboxApi extends HttpApiGroup.make("sandbox")
  .add(
    HttpApiEndpoint.post("completeConnection", "/v1/sandbox/accounts/:id/complete-connection", {
      params: { id: Uuid },
      payload: Schema.Struct({
        tier: Schema.optionalKey(Tier),
        products: Schema.optionalKey(Schema.Array(Schema.String)),
        connections: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)))
      }).annotate({ examples: [{ tier: "sales_nav", products: ["sales_navigator"], connections: 1200 }] }),
      success: Ok({ account: Account }),
      error: [NotFound, Conflict]
    }).annotateMerge(OpenApi.annotations({
      summary: "The person finished signing in",
      description:
        "Moves a connecting account to `warming` (or a signed-out one back to work) with the tier, products and network size given (else the sandbox's own), and emits `account.connected`."
    })),
    HttpApiEndpoint.post("networkEvent", "/v1/sandbox/accounts/:id/events", {
      params: { id: Uuid },
      payload: SandboxEvent,
      success: Ok({ account: Account }),
      error: [NotFound, Conflict]
    }).annotateMerge(OpenApi.annotations({
      summary: "The network does something to an account",
      description:
        "`signed_out`: the account needs reconnecting (`account.reconnection_required`). `restricted`: reads only until a person resumes it (`account.paused`). `health`: sets the level; `red` stops the account (`account.paused`)."
    }))
  )
  .middleware(Authentication)
  .annotateMerge(OpenApi.annotations({ title: "Sandbox", description: "Only with the sandbox network driver." }))
{}
