/**
 * The process entry: configuration, layers, launch. SIGINT/SIGTERM interrupt
 * the program: the server stops accepting, finishes in-flight requests, and
 * the database closes.
 */
// First: V8 settings must be in force before any other module allocates.
import "./platform/GcTuning.ts"
import { NodeRuntime } from "@effect/platform-node"
import { Layer } from "effect"
import * as App from "./App.ts"
import { AppConfig } from "./platform/AppConfig.ts"
import * as Observability from "./platform/Observability.ts"
import { teardown } from "./platform/Shutdown.ts"

App.layer.pipe(
  Layer.provide(Observability.logging),
  Layer.provide(AppConfig.layer),
  Layer.launch,
  NodeRuntime.runMain({ teardown })
)
