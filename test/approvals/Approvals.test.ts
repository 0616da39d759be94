/**
 * The stored `Approvals` (the whole core on a database, on the service's test clock so that 72
 * hours can pass), held to the approvals' spec (`ApprovalsContract.ts`).
 */
import { Effect } from "effect"
import { Accounts } from "../../src/accounts/Accounts.ts"
import * as ServiceClock from "../../src/platform/ServiceClock.ts"
import { storedCore, twoStoredWorkspaces } from "../support/StoredCore.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { approvalsExpectations } from "./ApprovalsContract.ts"

approvalsExpectations({
  name: `stored, ${TestDatabase.backend}`,
  services: storedCore({ clock: "test" }),
  withFixture: (test) =>
    Effect.gen(function*() {
      const clock = yield* ServiceClock.ServiceClock
      const { workspaceId, otherWorkspaceId } = yield* twoStoredWorkspaces("Approvals")
      const { account } = yield* (yield* Accounts).connect({ workspaceId, baseUrl: "http://127.0.0.1" })
      return yield* test({
        workspaceId,
        accountId: account.id,
        otherWorkspaceId,
        advance: (ms) => Effect.asVoid(Effect.orDie(clock.advance(ms)))
      })
    }).pipe(Effect.orDie)
})
