/** The stored `Jobs` (the whole core on a database), held to the jobs' spec (`JobsSpec.ts`). */
import { Effect } from "effect"
import { Accounts } from "../../src/accounts/Accounts.ts"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import { storedCore } from "../support/StoredCore.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { jobsExpectations } from "./JobsSpec.ts"

jobsExpectations({
  name: `stored, ${TestDatabase.backend}`,
  services: storedCore(),
  withFixture: (test) =>
    Effect.gen(function*() {
      const workspaces = yield* Workspaces
      const { workspace } = yield* workspaces.create({ name: "Jobs" })
      const other = yield* workspaces.create({ name: "Elsewhere" })
      const { account } = yield* (yield* Accounts).connect({ workspaceId: workspace.id, baseUrl: "http://127.0.0.1" })
      return yield* test({ workspaceId: workspace.id, accountId: account.id, otherWorkspaceId: other.workspace.id })
    }).pipe(Effect.orDie)
})
