/**
 * Services given to some routes on each request, from the context those routes
 * are built in: for adapters whose handlers ask for services per request (the
 * dashboard's pages, the sandbox's sign-in page), so that every other request
 * is served without them (`http/Platform.ts` says why that matters).
 */
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"

/** `routes` with the services their handlers ask for per request provided to each of their requests. */
export const servicesAtBuild = <A, E, R>(routes: Layer.Layer<A, E, R>) =>
  routes.pipe(HttpRouter.provideRequest(Layer.effectContext(Effect.context<HttpRouter.Request.Only<"Requires", R>>())))
