/**
 * Handler groups built on the API's middlewares alone.
 *
 * `HttpApiBuilder.group` keeps the context its layer is built in and provides it to every request
 * of the group (a `Context.merge`: the request's context copied with the group's added). Built
 * inside the app's layers, that context held every service of the app, about 60 copied into each
 * request. So a group's handlers take their services when the group is built (`yield*` in the
 * effect of `Layer.unwrap`) and close over them, and the group itself is built by
 * {@link onMiddlewares}: its context is the two middlewares the endpoints declare.
 */
import { Context, Effect, Layer, type Scope } from "effect"
import { Authentication, RequestErrors } from "../api/Security.ts"

/** What the endpoints' middlewares need from a group's context: their own implementations. */
export type Middlewares = Authentication | RequestErrors

const middlewaresOf = Context.pick(Authentication, RequestErrors)

/**
 * Builds `group` in a context of the middlewares only. Its type admits nothing else, so a handler
 * that asked for a service on each request (rather than at build) would not compile.
 */
export const onMiddlewares = <A, E, R extends Middlewares>(group: Layer.Layer<A, E, R>): Layer.Layer<A, E, R> =>
  Layer.effectContext(Effect.flatMap(Effect.scope, (scope) =>
    Effect.updateContext(
      Layer.buildWithScope(group, scope),
      (context: Context.Context<R | Scope.Scope>) => middlewaresOf(context)
    )))
