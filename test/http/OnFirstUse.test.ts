import { assert, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { onFirstUse } from "../../src/http/OnFirstUse.ts"

class Greeting extends Context.Service<Greeting, string>()("test/Greeting") {}

it.effect("routes are built at their first request, once, with the serving layer's services", () =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      let builds = 0
      const lazy = onFirstUse(
        "/lazy",
        Layer.unwrap(Effect.gen(function*() {
          builds++
          const greeting = yield* Greeting
          return HttpRouter.add("GET", "/lazy", HttpServerResponse.text(greeting))
        }))
      )
      const routes = Layer.mergeAll(lazy, HttpRouter.add("GET", "/eager", HttpServerResponse.text("here")))
      const web = HttpRouter.toWebHandler(routes.pipe(Layer.provide(Layer.succeed(Greeting)("hello"))), {
        disableLogger: true
      })
      return { web, builds: () => builds }
    }),
    ({ builds, web }) =>
      Effect.gen(function*() {
        const get = (path: string) =>
          Effect.promise(async () => {
            const response = await web.handler(new Request(`http://localhost${path}`))
            return { status: response.status, body: await response.text() }
          })
        assert.deepStrictEqual(yield* get("/eager"), { status: 200, body: "here" })
        assert.strictEqual(builds(), 0)
        const answers = yield* Effect.all([get("/lazy"), get("/lazy"), get("/lazy")], { concurrency: "unbounded" })
        assert.deepStrictEqual(answers.map((a) => a.body), ["hello", "hello", "hello"])
        assert.deepStrictEqual(answers.map((a) => a.status), [200, 200, 200])
        assert.deepStrictEqual(yield* get("/lazy"), { status: 200, body: "hello" })
        assert.strictEqual(builds(), 1)
      }),
    ({ web }) => Effect.promise(web.dispose)
  ))
