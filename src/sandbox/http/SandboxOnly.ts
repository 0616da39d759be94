/**
 * The one rule for every `/v1/sandbox/...` endpoint, the clock among them:
 * they answer only for a workspace whose network is the sandbox (a live
 * workspace's key gets 404, saying why). The sandbox's clock is one for the
 * whole service, so any sandbox workspace may move it; that is acceptable in
 * a sandbox and nowhere else (a server on the test clock serves no live workspace).
 */
import { Effect } from "effect"
import { NotFound } from "../../api/Errors.ts"
import { driverOf, type NetworkDriver } from "../../network/NetworkDriver.ts"

const notSandbox = (driver: string) =>
  new NotFound({
    error: {
      message: `The sandbox endpoints answer only for sandbox workspaces; this workspace's network is live (the ${driver} driver).`,
      next: "Use the key of a sandbox workspace (`npm run cli -- workspace create --name <name> --network sandbox`)."
    }
  })

/** Succeeds when the workspace's network is the sandbox, else fails with 404 `notFound`. */
export const sandboxOnly = (network: NetworkDriver["Service"], workspaceId: string): Effect.Effect<void, NotFound> =>
  Effect.flatMap(driverOf(network, workspaceId), (driver) => driver.name === "sandbox" ? Effect.void : Effect.fail(notSandbox(driver.name)))
