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
import { forecastsExpectations, seededAccount } from "./ForecastsContract.ts"

forecastsExpectations({
  name: `stored, ${TestDatabase.backend}`,
  services: storedCore({ clock: "test" }),
  withFixture: (test) =>
    Effect.gen(function*() {
      const accounts = yield* Accounts
      const clock = yield* ServiceClock.ServiceClock
      return yield* test({
        ...yield* twoStoredWorkspaces("Forecast"),
        account: (seed) => seededAccount(accounts, seed, clock.advance)
      })
    }).pipe(Effect.orDie)
})
