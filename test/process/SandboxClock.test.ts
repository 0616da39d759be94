/**
 * The test clock across a real restart: `node src/main.ts` with
 * `OUTREACH_CLOCK=test`, moved over HTTP, stopped, started again.
 */
import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import { startServer, stop, storage } from "../support/Processes.ts"
import { backend } from "../support/TestDatabase.ts"

const key = "svc_" + "C".repeat(43)

const request = (url: string, body?: unknown) =>
  Effect.promise(async () => {
    const response = await fetch(url, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: response.status, body: await response.json() as Record<string, unknown> }
  })

it.live(`OUTREACH_CLOCK=test: the time moved over HTTP is where a restart resumes (${backend})`, () =>
  Effect.gen(function*() {
    const env: Record<string, string> = {
      ...(yield* storage),
      OUTREACH_BOOTSTRAP_KEY: key,
      OUTREACH_CLOCK: "test"
    }

    const first = yield* startServer(env)
    const before = yield* request(`${first.base}/v1/sandbox/clock`)
    assert.strictEqual(before.status, 200)
    assert.strictEqual(before.body["mode"], "test")
    const moved = yield* request(`${first.base}/v1/sandbox/clock`, { advanceSeconds: 45 * 86_400 })
    assert.strictEqual(moved.status, 200)
    assert.strictEqual(Date.parse(String(moved.body["now"])), Date.parse(String(before.body["now"])) + 45 * 86_400_000)
    yield* stop(first)

    const second = yield* startServer(env)
    const after = yield* request(`${second.base}/v1/sandbox/clock`)
    assert.strictEqual(after.body["now"], moved.body["now"])
    yield* stop(second)

    // The default clock is the system clock, which refuses moves.
    const system = yield* startServer({ ...env, OUTREACH_CLOCK: "system" })
    const refused = yield* request(`${system.base}/v1/sandbox/clock`, { advanceSeconds: 60 })
    assert.strictEqual(refused.status, 409)
    yield* stop(system)
  }), { timeout: 180_000 })
