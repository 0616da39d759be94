/**
 * The stored `Workflows` (the whole core on a database, the durable engine, the sandbox's network,
 * the sandbox's test clock so that a workflow's first wait does not pass), held to the workflows'
 * spec (`WorkflowsContract.ts`): accounts connected as the API connects them.
 */
import { Effect } from "effect"
import { Accounts } from "../../src/accounts/Accounts.ts"
import { storedCore, twoStoredWorkspaces } from "../support/StoredCore.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { workflowsExpectations } from "./WorkflowsContract.ts"

workflowsExpectations({
  name: `stored, ${TestDatabase.backend}`,
  services: storedCore({ clock: "test" }),
  withFixture: (test) =>
    Effect.gen(function*() {
      const accounts = yield* Accounts
      const workspaces = yield* twoStoredWorkspaces("Workflows")
      return yield* test({
        ...workspaces,
        account: (workspaceId) =>
          Effect.orDie(Effect.map(accounts.connect({ workspaceId, baseUrl: "http://127.0.0.1", label: "Ada" }), ({ account }) => account.id))
      })
    }).pipe(Effect.orDie)
})
