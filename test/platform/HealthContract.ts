/**
 * What `Health` promises `GET /healthz`, run against the stored probe (`Health.test.ts`, on a
 * database) and against the in-memory switch the fast route test uses (`HealthMemory.test.ts`):
 * the same expectations, so the fake cannot drift from the probe it stands in for. Each test runs
 * on a test clock that does not move: a database that does not answer is reported down all the
 * same (the stored probe's two seconds count in real time).
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Health } from "../../src/platform/Health.ts"
import type { Backend } from "../support/Backends.ts"

/** How to keep the backend's database from answering while `effect` runs; undefined where a test cannot. */
export interface HealthFixture {
  readonly whileDown: (<A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>) | undefined
}

export const healthExpectations = <R>(backend: Backend<R, Health, HealthFixture>, canGoDown: boolean) =>
  layer(backend.services)(`Health (${backend.name})`, (it) => {
    it.effect("the database is up while it answers, again and again", () =>
      backend.withFixture(() =>
        Effect.gen(function*() {
          const health = yield* Health
          assert.deepStrictEqual(yield* Effect.all([health.databaseUp, health.databaseUp, health.databaseUp]), [true, true, true])
        })))

    it.effect.skipIf(!canGoDown)("the database is down while it does not answer, and up again once it does", () =>
      backend.withFixture((fixture) =>
        Effect.gen(function*() {
          const health = yield* Health
          assert.isDefined(fixture.whileDown)
          const whileDown = fixture.whileDown ?? ((effect) => effect)
          assert.isFalse(yield* whileDown(health.databaseUp))
          assert.isTrue(yield* health.databaseUp)
        })), 20_000)
  })
