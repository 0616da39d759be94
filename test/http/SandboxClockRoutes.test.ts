/**
 * The sandbox clock's routes' contract, fast: the service's own handlers
 * (`sandbox/http/SandboxClockHandlers.ts`) behind the contract's middleware, called with the typed
 * client in memory (`HttpApiTest`), on the in-memory `ServiceClock` (held to the stored clock by
 * `test/platform/ServiceClockContract.ts`) and the server's per-workspace network routing
 * (`network/PerWorkspace.ts`) over a sandbox and a live workspace. Each test checks status codes,
 * the envelope and error types, bad input included. The caller is a stand-in key; who may call
 * these routes at all is the gate's (`test/sandbox/http/SandboxClock.test.ts` runs the whole service).
 */
import { assert, layer } from "@effect/vitest"
import { Clock, Effect, Layer } from "effect"
import { HttpApiTest } from "effect/http-api"
import { TestClock } from "effect/testing"
import { Api } from "../../src/api/Api.ts"
import type { Authentication } from "../../src/api/Security.ts"
import type { ClockMode } from "../../src/platform/ServiceClock.ts"
import * as ServiceClockMemory from "../../src/platform/ServiceClockMemory.ts"
import { SandboxClockHandlers } from "../../src/sandbox/http/SandboxClockHandlers.ts"
import { AnyCaller } from "../support/AnyCaller.ts"
import { assertEnvelope, inMemory, read, sending } from "../support/RouteCalls.ts"
import { LiveCaller, networks } from "../support/SandboxNetworks.ts"

const clockRoutes = (mode: ClockMode, caller: Layer.Layer<Authentication> = AnyCaller) =>
  inMemory(SandboxClockHandlers.pipe(Layer.provide([ServiceClockMemory.layer(mode), networks])), caller)

const client = HttpApiTest.groups(Api, ["sandboxClock"])

/** The clock's time as the routes read it, epoch milliseconds. */
const readClock = Effect.flatMap(client, (api) => Effect.map(api.sandboxClock.read(), (state) => Date.parse(state.now)))

layer(clockRoutes("test"))("the sandbox clock's routes in memory, on the test clock", (it) => {
  it.effect("GET /v1/sandbox/clock answers 200 with the test clock's time, which starts at the real time", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const [state, response] = yield* api.sandboxClock.read({ responseMode: "decoded-and-response" })
      assert.strictEqual(response.status, 200)
      assert.deepStrictEqual(Object.keys(state).sort(), ["mode", "now", "ok"])
      assert.isTrue(state.ok)
      assert.strictEqual(state.mode, "test")
      assert.match(state.now, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
      // Not 1970, where a bare TestClock starts: the real time at start, or later if moved.
      assert.isAtLeast(Date.parse(state.now), (yield* TestClock.withLive(Clock.currentTimeMillis)) - 10 * 60_000)
    })))

  it.effect("POST advanceSeconds answers 200 with the time moved forward by exactly that much, and it stays there", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const before = yield* readClock
      const [moved, response] = yield* api.sandboxClock.move({ payload: { advanceSeconds: 3600 }, responseMode: "decoded-and-response" })
      assert.strictEqual(response.status, 200)
      assert.deepStrictEqual(moved, { ok: true, now: new Date(before + 3_600_000).toISOString(), mode: "test" })
      assert.strictEqual(yield* readClock, before + 3_600_000)
    })))

  it.effect("POST `to` moves to that instant, offsets normalised to UTC; the current instant is accepted", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const target = (yield* readClock) + 2 * 86_400_000 + 123
      const iso = new Date(target).toISOString()
      assert.strictEqual((yield* api.sandboxClock.move({ payload: { to: iso } })).now, iso)
      // The same instant written with a +02:00 offset, one hour later.
      const later = new Date(target + 3 * 3_600_000).toISOString().replace("Z", "+02:00")
      const offset = yield* api.sandboxClock.move({ payload: { to: later } })
      assert.strictEqual(offset.now, new Date(target + 3_600_000).toISOString())
      assert.strictEqual((yield* api.sandboxClock.move({ payload: { to: offset.now } })).now, offset.now)
      assert.strictEqual(yield* readClock, target + 3_600_000)
    })))

  it.effect("a `to` before now is 422 unprocessable, and the clock does not move", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const now = yield* readClock
      const to = new Date(now - 1).toISOString()
      const back = yield* api.sandboxClock.move({ payload: { to }, responseMode: "response-only" })
      const error = assertEnvelope(yield* read(back), 422, "unprocessable")
      assert.strictEqual(
        error.message,
        `\`to\` (${to}) is before the clock's time (${new Date(now).toISOString()}); the clock only moves forward.`
      )
      assert.include(error.next, "advanceSeconds")
      assert.strictEqual((yield* Effect.flip(api.sandboxClock.move({ payload: { to } })))._tag, "Unprocessable")
      assert.strictEqual(yield* readClock, now)
    })))

  it.effect("a body with neither or both fields, a bad advanceSeconds or a bad `to` is 400 naming it, and the clock does not move", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const now = yield* readClock
      const move = api.sandboxClock.move({ payload: { advanceSeconds: 1 }, responseMode: "response-only" })
      const refused = (body: unknown, ...mentions: ReadonlyArray<string>) =>
        Effect.gen(function*() {
          const error = assertEnvelope(yield* read(yield* move.pipe(sending({ body }))), 400, "badRequest")
          for (const mention of mentions) assert.include(error.message, mention, JSON.stringify(body))
        })
      yield* refused({ advanceSeconds: 60, to: new Date(now + 60_000).toISOString() }, "exactly one of advanceSeconds and to")
      yield* refused({}, "exactly one of advanceSeconds and to")
      yield* refused({ advanceSeconds: -60 }, "body.advanceSeconds", "greater than 0")
      yield* refused({ advanceSeconds: 0 }, "body.advanceSeconds", "greater than 0")
      yield* refused({ advanceSeconds: 1.5 }, "body.advanceSeconds")
      yield* refused({ advanceSeconds: "60" }, "body.advanceSeconds")
      yield* refused({ advanceSeconds: 10 ** 12 }, "body.advanceSeconds", "ten years")
      yield* refused({ to: "tomorrow" }, "body.to", "ISO 8601")
      yield* refused({ to: "2999-01-01T00:00:00" }, "body.to")
      yield* refused({ to: "2999-02-30T00:00:00Z" }, "body.to")
      yield* refused({ to: "2999-01-01T24:00:00Z" }, "body.to")
      yield* refused({ to: 4_102_444_800_000 }, "body.to")
      yield* refused(null)
      yield* refused("advance")
      assert.strictEqual(yield* readClock, now)
    })))
})

layer(clockRoutes("test", LiveCaller))(
  "the sandbox clock's routes in memory, for a live workspace",
  (it) => {
    it.effect("both routes are 404 notFound, saying the workspace is live; the clock does not move", () =>
      Effect.scoped(Effect.gen(function*() {
        const api = yield* client
        const reading = assertEnvelope(yield* read(yield* api.sandboxClock.read({ responseMode: "response-only" })), 404, "notFound")
        assert.include(reading.message, "this workspace's network is live (the unipile driver)")
        assert.include(reading.next, "sandbox workspace")
        const moving = yield* api.sandboxClock.move({ payload: { advanceSeconds: 60 }, responseMode: "response-only" })
        assert.deepStrictEqual(assertEnvelope(yield* read(moving), 404, "notFound"), reading)
        assert.strictEqual((yield* Effect.flip(api.sandboxClock.move({ payload: { advanceSeconds: 60 } })))._tag, "NotFound")
        // Bad input is refused before the workspace is looked at.
        const bad = yield* api.sandboxClock.move({ payload: { advanceSeconds: 60 }, responseMode: "response-only" }).pipe(
          sending({ body: {} })
        )
        assertEnvelope(yield* read(bad), 400, "badRequest")
      })))
  }
)

layer(clockRoutes("system"))("the sandbox clock's routes in memory, on the system clock", (it) => {
  it.effect("GET reads the system clock; POST is 409 conflict, saying how to start on the test clock", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const state = yield* api.sandboxClock.read()
      assert.strictEqual(state.mode, "system")
      assert.strictEqual(Date.parse(state.now), yield* Clock.currentTimeMillis)
      for (const payload of [{ advanceSeconds: 60 }, { to: "2999-01-01T00:00:00Z" }]) {
        const moving = yield* api.sandboxClock.move({ payload, responseMode: "response-only" })
        const error = assertEnvelope(yield* read(moving), 409, "conflict")
        assert.strictEqual(error.message, "The service runs on the system clock, which cannot be moved.")
        assert.include(error.next, "OUTREACH_CLOCK=test")
      }
      assert.strictEqual((yield* Effect.flip(api.sandboxClock.move({ payload: { advanceSeconds: 60 } })))._tag, "Conflict")
      assert.deepStrictEqual(yield* api.sandboxClock.read(), state)
    })))
})
