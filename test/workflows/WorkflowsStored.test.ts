/**
 * The stored `Workflows` (the whole core on a database, the durable engine, the sandbox's network,
 * the sandbox's test clock so that a workflow's first wait does not pass), held to the workflows'
 * spec (`WorkflowsContract.ts`): accounts connected as the API connects them.
 */
import { storedCore } from "../support/StoredCore.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { workflowsExpectations } from "./WorkflowsContract.ts"
import { withStoredAccounts } from "./WorkflowsStored.ts"

workflowsExpectations({
  name: `stored, ${TestDatabase.backend}`,
  services: storedCore({ clock: "test" }),
  withFixture: withStoredAccounts("Workflows")
})
