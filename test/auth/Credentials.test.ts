import { assert, layer } from "@effect/vitest"
import { Clock, Context, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { Credentials, leaseMaxAgeMs } from "../../src/auth/Credentials.ts"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import * as TestDatabase from "../support/TestDatabase.ts"

// One-second leases, as on a shared PostgreSQL server.
const credentials = Credentials.layerWith({ leaseMaxAgeMs })
const services = Workspaces.layer.pipe(Layer.provideMerge(credentials), Layer.provideMerge(TestDatabase.layer))

const startOfNextMinute = Effect.flatMap(Clock.currentTimeMillis, (now) => TestClock.adjust(60_000 - (now % 60_000)))

layer(services)("rate counting across requests and servers", (it) => {
  it.effect("a slow caller is counted request by request: unused slices are given back", () =>
    Effect.gen(function*() {
      yield* startOfNextMinute
      const credentials = yield* Credentials
      const { keyValue } = yield* (yield* Workspaces).create({ name: "Slow" })
      for (let i = 1; i <= 25; i++) {
        const admission = yield* credentials.admit({ token: keyValue, clientAddress: "10.0.0.1" })
        assert.isDefined(admission.principal)
        assert.strictEqual(admission.window.remaining, 600 - i, `request ${i}`)
        // Two seconds apart: every lease has expired before the next request.
        yield* TestClock.adjust("2 seconds")
      }
    }))

  it.effect("two servers together admit exactly 600 in a minute", () =>
    Effect.gen(function*() {
      yield* startOfNextMinute
      const { keyValue } = yield* (yield* Workspaces).create({ name: "Busy" })
      // Two instances of the service on one database, as two servers would be.
      const serverA = Context.get(yield* Layer.build(Layer.fresh(credentials)), Credentials)
      const serverB = Context.get(yield* Layer.build(Layer.fresh(credentials)), Credentials)
      let admitted = 0
      let refused = 0
      for (let i = 0; i < 700; i++) {
        const server = i % 3 === 0 ? serverB : serverA
        const admission = yield* server.admit({ token: keyValue, clientAddress: "10.0.0.2" })
        if (admission.window.exceeded) refused++
        else admitted++
      }
      assert.isAtMost(admitted, 600)
      assert.isAtLeast(admitted, 500)
      assert.strictEqual(admitted + refused, 700)
      yield* TestClock.adjust("1 minute")
      assert.isFalse((yield* serverA.admit({ token: keyValue, clientAddress: "10.0.0.2" })).window.exceeded)
    }))

  it.effect("claims asked for at the same moment go together, and each caller gets its own", () =>
    Effect.gen(function*() {
      yield* startOfNextMinute
      const credentials = yield* Credentials
      const workspaces = yield* Workspaces
      const created = yield* Effect.forEach(
        Array.from({ length: 12 }, (_, i) => `Burst ${i}`),
        (name) => workspaces.create({ name })
      )
      // Every new key at once, the first one twice, and a token nobody issued.
      const tokens = [...created.map((c) => c.keyValue), created[0].keyValue, "svc_" + "x".repeat(43)]
      const admissions = yield* Effect.forEach(
        tokens,
        (token) => credentials.admit({ token, clientAddress: "10.0.0.3" }),
        { concurrency: "unbounded" }
      )
      created.slice(1).forEach(({ workspace }, i) => {
        const admission = admissions[i + 1]
        assert.strictEqual(admission.principal?.workspaceId, workspace.id)
        assert.strictEqual(admission.window.remaining, 599)
      })
      // The key asked for twice is counted twice, as two requests of its one window.
      const twice = [admissions[0], admissions[created.length]]
      for (const admission of twice) assert.strictEqual(admission.principal?.workspaceId, created[0].workspace.id)
      assert.sameMembers(twice.map((a) => a.window.remaining), [599, 598])
      const stranger = admissions[tokens.length - 1]
      assert.isUndefined(stranger.principal)
      assert.strictEqual(stranger.window.remaining, 599)
    }))
})
