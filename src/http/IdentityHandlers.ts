/**
 * `GET /v1/me`.
 *
 * @since 1.0.0
 */
import { Effect, Schema } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { Me } from "../api/IdentityApi.ts"
import { CurrentPrincipal, type Principal } from "../domain/Principal.ts"
import { Workspaces } from "../workspaces/Workspaces.ts"

const encodeMe = Schema.encodeSync(Me)

/** The response HttpApi would build for a `Me` body: the schema's encoding as JSON, 200. */
const meResponse = (me: typeof Me.Type): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.text(JSON.stringify(encodeMe(me)), { contentType: "application/json" })

export const IdentityHandlers = HttpApiBuilder.group(
  Api,
  "identity",
  Effect.fn(function*(handlers) {
    const workspaces = yield* Workspaces
    // A key's answer depends on its principal alone, and the gate hands out the same principal for
    // every request of a lease: encode it once per principal (weakly held, so it goes with the lease).
    // A key's answer depends on its principal alone, and the gate hands out the same principal for
    // every request of a lease: encode it once per principal (weakly held, so it goes with the lease).
    const keyAnswers = new WeakMap<Principal, HttpServerResponse.HttpServerResponse>()
    const keyAnswer = (principal: Principal & { readonly kind: "key" }) => {
      const known = keyAnswers.get(principal)
      if (known !== undefined) return known
      const response = meResponse({
        ok: true,
        orgId: principal.workspaceId,
        kind: "key",
        keyName: principal.keyName,
        org: null,
        user: null
      })
      keyAnswers.set(principal, response)
      return response
    }
    const sessionAnswer = (principal: Principal & { readonly kind: "session" }) =>
      Effect.map(workspaces.get(principal.workspaceId).pipe(Effect.orDie), (workspace) => ({
        ok: true as const,
        orgId: principal.workspaceId,
        kind: "session" as const,
        keyName: "",
        org: {
          id: workspace.id,
          name: workspace.name,
          seats: { total: workspace.seatsTotal },
          createdAt: workspace.createdAt
        },
        user: principal.user
      }))
    return handlers.handle("me", () =>
      Effect.flatMap(
        CurrentPrincipal,
        (principal): Effect.Effect<HttpServerResponse.HttpServerResponse | typeof Me.Type> =>
          principal.kind === "key" ? Effect.succeed(keyAnswer(principal)) : sessionAnswer(principal)
      ))
  })
)
