/**
 * `GET/POST /v1/keys`, `POST /v1/keys/{id}/revoke`.
 */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { actorOf, CurrentPrincipal, roleOf } from "../domain/Principal.ts"
import { ApiKeys } from "../keys/ApiKeys.ts"
import * as HandlerGroup from "./HandlerGroup.ts"
import { spoken } from "./ServiceErrors.ts"

export const KeysHandlers = Layer.unwrap(Effect.gen(function*() {
  const keys = spoken(yield* ApiKeys)
  return HandlerGroup.onMiddlewares(HttpApiBuilder.group(Api, "keys", (handlers) =>
    handlers.handleAll({
      list: () =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          return { ok: true as const, keys: yield* keys.list(principal.workspaceId) }
        }),
      create: ({ payload }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const created = yield* keys.create({
            workspaceId: principal.workspaceId,
            name: payload.name,
            role: payload.role,
            by: roleOf(principal),
            actor: actorOf(principal)
          })
          return { ok: true as const, key: created.key, value: created.value }
        }),
      revoke: ({ params }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          return { ok: true as const, key: yield* keys.revoke(principal.workspaceId, params.id, actorOf(principal)) }
        })
    })
  ))
}))
