/**
 * The server's routing of each workspace to its network's driver (`network/PerWorkspace.ts`), for
 * the fast tests of the `/v1/sandbox/...` routes: the caller's own workspace ({@link AnyCaller}'s)
 * is a sandbox one, {@link liveWorkspaceId} is live (the server's own live driver without provider
 * settings). The sandbox is the real one on memory ({@link simulatedNetworks}) or, for routes that
 * read only which network a workspace is on, a stand-in ({@link networks}).
 */
import { Effect, Layer } from "effect"
import { NetworkDriver } from "../../src/network/NetworkDriver.ts"
import * as PerWorkspace from "../../src/network/PerWorkspace.ts"
import * as SandboxDriver from "../../src/sandbox/SandboxDriver.ts"
import * as StateMemory from "../../src/sandbox/StateMemory.ts"
import { callerKeyId, callerIs } from "./AnyCaller.ts"

/** A workspace on the live network. */
export const liveWorkspaceId = "6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d"

/** Every request is an owner key's of {@link liveWorkspaceId}. */
export const LiveCaller = callerIs({ kind: "key", workspaceId: liveWorkspaceId, keyId: callerKeyId, keyName: "live", role: "owner" })

/** The networks over `sandbox`: every workspace on it but {@link liveWorkspaceId}. */
export const networksOver = (sandbox: NetworkDriver["Service"]) =>
  PerWorkspace.make({
    sandbox,
    live: "no provider settings in this test",
    defaultNetwork: "sandbox",
    networkOfWorkspace: (workspaceId) => Effect.succeed(workspaceId === liveWorkspaceId ? "live" : "sandbox"),
    workspaceOfAccount: () => Effect.succeed(undefined)
  })

/** The networks over a stand-in for the sandbox that refuses every call under the sandbox's name. */
export const networks = Layer.effect(
  NetworkDriver,
  networksOver({ ...PerWorkspace.unreachable("a stand-in for the sandbox network"), name: "sandbox" })
)

/** The networks over the sandbox network itself, on a fresh in-memory state (`src/sandbox/StateMemory.ts`). */
export const simulatedNetworks = Layer.effect(NetworkDriver, Effect.flatMap(StateMemory.make, (state) => networksOver(SandboxDriver.on(state))))
