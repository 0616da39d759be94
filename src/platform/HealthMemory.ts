/**
 * `Health` in memory, for fast tests of `GET /healthz` without a database: the database is up
 * until a test turns the switch ({@link HealthSwitch}) down, and answers again once it is turned up.
 */
import { Context, Effect, Layer, Ref } from "effect"
import { Health } from "./Health.ts"

/** Turns the in-memory database up or down. */
export class HealthSwitch extends Context.Service<HealthSwitch, {
  readonly set: (up: boolean) => Effect.Effect<void>
}>()("outreach/HealthSwitch") {}

/** The in-memory `Health`, up at first, and its {@link HealthSwitch}. */
export const layer = Layer.effectContext(Effect.gen(function*() {
  const up = yield* Ref.make(true)
  return Context.make(Health, Health.of({ databaseUp: Ref.get(up) })).pipe(
    Context.add(HealthSwitch, HealthSwitch.of({ set: (value) => Ref.set(up, value) }))
  )
}))
