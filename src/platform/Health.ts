/**
 * Whether the service's database answers, as `GET /healthz` reports it to load balancers: the
 * database is probed with `SELECT 1`, given two seconds of real time whatever the service's clock
 * (a sandbox's test clock stands still, and a probe bound by it would never time out). The
 * in-memory fake (`HealthMemory.ts`) is a switch a test turns.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import * as Time from "../domain/Time.ts"

/** How long the probe waits for the database, in real time. */
export const PROBE_TIMEOUT = "2 seconds"

export class Health extends Context.Service<Health, {
  /** True when the database answered the probe in time; false (the cause logged as a warning) otherwise. */
  readonly databaseUp: Effect.Effect<boolean>
}>()("outreach/Health") {
  static readonly layer = Layer.effect(
    Health,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return Health.of({
        databaseUp: sql`SELECT 1 AS up`.pipe(
          Effect.timeout(PROBE_TIMEOUT),
          Time.onRealTime,
          Effect.as(true),
          Effect.catchCause((cause) => Effect.as(Effect.logWarning("health check: database unreachable", cause), false))
        )
      })
    })
  )
}
