/**
 * The in-memory `Reports` (on the in-memory accounts, signing in as the sandbox's do, the in-memory
 * inbox, messages, jobs and forecast: `InMemory.ts`), held to the reports' spec (`ReportsContract.ts`).
 */
import { Effect } from "effect"
import { Accounts } from "../../src/accounts/Accounts.ts"
import * as InboxMemory from "../../src/inbox/InboxMemory.ts"
import { twoWorkspaceIds } from "../support/Backends.ts"
import { reportsInMemory } from "./InMemory.ts"
import { connectedAccount, reportsExpectations } from "./ReportsContract.ts"

reportsExpectations({
  name: "in memory",
  services: reportsInMemory,
  withFixture: (test) =>
    Effect.gen(function*() {
      const seeds = yield* InboxMemory.InboxSeeds
      const accounts = yield* Accounts
      return yield* test({
        ...twoWorkspaceIds(),
        account: (workspaceId) => Effect.provideService(connectedAccount(workspaceId), Accounts, accounts),
        synced: seeds.synced,
        sent: seeds.sent
      })
    })
})
