/**
 * The process entry: configuration, layers, launch. SIGINT/SIGTERM interrupt
 * the program: the server stops accepting, finishes in-flight requests, and
 * the database closes. A start that fails says why in one line and exits 1.
 */
// First: V8 settings must be in force before any other module allocates.
import "./platform/GcTuning.ts"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Effect, Layer } from "effect"
import * as App from "./App.ts"
import { AppConfig } from "./platform/AppConfig.ts"
import * as Observability from "./platform/Observability.ts"
import { teardown } from "./platform/Shutdown.ts"
import * as StartFailure from "./platform/StartFailure.ts"

// `--verbose` is `LOG_LEVEL=Debug`: the cause of a failed start, and every debug line.
if (process.argv.includes("--verbose")) process.env["LOG_LEVEL"] = "Debug"
// The first SIGINT or SIGTERM stops gracefully; a second one exits at once.
let signals = 0
const second = () => {
  if (++signals < 2) return
  process.stderr.write("second signal: exiting now, without waiting for requests in flight\n")
  process.exit(130)
}
process.on("SIGINT", second)
process.on("SIGTERM", second)
// Named in the one-line report of a taken port, read before the settings are (they may be what failed).
const where = { host: process.env["HOST"] ?? "127.0.0.1", port: process.env["PORT"] ?? "8080" }

App.layer.pipe(
  Layer.provide(Observability.logging),
  Layer.provide(AppConfig.layer),
  Layer.launch,
  Effect.catchCause((cause) => Cause.hasInterruptsOnly(cause) ? Effect.interrupt : StartFailure.report(cause, where)),
  Effect.provide(Observability.startLogging),
  NodeRuntime.runMain({ teardown, disableErrorReporting: true })
)
