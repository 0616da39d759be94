/**
 * Routes built at their first request instead of when the service starts:
 * for parts that cost memory to load or build and that many deployments never
 * use (the API reference's script, the MCP server). Building the MCP server's
 * tools at start-up grew V8's young generation to its limit, and V8 keeps it
 * grown (docs/performance.md § Footprint).
 *
 * The layer is built once, in the scope of the layer that serves it and with
 * its services; a failed build answers that request with the failure and is
 * not retried, an abandoned one (its requests gone) is started again by the
 * next request.
 */
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"

/** Every request to `path`, any method, handed to the router `layer` adds its routes to. */
export const onFirstUse = <A, E, R>(path: HttpRouter.PathInput, layer: Layer.Layer<A, E, R>) =>
  HttpRouter.use(Effect.fnUntraced(function*(router) {
    // A memo map of its own for each try: the app's holds the app's router, which `layer` would add its routes to.
    const build = Effect.flatMap(
      Layer.makeMemoMap,
      (memoMap) => Effect.provideService(HttpRouter.toHttpEffect(layer), Layer.CurrentMemoMap, memoMap)
    )
    const services = yield* Effect.context<Effect.Services<typeof build>>()
    const app = yield* Effect.cached(Effect.provideContext(build, services))
    yield* router.add("*", path, Effect.flatten(app))
  }))
