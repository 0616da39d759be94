/**
 * `GET /v1/accounts/{id}/forecast`.
 */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { CurrentPrincipal } from "../domain/Principal.ts"
import { Forecasts } from "../jobs/Forecasts.ts"
import * as HandlerGroup from "./HandlerGroup.ts"
import { spoken } from "./ServiceErrors.ts"

export const ForecastHandlers = Layer.unwrap(Effect.gen(function*() {
  const forecasts = spoken(yield* Forecasts)
  return HandlerGroup.onMiddlewares(HttpApiBuilder.group(Api, "forecast", (handlers) =>
    handlers.handle("forecast", ({ params, query }) =>
      Effect.gen(function*() {
        const { workspaceId } = yield* CurrentPrincipal
        return { ok: true as const, forecast: yield* forecasts.forecast(workspaceId, params.id, query) }
      }))
  ))
}))
