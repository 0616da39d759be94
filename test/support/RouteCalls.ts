/**
 * Calling a route group in memory through `HttpApiTest`'s typed client, as the fast route tests
 * (`test/http/*Routes.test.ts`) do: the group's own handlers behind the contract's middleware,
 * with the stand-in caller (`AnyCaller.ts`); how an answer reads, and its failure envelope
 * asserted as the spec states it. The typed client encodes what it sends with the contract's
 * schemas, so it cannot send bad input: {@link sending} replaces the body or path of one call with
 * what a careless or hostile caller would send, to check the 400 the server answers.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { assert } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { HttpClientRequest, type HttpClientResponse } from "effect/http"
import { HttpApiMiddleware } from "effect/http-api"
import { Authentication } from "../../src/api/Security.ts"
import { RequestErrorsLive } from "../../src/http/Middleware.ts"
import { AnyCaller } from "./AnyCaller.ts"

/** How the request of the call under way is changed before it is sent: not at all by default. */
const Instead = Context.Reference<(request: HttpClientRequest.HttpClientRequest) => HttpClientRequest.HttpClientRequest>(
  "test/RouteCalls/Instead",
  { defaultValue: () => (request) => request }
)

/** The client's side of the authentication: a stand-in key on every request, changed as {@link sending} asks. */
const clientKey = HttpApiMiddleware.layerClient(
  Authentication,
  ({ next, request }) => Effect.flatMap(Instead, (instead) => next(instead(HttpClientRequest.bearerToken(request, "svc_test"))))
)

/**
 * `handlers` (a group's handlers, their services provided) answering the typed client in memory:
 * the caller is `caller` (an owner key by default), the contract's request errors are the service's.
 */
export const inMemory = <A, E, R>(handlers: Layer.Layer<A, E, R>, caller: Layer.Layer<Authentication> = AnyCaller) =>
  handlers.pipe(
    Layer.provideMerge(Layer.mergeAll(caller, RequestErrorsLive, clientKey)),
    Layer.provideMerge(NodeHttpServer.layerHttpServices)
  )

/** The typed client's call, sent with this body (any JSON) and, when given, to this path instead. */
export const sending = (change: { readonly body?: unknown; readonly path?: string }) =>
<A, E, R>(call: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.provideService(call, Instead, (request) => {
    const withBody = "body" in change ? HttpClientRequest.bodyJsonUnsafe(request, change.body) : request
    return change.path === undefined ? withBody : HttpClientRequest.setUrl(withBody, change.path)
  })

/** The answer as an integrator reads it: its status, and its body as JSON. */
export const read = (response: HttpClientResponse.HttpClientResponse) =>
  Effect.map(response.json, (body) => ({ status: response.status, body: Object(body) }))

/** A failure's envelope: `{ok: false, error: {type, message, next}}` and nothing else. */
export const assertEnvelope = (
  answer: { readonly status: number; readonly body: Record<string, unknown> },
  status: number,
  type: string
) => {
  assert.strictEqual(answer.status, status, JSON.stringify(answer.body))
  assert.deepStrictEqual(Object.keys(answer.body).sort(), ["error", "ok"])
  assert.isFalse(answer.body["ok"])
  const error = Object(answer.body["error"])
  assert.deepStrictEqual(Object.keys(error).sort(), ["message", "next", "type"])
  assert.strictEqual(error.type, type)
  assert.isAbove(String(error.message).length, 0)
  assert.isAbove(String(error.next).length, 0)
  return { type: String(error.type), message: String(error.message), next: String(error.next) }
}
