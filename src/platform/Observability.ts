/**
 * Logs and traces. Logs are structured (logfmt on a terminal, JSON lines with
 * `LOG_FORMAT=json`); traces of every request and SQL statement go to an OTLP
 * endpoint through `@effect/opentelemetry` when one is configured.
 */
import type { SpanExporter } from "@opentelemetry/sdk-trace-base"
import { Effect, Layer, Logger, Option, References } from "effect"
import { AppConfig } from "./AppConfig.ts"

const format = () => process.env["LOG_FORMAT"] === "json" ? Logger.consoleJson : Logger.consoleLogFmt

/** The minimum log level and the log format from the configuration. */
export const logging = Layer.unwrap(Effect.gen(function*() {
  const config = yield* AppConfig
  return Layer.mergeAll(
    Logger.layer([format()]),
    Layer.succeed(References.MinimumLogLevel, config.logLevel)
  )
}))

/**
 * The logging of the process around the service, for a start that fails
 * before the settings could be read: the same format, at Debug when
 * `LOG_LEVEL` says Debug (or Trace, or All), else at Info.
 */
export const startLogging = Layer.unwrap(Effect.sync(() =>
  Layer.mergeAll(
    Logger.layer([format()]),
    Layer.succeed(
      References.MinimumLogLevel,
      /^(debug|trace|all)$/i.test(process.env["LOG_LEVEL"] ?? "") ? "Debug" : "Info"
    )
  )
))

/**
 * OpenTelemetry tracing to `OTEL_EXPORTER_OTLP_ENDPOINT` (OTLP over HTTP). Unset, tracing is off:
 * Effect's own tracer would still build a span for every named effect and SQL statement that
 * nothing ever reads, a share of every request's time (`npm run bench`, docs/performance.md).
 */
export const tracing = Layer.unwrap(Effect.gen(function*() {
  const config = yield* AppConfig
  if (Option.isNone(config.otlpEndpoint)) return Layer.succeed(References.TracerEnabled, false)
  const url = config.otlpEndpoint.value.replace(/\/$/, "") + "/v1/traces"
  yield* Effect.logInfo(`exporting traces to ${url}`)
  const { NodeSdk, sdk } = yield* openTelemetry
  const { OTLPTraceExporter } = yield* Effect.promise(() => import("@opentelemetry/exporter-trace-otlp-http"))
  return NodeSdk.layer(() => ({
    resource: { serviceName: config.serviceName, serviceVersion: "1.0.0" },
    spanProcessor: new sdk.BatchSpanProcessor(new OTLPTraceExporter({ url }))
  }))
}))

/**
 * The OpenTelemetry SDK, loaded only when tracing is on: a service without an OTLP endpoint
 * never needs it, and loading it was about 0.1 s of start-up and a few MB of heap.
 */
const openTelemetry = Effect.promise(async () => ({
  NodeSdk: await import("@effect/opentelemetry/NodeSdk"),
  sdk: await import("@opentelemetry/sdk-trace-base")
}))

/** Tracing into a given exporter (tests use an in-memory one). */
export const tracingTo = (exporter: SpanExporter, serviceName = "outreach-service") =>
  Layer.unwrap(Effect.map(openTelemetry, ({ NodeSdk, sdk }) =>
    NodeSdk.layer(() => ({
      resource: { serviceName, serviceVersion: "1.0.0" },
      spanProcessor: new sdk.SimpleSpanProcessor(exporter)
    }))))
