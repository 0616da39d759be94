/**
 * The accounts endpoints.
 */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Accounts } from "../accounts/Accounts.ts"
import { Api } from "../api/Api.ts"
import { actorOf, CurrentPrincipal } from "../domain/Principal.ts"
import { AppConfig } from "../platform/AppConfig.ts"
import { baseUrlOf } from "./BaseUrl.ts"
import * as HandlerGroup from "./HandlerGroup.ts"
import { spoken } from "./ServiceErrors.ts"
import * as SeatActivity from "./SeatActivity.ts"

const ok = true as const

export const AccountsHandlers = Layer.unwrap(Effect.gen(function*() {
  const accounts = spoken(yield* Accounts)
  const config = yield* AppConfig
  const seats = spoken(yield* SeatActivity.make)
  const workspace = Effect.gen(function*() {
    return (yield* CurrentPrincipal).workspaceId
  })
  const actor = Effect.map(CurrentPrincipal, actorOf)
  return HandlerGroup.onMiddlewares(HttpApiBuilder.group(Api, "accounts", (handlers) =>
    handlers.handleAll({
      list: () =>
        Effect.gen(function*() {
          const { accounts: all, seats } = yield* accounts.list(yield* workspace)
          return { ok, accounts: all, seats }
        }),
      connect: ({ payload, request }) =>
        Effect.gen(function*() {
          const connected = yield* seats.connect({
            workspaceId: yield* workspace,
            baseUrl: baseUrlOf(request, config),
            label: payload.label,
            timezone: payload.timezone,
            workingHours: payload.workingHours
          }, yield* actor)
          return { ok, ...connected }
        }),
      get: ({ params }) =>
        Effect.gen(function*() {
          return { ok, account: yield* accounts.get(yield* workspace, params.id) }
        }),
      update: ({ params, payload }) =>
        Effect.gen(function*() {
          return { ok, account: yield* seats.update(yield* workspace, params.id, payload, yield* actor) }
        }),
      remove: ({ params }) =>
        Effect.gen(function*() {
          yield* seats.remove(yield* workspace, params.id, yield* actor)
          return { ok }
        }),
      pause: ({ params }) =>
        Effect.gen(function*() {
          yield* seats.pause(yield* workspace, params.id, yield* actor)
          return { ok }
        }),
      resume: ({ params }) =>
        Effect.gen(function*() {
          return { ok, account: yield* seats.resume(yield* workspace, params.id, yield* actor) }
        }),
      reconnect: ({ params, request }) =>
        Effect.gen(function*() {
          return {
            ok,
            reconnectUrl: yield* accounts.reconnect(yield* workspace, params.id, baseUrlOf(request, config))
          }
        }),
      nativeAuth: ({ params, payload }) =>
        Effect.gen(function*() {
          return { ok, ...(yield* accounts.nativeAuth(yield* workspace, params.id, payload)) }
        }),
      nativeCheckpoint: ({ params, payload }) =>
        Effect.gen(function*() {
          return { ok, ...(yield* accounts.nativeCheckpoint(yield* workspace, params.id, payload.code)) }
        }),
      limits: ({ params }) =>
        Effect.gen(function*() {
          return { ok, ...(yield* accounts.limits(yield* workspace, params.id)) }
        }),
      setLimits: ({ params, payload }) =>
        Effect.gen(function*() {
          return { ok, account: yield* seats.setLimits(yield* workspace, params.id, payload.limits, yield* actor) }
        })
    })
  ))
}))
