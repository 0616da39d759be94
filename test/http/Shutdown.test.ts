import { assert, it } from "@effect/vitest"
import { Context, Deferred, Effect, Exit, Fiber, Layer, Scope } from "effect"
import { HttpClient, HttpClientRequest, HttpRouter, HttpServer, HttpServerResponse } from "effect/http"
import { layer as serverLayer } from "../support/TestServer.ts"

it.live("graceful shutdown: answers new requests 503, finishes the request in flight, then closes", () =>
  Effect.gen(function*() {
    const entered = yield* Deferred.make<void>()
    const release = yield* Deferred.make<void>()
    const slow = HttpRouter.add(
      "GET",
      "/test/slow",
      Deferred.succeed(entered, undefined).pipe(
        Effect.andThen(Deferred.await(release)),
        // As the service's drain answers while it stops (App.drainOnStop): the connection closes after
        // the answer, so the close need not wait out the server's graceful timeout (20 s) for it.
        Effect.as(HttpServerResponse.text("done", { headers: { connection: "close" } }))
      )
    )
    const scope = yield* Scope.make()
    const context = yield* Layer.buildWithScope(serverLayer({}, slow), scope)
    const client = Context.get(context, HttpClient.HttpClient)
    const server = Context.get(context, HttpServer.HttpServer)
    const base = HttpServer.formatAddress(server.address)

    const inFlight = yield* client.get("/test/slow").pipe(Effect.flatMap((r) => r.text), Effect.forkChild)
    yield* Deferred.await(entered)

    const closing = yield* Scope.close(scope, Exit.void).pipe(Effect.forkChild)
    // Closing waits for the request in flight...
    yield* Effect.sleep("200 millis")
    assert.isUndefined(closing.pollUnsafe())
    // ...while new requests are answered 503 in the envelope, to be retried elsewhere.
    const refused = yield* HttpClient.execute(HttpClientRequest.get(`${base}/v1/me`)).pipe(
      Effect.provideService(HttpClient.HttpClient, client),
      Effect.flatMap((response) => Effect.map(response.json, (body) => ({ status: response.status, headers: response.headers, body }))),
      Effect.orDie
    )
    assert.strictEqual(refused.status, 503)
    assert.strictEqual(refused.headers["retry-after"], "5")
    assert.deepInclude(refused.body, { ok: false })

    yield* Deferred.succeed(release, undefined)
    assert.strictEqual(yield* Fiber.join(inFlight), "done")
    yield* Fiber.join(closing)
  }), 60_000)
