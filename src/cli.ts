/**
 * The operator CLI's process entry: `npm run cli -- workspace create --name Acme`.
 */
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Effect, Layer, Logger, References } from "effect"
import { Command } from "effect/cli"
import { cli } from "./operator/Commands.ts"
import { AppConfig } from "./platform/AppConfig.ts"
import * as Database from "./platform/Database.ts"
import { Credentials } from "./auth/Credentials.ts"
import { Workspaces } from "./workspaces/Workspaces.ts"

const services = Workspaces.layer.pipe(
  Layer.provide(Credentials.layer),
  Layer.provide(Database.layer),
  Layer.provide(AppConfig.layer),
  Layer.provide(Layer.succeed(References.MinimumLogLevel, "Warn")),
  Layer.provide(Logger.layer([Logger.consoleLogFmt]))
)

Command.run(cli, { version: "1.0.0" }).pipe(
  Effect.provide(services),
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain
)
