/**
 * `GET /v1/me`.
 */
import { Effect, Layer, Schema } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { Me } from "../api/IdentityApi.ts"
import { CurrentPrincipal, type Principal } from "../domain/Principal.ts"
import { Workspaces } from "../workspaces/Workspaces.ts"
import * as HandlerGroup from "./HandlerGroup.ts"

type KeyPrincipal = Extract<Principal, { readonly kind: "key" }>

const encodeMe = Schema.encodeSync(Me)

export const IdentityHandlers = Layer.unwrap(Effect.gen(function*() {
  const workspaces = yield* Workspaces
  // A key's answer depends on its principal alone, and every request served from one rate-limit
  // lease carries the same principal object: the answer is encoded once per lease, and a new
  // lease (a new claim, which checks the key again) brings a new principal and a new answer.
  const keyAnswers = new WeakMap<KeyPrincipal, HttpServerResponse.HttpServerResponse>()
  const keyAnswer = (principal: KeyPrincipal) => {
    const cached = keyAnswers.get(principal)
    if (cached !== undefined) return cached
    const answer = HttpServerResponse.jsonUnsafe(encodeMe({
      ok: true,
      orgId: principal.workspaceId,
      kind: "key",
      keyName: principal.keyName,
      org: null,
      user: null
    }))
    keyAnswers.set(principal, answer)
    return answer
  }
  const sessionAnswer = (principal: Exclude<Principal, KeyPrincipal>) =>
    Effect.map(workspaces.get(principal.workspaceId).pipe(Effect.orDie), (workspace) => ({
      ok: true as const,
      orgId: principal.workspaceId,
      kind: "session" as const,
      keyName: "",
      org: {
        id: workspace.id,
        name: workspace.name,
        seats: { total: workspace.seatsTotal },
        network: workspace.network,
        createdAt: workspace.createdAt
      },
      user: principal.user
    }))
  return HandlerGroup.onMiddlewares(HttpApiBuilder.group(Api, "identity", (handlers) =>
    handlers.handle("me", () =>
      Effect.flatMap(CurrentPrincipal, (principal): Effect.Effect<HttpServerResponse.HttpServerResponse | typeof Me.Type> =>
        principal.kind === "key" ? Effect.succeed(keyAnswer(principal)) : sessionAnswer(principal)))
  ))
}))
