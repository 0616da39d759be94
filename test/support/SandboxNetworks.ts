/**
 * The server's routing of each workspace to its network's driver (`network/PerWorkspace.ts`), for
 * the fast tests of the `/v1/sandbox/...` routes: the caller's own workspace ({@link AnyCaller}'s)
 * is a sandbox one, {@link liveWorkspaceId} is live. Those routes' in-memory tests read only which
 * network a workspace is on (the driver's name), so the sandbox's stand-in is a driver that refuses
 * every call under the sandbox's name; the live one is the server's own without provider settings.
 */
import { Effect, Layer } from "effect"
import { NetworkDriver } from "../../src/network/NetworkDriver.ts"
import * as PerWorkspace from "../../src/network/PerWorkspace.ts"
import { callerKeyId, callerIs } from "./AnyCaller.ts"

/** A workspace on the live network. */
export const liveWorkspaceId = "6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d"

/** Every request is an owner key's of {@link liveWorkspaceId}. */
export const LiveCaller = callerIs({ kind: "key", workspaceId: liveWorkspaceId, keyId: callerKeyId, keyName: "live", role: "owner" })

/** The networks: every workspace on the sandbox but {@link liveWorkspaceId}. */
export const networks = Layer.effect(
  NetworkDriver,
  PerWorkspace.make({
    sandbox: { ...PerWorkspace.unreachable("a stand-in for the sandbox network"), name: "sandbox" },
    live: "no provider settings in this test",
    defaultNetwork: "sandbox",
    networkOfWorkspace: (workspaceId) => Effect.succeed(workspaceId === liveWorkspaceId ? "live" : "sandbox"),
    workspaceOfAccount: () => Effect.succeed(undefined)
  })
)
