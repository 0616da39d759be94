/**
 * The operator CLI's process entry: `npm run cli -- workspace create --name Acme`.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Cause, Console, Effect, Layer, Logger, Option, Predicate, References } from "effect"
import { Command } from "effect/cli"
import { isFailure } from "./domain/Failures.ts"
import { nextOf } from "./http/ServiceErrors.ts"
import { cli } from "./operator/OperatorCommands.ts"
import { AppConfig } from "./platform/AppConfig.ts"
import * as Database from "./platform/Database.ts"
import { teardown } from "./platform/Shutdown.ts"
import * as StartFailure from "./platform/StartFailure.ts"
import { ApiKeys } from "./keys/ApiKeys.ts"
import * as PeopleAuth from "./team/PeopleAuth.ts"
import { Workspaces } from "./workspaces/Workspaces.ts"

const services = Layer.mergeAll(Workspaces.layer, ApiKeys.layer, PeopleAuth.layer).pipe(
  Layer.provide(Database.layer),
  Layer.provide(AppConfig.layer),
  Layer.provide(Layer.succeed(References.MinimumLogLevel, "Warn")),
  Layer.provide(Logger.layer([Logger.consoleLogFmt]))
)

/**
 * A service's refusal or an API error (`{error: {message, next}}`) in its own words, with what to
 * do; anything else as a failed start would be.
 */
const oneLine = (cause: Cause.Cause<unknown>): string => {
  const failure = Cause.findErrorOption(cause)
  if (Option.isSome(failure) && isFailure(failure.value)) return `${failure.value.message} ${nextOf(failure.value.advice)}`
  if (Option.isSome(failure) && Predicate.hasProperty(failure.value, "error") && Predicate.hasProperty(failure.value.error, "message")) {
    const { error } = failure.value
    return `${String(error.message)}${Predicate.hasProperty(error, "next") ? ` ${String(error.next)}` : ""}`
  }
  return StartFailure.describe(cause, { host: "", port: "" })
}

// The database is opened only by a command that runs: `--help` works while the server holds it.
Command.run(cli.pipe(Command.provide(services)), { version: "1.0.0" }).pipe(
  Effect.catchCause((cause) =>
    Cause.hasInterruptsOnly(cause)
      ? Effect.interrupt
      : Console.error(oneLine(cause)).pipe(Effect.andThen(Effect.fail(new StartFailure.StartFailed())))
  ),
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain({ teardown, disableErrorReporting: true })
)
