/**
 * The stored `Inbox` (the whole core on a database), held to the inbox's spec (`InboxContract.ts`):
 * accounts connected, and invitations recorded as syncing records them.
 */
import { Effect } from "effect"
import { Accounts } from "../../src/accounts/Accounts.ts"
import { Invitations } from "../../src/accounts/Invitations.ts"
import { storedCore, twoStoredWorkspaces } from "../support/StoredCore.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { inboxExpectations } from "./InboxContract.ts"

inboxExpectations({
  name: `stored, ${TestDatabase.backend}`,
  services: storedCore(),
  withFixture: (test) =>
    Effect.gen(function*() {
      const accounts = yield* Accounts
      const invitations = yield* Invitations
      return yield* test({
        ...yield* twoStoredWorkspaces("Inbox"),
        account: (workspaceId) =>
          Effect.orDie(Effect.map(accounts.connect({ workspaceId, baseUrl: "http://127.0.0.1" }), ({ account }) => account.id)),
        synced: (accountId, invitation) => Effect.orDie(Effect.asVoid(invitations.recordSynced(accountId, invitation)))
      })
    }).pipe(Effect.orDie)
})
