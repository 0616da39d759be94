/**
 * The API reference page: the OpenAPI document rendered by Scalar, whose
 * browser script `effect` inlines (no CDN). Loading that script holds about
 * 12 MB of heap (the module's source and the script as a string), so it is
 * loaded at the first request for the page, not when the service starts.
 *
 * @since 1.0.0
 */
import { Effect, Scope } from "effect"
import { HttpRouter } from "effect/http"
import { type HttpApi, type HttpApiGroup, HttpApiScalar } from "effect/http-api"

/** Serves `api`'s reference at `path`, built on its first request. */
export const layer = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>,
  path: `/${string}`
) =>
  HttpRouter.use(Effect.fnUntraced(function*(router) {
    const scope = yield* Effect.scope
    const page = yield* Effect.cached(Scope.provide(HttpRouter.toHttpEffect(HttpApiScalar.layer(api, { path })), scope))
    yield* router.add("GET", path, Effect.flatten(page))
  }))
