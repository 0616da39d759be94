/**
 * A network driver for fakes that only reads the sandbox's addresses (`identify`: who a profile
 * address, in any form, names), as a `profile` filter does; every other call is refused. For the
 * in-memory services, which keep no network state.
 */
import { Layer } from "effect"
import { NetworkDriver } from "../../src/network/NetworkDriver.ts"
import * as PerWorkspace from "../../src/network/PerWorkspace.ts"
import { identify } from "../../src/sandbox/SandboxDriver.ts"

export const SandboxAddresses = Layer.succeed(NetworkDriver, {
  ...PerWorkspace.unreachable("a stand-in that only reads the sandbox's addresses"),
  name: "sandbox",
  identify
})
