/**
 * The stored side of the workflows' and automations' specs: two new workspaces in the core on a
 * database, and accounts connected in them as the API connects them (in the default `approve` mode).
 */
import { Effect } from "effect"
import { Accounts } from "../../src/accounts/Accounts.ts"
import { twoStoredWorkspaces } from "../support/StoredCore.ts"
import type { WorkflowsFixture } from "./WorkflowsContract.ts"

export const withStoredAccounts = (name: string) => <A, E, R>(test: (fixture: WorkflowsFixture) => Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const accounts = yield* Accounts
    const workspaces = yield* twoStoredWorkspaces(name)
    return yield* test({
      ...workspaces,
      account: (workspaceId) =>
        Effect.orDie(Effect.map(accounts.connect({ workspaceId, baseUrl: "http://127.0.0.1", label: "Ada" }), ({ account }) => account.id))
    })
  }).pipe(Effect.orDie)
