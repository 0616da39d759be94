import { assert, layer } from "@effect/vitest"
import { Clock, Deferred, Effect, Layer, Ref, Schedule } from "effect"
import { TestClock } from "effect/testing"
import { SignIn } from "../../../src/team/SignIn.ts"
import { cookie, ownerSession, password } from "../../support/Teammates.ts"
import { call, layer as serverLayer, newWorkspace, type Reply } from "../../support/TestServer.ts"

const realNow = TestClock.withLive(Clock.currentTimeMillis)

const readClock = (token: string) =>
  Effect.map(call("GET", "/v1/sandbox/clock", { token }), (reply) => {
    assert.strictEqual(reply.status, 200, JSON.stringify(reply.body))
    return Date.parse(reply.body.now)
  })

const assertBadRequest = (reply: Reply, ...mentions: ReadonlyArray<string>) => {
  assert.strictEqual(reply.status, 400, JSON.stringify(reply.body))
  assert.strictEqual(reply.body.ok, false)
  assert.strictEqual(reply.body.error.type, "badRequest")
  assert.isString(reply.body.error.next)
  for (const mention of mentions) assert.include(reply.body.error.message, mention)
}

layer(serverLayer({ clock: "test" }))("the sandbox clock (OUTREACH_CLOCK=test)", (it) => {
  it.effect("starts at the real time, reads as the test clock, and needs a key", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const reply = yield* call("GET", "/v1/sandbox/clock", { token: keyValue })
      assert.strictEqual(reply.status, 200)
      assert.deepStrictEqual(Object.keys(reply.body).sort(), ["mode", "now", "ok"])
      assert.strictEqual(reply.body.ok, true)
      assert.strictEqual(reply.body.mode, "test")
      assert.match(reply.body.now, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
      // Not 1970, where a bare TestClock starts: the real time at start, or later if moved.
      assert.isAtLeast(Date.parse(reply.body.now), (yield* realNow) - 10 * 60_000)

      assert.strictEqual((yield* call("GET", "/v1/sandbox/clock")).status, 401)
      assert.strictEqual((yield* call("POST", "/v1/sandbox/clock", { body: { advanceSeconds: 1 } })).status, 401)
    }))

  it.effect("advanceSeconds moves the time forward by exactly that much, and it stays there", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const before = yield* readClock(keyValue)
      const moved = yield* call("POST", "/v1/sandbox/clock", { token: keyValue, body: { advanceSeconds: 3600 } })
      assert.strictEqual(moved.status, 200)
      assert.strictEqual(moved.body.mode, "test")
      assert.strictEqual(Date.parse(moved.body.now), before + 3_600_000)
      assert.strictEqual(yield* readClock(keyValue), before + 3_600_000)
    }))

  it.effect("`to` moves to that instant (offsets normalised to UTC); the current instant is accepted", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const now = yield* readClock(keyValue)
      const target = now + 2 * 86_400_000 + 123
      const iso = new Date(target).toISOString()
      const moved = yield* call("POST", "/v1/sandbox/clock", { token: keyValue, body: { to: iso } })
      assert.strictEqual(moved.status, 200)
      assert.strictEqual(moved.body.now, iso)

      // The same instant written with a +02:00 offset, one hour later.
      const later = new Date(target + 3_600_000 + 2 * 3_600_000).toISOString().replace("Z", "+02:00")
      const offset = yield* call("POST", "/v1/sandbox/clock", { token: keyValue, body: { to: later } })
      assert.strictEqual(offset.status, 200)
      assert.strictEqual(offset.body.now, new Date(target + 3_600_000).toISOString())

      const same = yield* call("POST", "/v1/sandbox/clock", { token: keyValue, body: { to: offset.body.now } })
      assert.strictEqual(same.status, 200)
      assert.strictEqual(same.body.now, offset.body.now)
    }))

  it.effect("`to` before now is 422 unprocessable and the clock does not move", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const now = yield* readClock(keyValue)
      const reply = yield* call("POST", "/v1/sandbox/clock", {
        token: keyValue,
        body: { to: new Date(now - 1).toISOString() }
      })
      assert.strictEqual(reply.status, 422)
      assert.strictEqual(reply.body.ok, false)
      assert.strictEqual(reply.body.error.type, "unprocessable")
      assert.include(reply.body.error.message, "only moves forward")
      assert.include(reply.body.error.next, "advanceSeconds")
      assert.strictEqual(yield* readClock(keyValue), now)
    }))

  it.effect("bad bodies answer 400 badRequest in the envelope and do not move the clock", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const now = yield* readClock(keyValue)
      const post = (body: unknown) => call("POST", "/v1/sandbox/clock", { token: keyValue, body })
      const future = new Date(now + 60_000).toISOString()

      assertBadRequest(yield* post({ advanceSeconds: 60, to: future }), "exactly one of advanceSeconds and to")
      assertBadRequest(yield* post({}), "exactly one of advanceSeconds and to")
      assertBadRequest(yield* post({ advanceSeconds: -60 }), "body.advanceSeconds", "greater than 0")
      assertBadRequest(yield* post({ advanceSeconds: 0 }), "body.advanceSeconds", "greater than 0")
      assertBadRequest(yield* post({ advanceSeconds: 1.5 }), "body.advanceSeconds")
      assertBadRequest(yield* post({ advanceSeconds: "60" }), "body.advanceSeconds")
      assertBadRequest(yield* post({ advanceSeconds: 10 ** 12 }), "body.advanceSeconds", "ten years")
      assertBadRequest(yield* post({ to: "tomorrow" }), "body.to", "ISO 8601")
      assertBadRequest(yield* post({ to: "2999-01-01T00:00:00" }), "body.to")
      assertBadRequest(yield* post({ to: "2999-02-30T00:00:00Z" }), "body.to")
      assertBadRequest(yield* post({ to: 4_102_444_800_000 }), "body.to")
      assert.strictEqual(yield* readClock(keyValue), now)
    }))

  it.effect("the test clock moves business time only: advancing it does not reset a key's rate-limit window", () =>
    Effect.gen(function*() {
      const limited = yield* newWorkspace("Limited")
      const operator = yield* newWorkspace("Operator")
      // Reach 429 within one calendar minute of real time (the rate window's clock); a burst that
      // crosses into the next real minute just goes on until the new window is spent too.
      const realMinute = () => Math.floor(Date.now() / 60_000)
      let last: Reply | undefined
      for (let i = 0; i < 1_300 && last?.status !== 429; i++) last = yield* call("GET", "/v1/me", { token: limited.keyValue })
      assert.strictEqual(last?.status, 429)
      const limitedIn = realMinute()

      const moved = yield* call("POST", "/v1/sandbox/clock", {
        token: operator.keyValue,
        body: { advanceSeconds: 3_600 }
      })
      assert.strictEqual(moved.status, 200)
      // An hour of business time later the key is still limited: only the next real minute frees it
      // (test/auth/RateWindows.test.ts shows that).
      const after = yield* call("GET", "/v1/me", { token: limited.keyValue })
      if (realMinute() === limitedIn) assert.strictEqual(after.status, 429)
    }), { timeout: 120_000 })

  it.effect("who people are follows real time: a month of test clock neither ends a session nor lifts a sign-in lockout", () =>
    Effect.gen(function*() {
      const { token, email } = yield* ownerSession
      const operator = yield* newWorkspace("Mover")
      const signIn = yield* SignIn
      for (let i = 0; i < 5; i++) yield* Effect.flip(signIn.password(email, "wrong password here"))
      assert.strictEqual((yield* Effect.flip(signIn.password(email, password)))._tag, "LockedOut")
      const moved = yield* call("POST", "/v1/sandbox/clock", { token: operator.keyValue, body: { advanceSeconds: 30 * 86_400 } })
      assert.strictEqual(moved.status, 200)
      // Thirty days of business time: the 15-minute lockout holds, and the 12-hour session is still open.
      assert.strictEqual((yield* Effect.flip(signIn.password(email, password)))._tag, "LockedOut")
      const me = yield* call("GET", "/v1/me", { headers: cookie(token) })
      assert.strictEqual(me.status, 200, JSON.stringify(me.body))
      assert.strictEqual(me.body.kind, "session")
    }))
})

// A background worker of the app: a fiber sleeping an hour and a one-minute
// schedule, both started when the app starts, on whatever clock the app runs.
const woke = Deferred.makeUnsafe<number>()
const started = Deferred.makeUnsafe<number>()
const ticks = Ref.makeUnsafe(0)
const worker = Layer.effectDiscard(Effect.gen(function*() {
  yield* Deferred.succeed(started, yield* Clock.currentTimeMillis)
  yield* Effect.forkScoped(
    Effect.sleep("1 hour").pipe(
      Effect.andThen(Clock.currentTimeMillis),
      Effect.flatMap((now) => Deferred.succeed(woke, now))
    )
  )
  yield* Effect.forkScoped(Effect.repeat(Ref.update(ticks, (n) => n + 1), Schedule.spaced("1 minute")))
}))

layer(serverLayer({ clock: "test" }, worker))("background fibers follow the test clock", (it) => {
  it.effect("a sleeping fiber wakes exactly when the clock passes its time, not before; schedules tick", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const start = yield* Deferred.await(started)
      assert.strictEqual(yield* readClock(keyValue), start)
      assert.strictEqual(yield* Ref.get(ticks), 1)

      const advance = (seconds: number) =>
        Effect.map(
          call("POST", "/v1/sandbox/clock", { token: keyValue, body: { advanceSeconds: seconds } }),
          (reply) => assert.strictEqual(reply.status, 200)
        )
      yield* advance(3599)
      assert.isFalse(yield* Deferred.isDone(woke), "woke before its time")
      assert.strictEqual(yield* Ref.get(ticks), 1 + 59)

      // Moving well past the hour: the fiber wakes at its own instant, not at the new time.
      yield* advance(61)
      assert.isTrue(yield* Deferred.isDone(woke), "did not wake when its time passed")
      assert.strictEqual(yield* Deferred.await(woke), start + 3_600_000)
      assert.strictEqual(yield* Ref.get(ticks), 1 + 61)
      assert.strictEqual(yield* readClock(keyValue), start + 3_660_000)
    }))
})

layer(serverLayer())("the system clock (OUTREACH_CLOCK=system, the default)", (it) => {
  it.effect("reads the time and refuses moves with 409 conflict", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const read = yield* call("GET", "/v1/sandbox/clock", { token: keyValue })
      assert.strictEqual(read.status, 200)
      assert.strictEqual(read.body.mode, "system")
      assert.strictEqual(read.body.now, new Date(yield* Clock.currentTimeMillis).toISOString())

      for (const body of [{ advanceSeconds: 60 }, { to: "2999-01-01T00:00:00Z" }]) {
        const reply = yield* call("POST", "/v1/sandbox/clock", { token: keyValue, body })
        assert.strictEqual(reply.status, 409)
        assert.strictEqual(reply.body.ok, false)
        assert.strictEqual(reply.body.error.type, "conflict")
        assert.include(reply.body.error.next, "OUTREACH_CLOCK=test")
      }
      // Bodies are still checked first.
      assertBadRequest(yield* call("POST", "/v1/sandbox/clock", { token: keyValue, body: {} }))
    }))
})
