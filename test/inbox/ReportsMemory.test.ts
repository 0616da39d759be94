/**
 * The in-memory `Reports` (on the in-memory accounts, signing in as the sandbox's do, and the
 * in-memory inbox), held to the reports' spec (`ReportsContract.ts`).
 */
import { Effect, Layer } from "effect"
import { Accounts } from "../../src/accounts/Accounts.ts"
import * as AccountsMemory from "../../src/accounts/AccountsMemory.ts"
import * as InboxMemory from "../../src/inbox/InboxMemory.ts"
import * as ReportsMemory from "../../src/inbox/ReportsMemory.ts"
import { sandboxSignIn } from "../../src/sandbox/SandboxDriver.ts"
import { defaultSeats } from "../../src/workspaces/Workspaces.ts"
import { twoWorkspaceIds } from "../support/Backends.ts"
import { SandboxAddresses } from "../support/SandboxAddresses.ts"
import { premiumSeat, reportsExpectations } from "./ReportsContract.ts"

/** The in-memory reports with the fakes they read. */
const reportsInMemory = ReportsMemory.layer.pipe(
  Layer.provideMerge(Layer.mergeAll(AccountsMemory.layer({ network: sandboxSignIn, seats: defaultSeats }), InboxMemory.layer, SandboxAddresses))
)

reportsExpectations({
  name: "in memory",
  services: Layer.empty,
  withFixture: (test) =>
    Effect.gen(function*() {
      const accounts = yield* Accounts
      const seeds = yield* InboxMemory.InboxSeeds
      return yield* test({
        ...twoWorkspaceIds(),
        account: (workspaceId) =>
          Effect.gen(function*() {
            const { account } = yield* accounts.connect({ workspaceId, baseUrl: "http://127.0.0.1" })
            return (yield* accounts.completeConnection(workspaceId, account.id, premiumSeat)).id
          }).pipe(Effect.orDie),
        synced: seeds.synced
      })
    }).pipe(Effect.provide(reportsInMemory))
})
