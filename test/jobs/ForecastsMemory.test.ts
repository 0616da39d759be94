/**
 * The in-memory `Forecasts` (`jobs/ForecastsMemory.ts`, on the in-memory jobs) held to the
 * forecast's spec (`ForecastsContract.ts`), on the test clock.
 */
import { Effect, Layer } from "effect"
import * as ApprovalsMemory from "../../src/approvals/ApprovalsMemory.ts"
import * as ForecastsMemory from "../../src/jobs/ForecastsMemory.ts"
import { Notices } from "../../src/platform/Notices.ts"
import { twoWorkspaceIds } from "../support/Backends.ts"
import { forecastsExpectations } from "./ForecastsContract.ts"

forecastsExpectations({
  name: "in memory",
  services: ForecastsMemory.withJobs.pipe(Layer.provide(ApprovalsMemory.tableLayer), Layer.provide(Notices.layer)),
  withFixture: (test) =>
    Effect.gen(function*() {
      const accounts = yield* ForecastsMemory.ForecastAccountsMemory
      return yield* test({
        ...twoWorkspaceIds(),
        account: (seed) => {
          const accountId = crypto.randomUUID()
          return Effect.as(accounts.add({ ...seed, accountId }), accountId)
        }
      })
    })
})
