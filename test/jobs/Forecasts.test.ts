/**
 * The stored `Forecasts` (the whole core on a database, on the service's test clock so that an
 * account's warm-up can pass), held to the forecast's spec (`ForecastsContract.ts`). An account is
 * connected and completed as the sandbox completes one, its warm-up passed by three weeks on the
 * clock (whole weeks: the spec's working hours depend on the weekday), then set as the spec asks.
 */
import { Effect } from "effect"
import { Accounts } from "../../src/accounts/Accounts.ts"
import * as ServiceClock from "../../src/platform/ServiceClock.ts"
import { storedCore, twoStoredWorkspaces } from "../support/StoredCore.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { forecastsExpectations } from "./ForecastsContract.ts"

const THREE_WEEKS_MS = 21 * 86_400_000

forecastsExpectations({
  name: `stored, ${TestDatabase.backend}`,
  services: storedCore({ clock: "test" }),
  withFixture: (test) =>
    Effect.gen(function*() {
      const accounts = yield* Accounts
      const clock = yield* ServiceClock.ServiceClock
      return yield* test({
        ...yield* twoStoredWorkspaces("Forecast"),
        account: (seed) =>
          Effect.gen(function*() {
            const { account } = yield* accounts.connect({ workspaceId: seed.workspaceId, baseUrl: "http://127.0.0.1" })
            const tier = seed.tier ?? "premium"
            yield* accounts.completeConnection(seed.workspaceId, account.id, { tier, connections: 900 })
            yield* clock.advance(THREE_WEEKS_MS)
            yield* accounts.update(seed.workspaceId, account.id, {
              workingHours: seed.workingHours,
              offHoursPolicy: seed.offHoursPolicy,
              mode: seed.mode
            })
            if (seed.overrides !== undefined && seed.overrides.length > 0) {
              yield* accounts.setLimits(seed.workspaceId, account.id, seed.overrides)
            }
            return account.id
          }).pipe(Effect.orDie)
      })
    }).pipe(Effect.orDie)
})
