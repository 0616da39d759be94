/** The in-memory `Accounts` (signing in as the sandbox's, with a new workspace's seats), held to the accounts' spec (`AccountsContract.ts`). */
import { Effect, Layer } from "effect"
import * as AccountsMemory from "../../src/accounts/AccountsMemory.ts"
import { sandboxSignIn } from "../../src/sandbox/SandboxDriver.ts"
import { defaultSeats } from "../../src/workspaces/Workspaces.ts"
import { twoWorkspaceIds } from "../support/Backends.ts"
import { accountsExpectations } from "./AccountsContract.ts"

accountsExpectations({
  name: "in memory",
  services: Layer.empty,
  withFixture: (test) => test(twoWorkspaceIds()).pipe(Effect.provide(AccountsMemory.layer({ network: sandboxSignIn, seats: defaultSeats })))
})
