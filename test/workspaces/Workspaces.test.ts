/** The stored `Workspaces` (with its keys) on a database, held to the workspaces' spec (`WorkspacesContract.ts`). */
import { Layer } from "effect"
import { Credentials } from "../../src/auth/Credentials.ts"
import { WorkspaceTable } from "../../src/accounts/WorkspaceTable.ts"
import { ApiKeys } from "../../src/keys/ApiKeys.ts"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import { Sessions } from "../../src/team/Sessions.ts"
import { Users } from "../../src/team/Users.ts"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { workspacesExpectations } from "./WorkspacesContract.ts"

workspacesExpectations({
  name: `stored, ${TestDatabase.backend}`,
  services: Workspaces.layerNoDeps.pipe(
    Layer.provideMerge(ApiKeys.layer),
    Layer.provide([Credentials.layer, Sessions.layer, Users.layer, WorkspaceTable.layer]),
    Layer.provide(AppConfig.layerWith({})),
    Layer.provideMerge(TestDatabase.layer)
  ),
  withFixture: (test) => test()
})
