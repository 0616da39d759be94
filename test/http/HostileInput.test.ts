/**
 * The twelve findings of the hostile-input run (issue #21), each reproduced
 * against the real server: none may answer 500, drop a field silently, or
 * change the operation; every failure is the envelope.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { NetworkDriver } from "../../src/network/NetworkDriver.ts"
import { connectedAccount } from "../jobs/support.ts"
import { call, layer as serverLayer, newWorkspace, rawCall, type Reply } from "../support/TestServer.ts"

const assertEnvelope = (reply: Reply, status: number, type: string) => {
  assert.strictEqual(reply.status, status, JSON.stringify(reply.body))
  assert.deepStrictEqual(Object.keys(reply.body).sort(), ["error", "ok"])
  assert.strictEqual(reply.body.error.type, type)
  assert.isNotEmpty(reply.body.error.next)
}

const raw = (lines: ReadonlyArray<string>, body = "") => lines.join("\r\n") + "\r\n\r\n" + body

// Webhooks go to a closed port on this machine: nothing here may send traffic elsewhere.
layer(serverLayer({ allowPrivateWebhooks: true }))("hostile input", (it) => {
  it.effect("1. NUL in a stored string, a command input or a query: 400 naming the field, never 500", () =>
    Effect.gen(function*() {
      const { keyValue: token } = yield* newWorkspace()
      const key = yield* call("POST", "/v1/keys", { token, body: { name: "a\u0000b" } })
      assertEnvelope(key, 400, "badRequest")
      assert.include(key.body.error.message, "body.name")
      const label = yield* call("POST", "/v1/accounts/connect", { token, body: { label: "x\u0000" } })
      assertEnvelope(label, 400, "badRequest")
      assert.include(label.body.error.message, "body.label")
      const account = yield* connectedAccount(token)
      const note = yield* call("POST", `/v1/accounts/${account}/connect`, {
        token,
        body: { person: "maria-garcia", note: "hi\u0000" }
      })
      assertEnvelope(note, 400, "badRequest")
      assert.include(note.body.error.message, "body.note")
      const search = yield* call("GET", "/v1/people?q=%00", { token })
      assertEnvelope(search, 400, "badRequest")
      assert.include(search.body.error.message, "query.q")
    }))

  it.effect("2. a lone surrogate in a jsonb-stored input: 400 naming the field; a surrogate pair is fine", () =>
    Effect.gen(function*() {
      const { keyValue: token } = yield* newWorkspace()
      const account = yield* connectedAccount(token)
      const lone = yield* call("POST", `/v1/accounts/${account}/send_message`, {
        token,
        raw: { text: "{\"person\":\"maria-garcia\",\"text\":\"x\\ud800y\"}", contentType: "application/json" }
      })
      assertEnvelope(lone, 400, "badRequest")
      assert.include(lone.body.error.message, "body.text")
      const pair = yield* call("POST", `/v1/accounts/${account}/send_message`, {
        token,
        body: { person: "maria-garcia", text: "Thanks \u{1F600}" }
      })
      assert.strictEqual(pair.status, 202, JSON.stringify(pair.body))
    }))

  it.effect("3. a chunked body over the limit: 413 in the envelope, like a sized one", () =>
    Effect.gen(function*() {
      const { keyValue: token } = yield* newWorkspace()
      const chunk = "a".repeat(64 * 1024)
      const chunks = Array.from({ length: 20 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`)
      const reply = yield* rawCall([
        raw([
          "POST /v1/keys HTTP/1.1",
          "Host: localhost",
          `Authorization: Bearer ${token}`,
          "Content-Type: application/json",
          "Transfer-Encoding: chunked",
          "Connection: close"
        ]),
        ...chunks,
        "0\r\n\r\n"
      ])
      assert.strictEqual(reply.status, 413, reply.body)
      assert.strictEqual(JSON.parse(reply.body).error.type, "payloadTooLarge")
    }))

  it.effect("4. ssi takes no input: fields, junk and deep JSON are 400, not stored, never 500", () =>
    Effect.gen(function*() {
      const { keyValue: token } = yield* newWorkspace()
      const account = yield* connectedAccount(token)
      const junk = yield* call("POST", `/v1/accounts/${account}/ssi`, { token, body: { junk: "x".repeat(900_000) } })
      assertEnvelope(junk, 400, "badRequest")
      const deep = "[".repeat(10_000) + "]".repeat(10_000)
      const nested = yield* call("POST", `/v1/accounts/${account}/ssi`, {
        token,
        raw: { text: `{"a":${deep}}`, contentType: "application/json" }
      })
      assertEnvelope(nested, 400, "badRequest")
      const deepSteps = yield* call("POST", "/v1/workflows", {
        token,
        raw: {
          text: `{"account":"${account}","person":"maria-garcia","steps":${"[{\"type\":\"if\",\"condition\":{\"type\":\"accepted\"},\"then\":".repeat(3000)}[]${"}]".repeat(3000)}}`,
          contentType: "application/json"
        }
      })
      assertEnvelope(deepSteps, 400, "badRequest")
      const jobs = yield* call("GET", `/v1/jobs?account=${account}`, { token })
      assert.deepStrictEqual(jobs.body.jobs, [])
      const none = yield* call("POST", `/v1/accounts/${account}/ssi`, { token, body: {} })
      assert.strictEqual(none.status, 202, JSON.stringify(none.body))
    }))

  it.effect("5. 100,000 bad items: a 400 of a few hundred bytes that says how many more", () =>
    Effect.gen(function*() {
      const { keyValue: token } = yield* newWorkspace()
      const reply = yield* call("POST", "/v1/webhooks", {
        token,
        body: { url: "https://example.com/hook", events: Array.from({ length: 100_000 }, () => "x") }
      })
      assertEnvelope(reply, 400, "badRequest")
      assert.isBelow(JSON.stringify(reply.body).length, 4096)
      assert.include(reply.body.error.message, "body.events.0")
      assert.match(reply.body.error.message, /and \d+ more$/)
    }))

  it.effect("6. a misspelled setting is a 400 naming it, and nothing of the request is applied", () =>
    Effect.gen(function*() {
      const { keyValue: token } = yield* newWorkspace()
      const account = yield* connectedAccount(token, { mode: "approve" })
      const reply = yield* call("PATCH", `/v1/accounts/${account}`, {
        token,
        body: { mode: "autopilot", minInviteQualty: 90 }
      })
      assertEnvelope(reply, 400, "badRequest")
      assert.include(reply.body.error.message, "body.minInviteQualty")
      assert.include(reply.body.error.message, "unknown field")
      const after = yield* call("GET", `/v1/accounts/${account}`, { token })
      assert.strictEqual(after.body.account.mode, "approve")
      // The same rule inside a command's input (POST /v1/jobs) and a workflow step's input.
      const job = yield* call("POST", "/v1/jobs", {
        token,
        body: { account, command: "connect", input: { person: "maria-garcia", note: "hi", notee: "x" } }
      })
      assertEnvelope(job, 400, "badRequest")
      assert.include(job.body.error.message, "notee")
      const step = yield* call("POST", "/v1/workflows", {
        token,
        body: { account, person: "maria-garcia", steps: [{ type: "command", command: "connect", input: { nte: "x" } }] }
      })
      // A step's input is described in words as its command's, so its mismatch is 422.
      assertEnvelope(step, 422, "unprocessable")
      assert.include(step.body.error.message, "nte")
    }))

  it.effect("7. `;` in a path never reaches another operation", () =>
    Effect.gen(function*() {
      const { keyValue: token } = yield* newWorkspace()
      const account = yield* connectedAccount(token)
      const created = yield* call("POST", "/v1/webhooks", { token, body: { url: "http://127.0.0.1:9/hook" } })
      assert.strictEqual(created.status, 201, JSON.stringify(created.body))
      const id: string = created.body.webhook.id
      const deleted = yield* call("DELETE", `/v1/webhooks/${id};/deliveries`, { token })
      assertEnvelope(deleted, 404, "notFound")
      assert.strictEqual(deleted.headers["ratelimit-limit"], "600")
      const still = yield* call("GET", `/v1/webhooks/${id}`, { token })
      assert.strictEqual(still.status, 200, JSON.stringify(still.body))
      const limits = yield* call("GET", `/v1/accounts/${account};x=1/limits`, { token })
      assertEnvelope(limits, 404, "notFound")
    }))

  it.effect("8. an over-long or undecodable path parameter is 400, not a 405 that contradicts itself", () =>
    Effect.gen(function*() {
      const { keyValue: token } = yield* newWorkspace()
      for (const id of ["a".repeat(150), "%zz"]) {
        const reply = yield* call("POST", `/v1/accounts/${id}/pause`, { token })
        assertEnvelope(reply, 400, "badRequest")
      }
      const wrong = yield* call("DELETE", "/v1/me", { token })
      assertEnvelope(wrong, 405, "methodNotAllowed")
      assert.strictEqual(wrong.headers["allow"], "GET")
    }))

  it.effect("9. what Node's parser refuses, and a wrong method on /healthz, get the envelope", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [string, number, string]> = [
        [raw(["FOO /v1/me HTTP/1.1", "Host: localhost"]), 400, "badRequest"],
        [raw(["GET /v1/me HTTP/1.1", "Host: localhost", "Content-Length: 5", "Transfer-Encoding: chunked"]), 400, "badRequest"],
        [raw(["GET /v1/me HTTP/1.1", "Host: localhost", "Bad Header: x"]), 400, "badRequest"],
        [raw(["GET /v1/me HTTP/1.1", "Host: localhost", `X-Big: ${"a".repeat(20_000)}`]), 431, "headersTooLarge"],
        [raw(["GET /v1/me HTTP/1.1", "Connection: close"]), 400, "badRequest"],
        [raw(["POST /healthz HTTP/1.1", "Host: localhost", "Connection: close", "Content-Length: 0"]), 405, "methodNotAllowed"]
      ]
      for (const [request, status, type] of cases) {
        const reply = yield* rawCall(request)
        assert.strictEqual(reply.status, status, request.slice(0, 40) + " -> " + reply.body)
        const body = JSON.parse(reply.body)
        assert.strictEqual(body.ok, false)
        assert.strictEqual(body.error.type, type)
        assert.isNotEmpty(body.error.next)
        assert.strictEqual(reply.headers["content-type"], "application/json")
        if (request.startsWith("POST /healthz")) assert.strictEqual(reply.headers["allow"], "GET")
        else assert.strictEqual(reply.headers["ratelimit-limit"], "600")
      }
    }))

  it.effect("10. the document states 405, 413, 415 and the rules the server enforces", () =>
    Effect.gen(function*() {
      const doc = (yield* call("GET", "/openapi.json")).body
      const keys = doc.paths["/v1/keys"]
      for (const status of ["405", "413", "415"]) assert.property(keys.post.responses, status)
      assert.notProperty(keys.get.responses, "413")
      const schemas = doc.components.schemas
      assert.deepStrictEqual(schemas.GetPostsInput.allOf[0].oneOf, [{ required: ["person"] }, { required: ["company"] }])
      assert.include(schemas.TimeZone.allOf[0].enum, "Europe/Berlin")
      assert.strictEqual(schemas.WorkingHours.properties.from.allOf[0].pattern, "^([01]\\d|2[0-3]):[0-5]\\d$")
      assert.strictEqual(schemas.NativeAuth.properties.country.allOf[0].pattern, "^[A-Za-z]{2}$")
      assert.strictEqual(schemas.CreateKey.properties.name.pattern, "^[^\\u0000\\uD800-\\uDFFF]*$")
      const messages = schemas.StartAutomation
      assert.include(JSON.stringify(messages), "prefixItems")
    }))
})

/** The service with a network driver that is not the sandbox: an embedder's own. */
const ownDriver = Layer.effect(
  NetworkDriver,
  Effect.gen(function*() {
    // One driver for every workspace, as an embedder's own is (not the server's sandbox-and-live pair).
    const { workspaces: _, ...driver } = yield* NetworkDriver
    return { ...driver, name: "own" }
  })
)

layer(serverLayer({}, Layer.empty, ownDriver))("without the sandbox driver", (it) => {
  it.effect("12. the shared sandbox clock is refused entirely", () =>
    Effect.gen(function*() {
      const { keyValue: token } = yield* newWorkspace()
      assertEnvelope(yield* call("GET", "/v1/sandbox/clock", { token }), 404, "notFound")
      const move = yield* call("POST", "/v1/sandbox/clock", { token, body: { advanceSeconds: 60 } })
      assertEnvelope(move, 404, "notFound")
      assert.include(move.body.error.next, "--network sandbox")
    }))
})
