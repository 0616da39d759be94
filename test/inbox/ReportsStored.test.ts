/**
 * The stored `Reports` (the whole core on a database, the sandbox's network), held to the reports'
 * spec (`ReportsContract.ts`): accounts connected, invitations recorded as syncing and a `connect` job's
 * ending record them.
 */
import { Effect } from "effect"
import { Accounts } from "../../src/accounts/Accounts.ts"
import { Invitations } from "../../src/accounts/Invitations.ts"
import { storedCore, twoStoredWorkspaces } from "../support/StoredCore.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { connectedAccount, reportsExpectations } from "./ReportsContract.ts"

reportsExpectations({
  name: `stored, ${TestDatabase.backend}`,
  services: storedCore(),
  withFixture: (test) =>
    Effect.gen(function*() {
      const accounts = yield* Accounts
      const invitations = yield* Invitations
      return yield* test({
        ...yield* twoStoredWorkspaces("Reports"),
        account: (workspaceId) => Effect.provideService(connectedAccount(workspaceId), Accounts, accounts),
        synced: (accountId, invitation) => Effect.orDie(Effect.asVoid(invitations.recordSynced(accountId, invitation))),
        sent: (accountId, sent) => Effect.orDie(invitations.recordSent(accountId, sent))
      })
    }).pipe(Effect.orDie)
})
