/**
 * `npm run mcp`: the MCP server over stdio for desktop assistants, bridged to
 * the running service (`OUTREACH_URL`, default http://127.0.0.1:8080) with
 * the key in `OUTREACH_API_KEY`. Nothing but MCP is written to standard
 * output; problems go to standard error.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Effect } from "effect"
import * as StdioBridge from "./mcp/StdioBridge.ts"

StdioBridge.run.pipe(
  Effect.catchCause((cause) =>
    Effect.sync(() => {
      const missing = Cause.pretty(cause).includes("OUTREACH_API_KEY")
      process.stderr.write(
        missing
          ? "outreach mcp: set OUTREACH_API_KEY to an API key (svc_...); create one with `npm run cli -- key create`.\n"
          : `outreach mcp: ${Cause.pretty(cause)}\n`
      )
      process.exitCode = 1
    })
  ),
  NodeRuntime.runMain({ disableErrorReporting: true })
)
