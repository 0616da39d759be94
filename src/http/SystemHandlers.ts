/**
 * `GET /healthz`.
 */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { Api } from "../api/Api.ts"
import { Unavailable } from "../api/Errors.ts"
import * as Time from "../domain/Time.ts"
import * as HandlerGroup from "./HandlerGroup.ts"

export const SystemHandlers = Layer.unwrap(Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return HandlerGroup.onMiddlewares(HttpApiBuilder.group(Api, "system", (handlers) =>
    handlers.handle("health", () =>
      sql`SELECT 1 AS up`.pipe(
        // Two seconds of real time, whatever the service's clock (a sandbox's test clock stands still).
        Effect.timeout("2 seconds"),
        Time.onRealTime,
        Effect.as({ ok: true as const, status: "up" as const, database: "up" as const }),
        Effect.catchCause((cause) =>
          Effect.logWarning("health check: database unreachable", cause).pipe(
            Effect.andThen(Effect.fail(
              new Unavailable({
                error: { message: "The database does not answer.", next: "Retry in a few seconds." }
              })
            ))
          )
        )
      ))
  ))
}))
