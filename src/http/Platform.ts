/**
 * The platform requests are served on: the context beneath the app's core
 * (configuration, logging and its level, the clock, tracing, the database,
 * Node's HTTP server and platform), captured where it is built.
 *
 * A request's fiber runs in the context it is served in, and Effect copies that
 * context whenever a request adds services to it (`HttpApiBuilder` does so on
 * every request, to provide its handler group's middlewares). Served inside the
 * app's layers, that context held every service of the app (57), copied on every
 * request; `Server.serve` serves requests on this context instead, with only the
 * services routes ask for per request added.
 *
 * @since 1.0.0
 */
import { Context, Effect, Layer } from "effect"

export class Platform extends Context.Service<Platform, Context.Context<never>>()("outreach/http/Platform") {
  /** Captures the context it is built in: provide it beneath the core and above the platform's layers. */
  static readonly layer = Layer.effect(Platform, Effect.context<never>())
}
