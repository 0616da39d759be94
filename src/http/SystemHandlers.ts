/**
 * `GET /healthz`.
 *
 * @since 1.0.0
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { Api } from "../api/Api.ts"
import { Unavailable } from "../api/Errors.ts"

export const SystemHandlers = HttpApiBuilder.group(
  Api,
  "system",
  Effect.fn(function*(handlers) {
    const sql = yield* SqlClient.SqlClient
    return handlers.handle("health", () =>
      sql`SELECT 1 AS up`.pipe(
        Effect.timeout("2 seconds"),
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
  })
)
