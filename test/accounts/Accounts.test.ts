/** The stored `Accounts` on a database, signing in through the sandbox's driver, held to the accounts' spec (`AccountsContract.ts`). */
import { Effect, Layer } from "effect"
import { Accounts } from "../../src/accounts/Accounts.ts"
import * as SandboxDriver from "../../src/sandbox/SandboxDriver.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { accountsExpectations } from "./AccountsContract.ts"

accountsExpectations({
  name: `stored, ${TestDatabase.backend}`,
  services: Accounts.layer.pipe(Layer.provide(SandboxDriver.layer), Layer.provideMerge(TestDatabase.layer)),
  withFixture: (test) => Effect.flatMap(TestDatabase.twoWorkspaces, test)
})
