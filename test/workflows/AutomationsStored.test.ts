/**
 * The stored `Automations` (the whole core on a database, the stored workflows on the durable
 * engine, the sandbox's network and test clock), held to the automations' spec (`AutomationsContract.ts`).
 */
import { storedCore } from "../support/StoredCore.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { automationsExpectations } from "./AutomationsContract.ts"
import { withStoredAccounts } from "./WorkflowsStored.ts"

automationsExpectations({
  name: `stored, ${TestDatabase.backend}`,
  services: storedCore({ clock: "test" }),
  withFixture: withStoredAccounts("Automations")
})
