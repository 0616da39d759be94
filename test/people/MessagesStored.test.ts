/**
 * The stored `Messages` (the whole core on a database), held to the messages' spec
 * (`MessagesContract.ts`): accounts connected, names recorded as a `connect` job's ending records them.
 */
import { Effect } from "effect"
import { Accounts } from "../../src/accounts/Accounts.ts"
import { Invitations } from "../../src/accounts/Invitations.ts"
import { storedCore, twoStoredWorkspaces } from "../support/StoredCore.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { messagesExpectations, sentBy } from "./MessagesContract.ts"

messagesExpectations({
  name: `stored, ${TestDatabase.backend}`,
  services: storedCore(),
  withFixture: (test) =>
    Effect.gen(function*() {
      const accounts = yield* Accounts
      const invitations = yield* Invitations
      const { workspaceId } = yield* twoStoredWorkspaces("Messages")
      return yield* test({
        account: () => Effect.orDie(Effect.map(accounts.connect({ workspaceId, baseUrl: "http://127.0.0.1" }), ({ account }) => account.id)),
        named: (accountId, providerId, name, sentAt) => Effect.orDie(invitations.recordSent(accountId, sentBy(providerId, name, sentAt)))
      })
    }).pipe(Effect.orDie)
})
