/**
 * The stored `People` (the whole core on a database, the sandbox's network), held to the people's
 * spec (`PeopleContract.ts`): accounts connected, and messages and invitations recorded as syncing records them.
 */
import { Effect } from "effect"
import { Accounts } from "../../src/accounts/Accounts.ts"
import { Invitations } from "../../src/accounts/Invitations.ts"
import { Messages } from "../../src/people/Messages.ts"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import { storedCore } from "../support/StoredCore.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { peopleExpectations } from "./PeopleContract.ts"

peopleExpectations({
  name: `stored, ${TestDatabase.backend}`,
  services: storedCore({ clock: "test" }),
  withFixture: (test) =>
    Effect.gen(function*() {
      const workspaces = yield* Workspaces
      const accounts = yield* Accounts
      const messages = yield* Messages
      const invitations = yield* Invitations
      const { workspace } = yield* workspaces.create({ name: "People" })
      const other = yield* workspaces.create({ name: "Elsewhere" })
      return yield* test({
        workspaceId: workspace.id,
        otherWorkspaceId: other.workspace.id,
        account: (workspaceId, label) =>
          Effect.orDie(Effect.map(accounts.connect({ workspaceId, baseUrl: "http://127.0.0.1", label }), ({ account }) => account.id)),
        received: (accountId, message, triaged) => Effect.orDie(messages.recordReceived(accountId, message, triaged)),
        synced: (accountId, invitation) => Effect.orDie(Effect.asVoid(invitations.recordSynced(accountId, invitation)))
      })
    }).pipe(Effect.orDie)
})
