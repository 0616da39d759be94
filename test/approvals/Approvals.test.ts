/**
 * The stored `Approvals` (the whole core on a database, on the service's test clock so that 72
 * hours can pass), held to the approvals' spec (`ApprovalsContract.ts`).
 */
import { Effect } from "effect"
import { Accounts } from "../../src/accounts/Accounts.ts"
import * as ServiceClock from "../../src/platform/ServiceClock.ts"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import { storedCore } from "../support/StoredCore.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { approvalsExpectations } from "./ApprovalsContract.ts"

approvalsExpectations({
  name: `stored, ${TestDatabase.backend}`,
  services: storedCore({ clock: "test" }),
  withFixture: (test) =>
    Effect.gen(function*() {
      const workspaces = yield* Workspaces
      const clock = yield* ServiceClock.ServiceClock
      const { workspace } = yield* workspaces.create({ name: "Approvals" })
      const other = yield* workspaces.create({ name: "Elsewhere" })
      const { account } = yield* (yield* Accounts).connect({ workspaceId: workspace.id, baseUrl: "http://127.0.0.1" })
      return yield* test({
        workspaceId: workspace.id,
        accountId: account.id,
        otherWorkspaceId: other.workspace.id,
        advance: (ms) => Effect.asVoid(Effect.orDie(clock.advance(ms)))
      })
    }).pipe(Effect.orDie)
})
