/**
 * The one rule for every `/v1/sandbox/...` endpoint, the clock among them:
 * they exist only while the sandbox network driver is the one in use. The
 * sandbox's clock is one for the whole service, so any workspace may move it;
 * that is acceptable in a sandbox and nowhere else.
 *
 * @since 1.0.0
 */
import { Effect } from "effect"
import { NotFound } from "../../api/Errors.ts"
import type { NetworkDriver } from "../../network/NetworkDriver.ts"

const notSandbox = (driver: string) =>
  new NotFound({
    error: {
      message: `The sandbox endpoints exist only with the sandbox network driver; this service runs the ${driver} driver.`,
      next: "Start the service with OUTREACH_NETWORK=sandbox to use them."
    }
  })

/** Succeeds when `network` is the sandbox, else fails with 404 `notFound`. */
export const sandboxOnly = (network: NetworkDriver["Service"]): Effect.Effect<void, NotFound> =>
  network.name === "sandbox" ? Effect.void : Effect.fail(notSandbox(network.name))
