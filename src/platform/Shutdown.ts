/**
 * How the process ends. SIGTERM/SIGINT interrupt the program; once the server
 * has drained and the database closed, that is an orderly stop, so the process
 * exits 0 (Effect's default would be 130). Failures keep the default codes.
 */
import { Cause, Exit } from "effect"
import { Runtime } from "effect"
import { StartFailed } from "./StartFailure.ts"

export const teardown: Runtime.Teardown = (exit, onExit) => {
  if (Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause)) {
    process.stderr.write("outreach-service stopped gracefully\n")
    return onExit(0)
  }
  // A failed start was reported in one line already (platform/StartFailure.ts).
  if (Exit.isFailure(exit) && exit.cause.reasons.some((reason) => Cause.isFailReason(reason) && reason.error instanceof StartFailed)) {
    return onExit(1)
  }
  return Runtime.defaultTeardown(exit, onExit)
}
