/**
 * `GET /healthz`.
 */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { Unavailable } from "../api/Errors.ts"
import { Health } from "../platform/Health.ts"
import * as HandlerGroup from "./HandlerGroup.ts"

/** The system routes on the `Health` they are given (the in-memory one in the fast route test). */
export const SystemHandlersNoDeps = Layer.unwrap(Effect.gen(function*() {
  const health = yield* Health
  return HandlerGroup.onMiddlewares(HttpApiBuilder.group(Api, "system", (handlers) =>
    handlers.handle("health", () =>
      Effect.flatMap(health.databaseUp, (up) =>
        up
          ? Effect.succeed({ ok: true as const, status: "up" as const, database: "up" as const })
          : Effect.fail(new Unavailable({ error: { message: "The database does not answer.", next: "Retry in a few seconds." } }))))
  ))
}))

/** The system routes on the stored `Health`, which probes the service's database (`SqlClient`). */
export const SystemHandlers = SystemHandlersNoDeps.pipe(Layer.provide(Health.layer))
