/**
 * The stored `Forecasts` (the whole core on a database, on the service's test clock so that an
 * account's warm-up can pass), held to the forecast's spec (`ForecastsContract.ts`). An account is
 * connected and completed as the sandbox completes one, its warm-up passed by three weeks on the
 * clock (whole weeks: the spec's working hours depend on the weekday), then set as the spec asks.
 */
import { Effect, Layer } from "effect"
import * as App from "../../src/App.ts"
import { Accounts } from "../../src/accounts/Accounts.ts"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import * as ServiceClock from "../../src/platform/ServiceClock.ts"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { forecastsExpectations } from "./ForecastsContract.ts"

const THREE_WEEKS_MS = 21 * 86_400_000

forecastsExpectations({
  name: `stored, ${TestDatabase.backend}`,
  services: App.core.pipe(
    Layer.provideMerge(ServiceClock.layer),
    Layer.provideMerge(TestDatabase.layer),
    Layer.provideMerge(AppConfig.layerWith({ inboxSync: false, clock: "test" }))
  ),
  withFixture: (test) =>
    Effect.gen(function*() {
      const workspaces = yield* Workspaces
      const accounts = yield* Accounts
      const clock = yield* ServiceClock.ServiceClock
      const { workspace } = yield* workspaces.create({ name: "Forecast" })
      const other = yield* workspaces.create({ name: "Elsewhere" })
      return yield* test({
        workspaceId: workspace.id,
        otherWorkspaceId: other.workspace.id,
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
