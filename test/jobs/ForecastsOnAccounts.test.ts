/**
 * The in-memory `Forecasts` of the in-memory accounts (`ForecastsMemory.onAccounts`, as the in-memory
 * Daily brief reads it), on the in-memory jobs created in those accounts' modes
 * (`JobsMemory.layerOnAccounts`), held to the forecast's spec (`ForecastsContract.ts`). An account is
 * connected and completed as the sandbox completes one, its warm-up passed by three weeks of the
 * test clock, then set as the spec asks, as the stored side does (`Forecasts.test.ts`).
 */
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { Accounts } from "../../src/accounts/Accounts.ts"
import * as AccountsMemory from "../../src/accounts/AccountsMemory.ts"
import * as ApprovalsMemory from "../../src/approvals/ApprovalsMemory.ts"
import * as ForecastsMemory from "../../src/jobs/ForecastsMemory.ts"
import * as JobsMemory from "../../src/jobs/JobsMemory.ts"
import { Notices } from "../../src/platform/Notices.ts"
import { sandboxSignIn } from "../../src/sandbox/SandboxDriver.ts"
import { defaultSeats } from "../../src/workspaces/Workspaces.ts"
import { twoWorkspaceIds } from "../support/Backends.ts"
import { forecastsExpectations, seededAccount } from "./ForecastsContract.ts"

forecastsExpectations({
  name: "in memory, of the in-memory accounts",
  services: ForecastsMemory.onAccounts.pipe(
    Layer.provideMerge(JobsMemory.layerOnAccounts),
    Layer.provideMerge(AccountsMemory.layer({ network: sandboxSignIn, seats: defaultSeats })),
    Layer.provide(Layer.mergeAll(ApprovalsMemory.tableLayer, Notices.layer))
  ),
  withFixture: (test) =>
    Effect.gen(function*() {
      const accounts = yield* Accounts
      return yield* test({
        ...twoWorkspaceIds(),
        account: (seed) => seededAccount(accounts, seed, (ms) => TestClock.adjust(ms))
      })
    })
})
