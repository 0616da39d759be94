/**
 * The platform requests are served on: the context the app is built on
 * (configuration, logging and its level, tracing), captured where it is provided.
 *
 * A request's fiber runs in the context it is served in, and Effect copies that
 * context whenever a request adds services to it (`HttpApiBuilder` does so on
 * every request, to provide its handler group's middlewares): a copy of a `Map`,
 * twice, about 60 ns an entry. Served inside the app's layers, that context held
 * every service of the app (57); `Server.serve` serves requests on this context
 * instead, with only what requests need besides (`Server.ts`).
 */
import { Context, Effect, Layer } from "effect"

export class Platform extends Context.Service<Platform, Context.Context<never>>()("outreach/http/Platform") {
  /**
   * Captures the context it is built in: provide it beneath the app's own layers (the database, the
   * clock, the listener, the core), above configuration, logging and tracing.
   */
  static readonly layer = Layer.effect(Platform, Effect.context<never>())
}
