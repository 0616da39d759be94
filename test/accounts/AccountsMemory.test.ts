/** The in-memory `Accounts`, held to the accounts' spec (`AccountsContract.ts`). */
import { Effect, Layer } from "effect"
import * as AccountsMemory from "../../src/accounts/AccountsMemory.ts"
import { twoWorkspaceIds } from "../support/Backends.ts"
import { accountsExpectations } from "./AccountsContract.ts"

accountsExpectations({
  name: "in memory",
  services: Layer.empty,
  withFixture: (test) => test(twoWorkspaceIds()).pipe(Effect.provide(AccountsMemory.layer))
})
