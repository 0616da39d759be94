/**
 * The system routes' contract, fast: the service's own handlers (`http/SystemHandlers.ts`) behind
 * the contract's middleware, called with the typed client in memory (`HttpApiTest`), on the
 * in-memory `Health` (held to the stored probe by `test/platform/HealthContract.ts`): 200 with the
 * database up, 503 in the envelope while it does not answer, 200 again once it does. That the
 * health check needs no key and carries no rate-limit headers is the gate's, tested with the whole
 * service (`test/http/Envelope.test.ts`).
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { HttpApiTest } from "effect/http-api"
import { Api } from "../../src/api/Api.ts"
import { SystemHandlersNoDeps } from "../../src/http/SystemHandlers.ts"
import * as HealthMemory from "../../src/platform/HealthMemory.ts"
import { assertEnvelope, inMemory, read } from "../support/RouteCalls.ts"

const services = inMemory(SystemHandlersNoDeps.pipe(Layer.provideMerge(HealthMemory.layer)))

const client = HttpApiTest.groups(Api, ["system"])

layer(services)("the system routes in memory", (it) => {
  it.effect("GET /healthz answers 200 up while the database answers, 503 unavailable while it does not, 200 once it does again", () =>
    Effect.gen(function*() {
      const api = yield* client
      const database = yield* HealthMemory.HealthSwitch
      const [up, response] = yield* api.system.health({ responseMode: "decoded-and-response" })
      assert.strictEqual(response.status, 200)
      assert.deepStrictEqual(up, { ok: true, status: "up", database: "up" })
      yield* database.set(false)
      const down = assertEnvelope(yield* read(yield* api.system.health({ responseMode: "response-only" })), 503, "unavailable")
      assert.deepStrictEqual(down, { type: "unavailable", message: "The database does not answer.", next: "Retry in a few seconds." })
      assert.strictEqual((yield* Effect.flip(api.system.health()))._tag, "Unavailable")
      yield* database.set(true)
      assert.deepStrictEqual(yield* api.system.health(), { ok: true, status: "up", database: "up" })
    }))
})
