/**
 * A humane stop, with the real process: SIGINT ends open long-polls at once
 * with the job as it is, lets the rest finish, and exits; a second signal
 * exits at once.
 */
import { connect } from "node:net"
import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import { keyIn, send, startServer, storage } from "../support/Processes.ts"
import { backend } from "../support/TestDatabase.ts"

const exitOf = (child: import("node:child_process").ChildProcess) =>
  Effect.callback<number | null>((resume) => {
    if (child.exitCode !== null) return resume(Effect.succeed(child.exitCode))
    child.once("exit", (code) => resume(Effect.succeed(code)))
  })

it.live(`SIGINT during a long-poll: the client gets its job at once and the process exits (${backend})`, () =>
  Effect.gen(function*() {
    const env = yield* storage
    const server = yield* startServer(env)
    const key = keyIn(server.output())
    const created = yield* send("POST", `${server.base}/v1/accounts/connect`, key, { label: "Ada" })
    const accountId = created.body.account.id
    yield* send("POST", `${server.base}/v1/sandbox/accounts/${accountId}/complete-connection`, key, {})
    // Mode approve (the default): the connect waits for a person, so the long-poll would wait its 60 s.
    const job = yield* send("POST", `${server.base}/v1/accounts/${accountId}/connect`, key, { person: "maria-garcia-3a9f02c1b" })
    assert.strictEqual(job.status, 202, JSON.stringify(job.body))
    const poll = Effect.runPromise(send("GET", `${server.base}/v1/jobs/${job.body.job.id}?wait=60`, key))
    yield* Effect.sleep("500 millis")
    const signalled = Date.now()
    server.child.kill("SIGINT")
    const answer = yield* Effect.promise(() => poll)
    const answeredIn = Date.now() - signalled
    assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
    assert.strictEqual(answer.body.job.status, "awaiting_approval")
    assert.isBelow(answeredIn, 2000)
    const code = yield* exitOf(server.child)
    assert.isBelow(Date.now() - signalled, 2000, server.output())
    assert.strictEqual(code, 0, server.output())
    assert.include(server.output(), "shutdown began")
  }), 60_000)

it.live(`a second SIGINT exits at once while the first waits for a request in flight (${backend})`, () =>
  Effect.gen(function*() {
    const env = yield* storage
    const server = yield* startServer(env)
    const port = Number(new URL(server.base).port)
    // A client that sends half a request and waits: the graceful stop waits for it.
    const socket = connect(port, "127.0.0.1")
    yield* Effect.callback<void>((resume) => {
      socket.once("connect", () => resume(Effect.void))
    })
    socket.write("POST /v1/keys HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{\"name\":")
    // Time for the server to take the request in, even on a busy machine.
    yield* Effect.sleep("1000 millis")
    server.child.kill("SIGINT")
    yield* Effect.sleep("1500 millis")
    assert.isNull(server.child.exitCode, `the first signal should wait for the request in flight:\n${server.output()}`)
    const signalled = Date.now()
    server.child.kill("SIGINT")
    const code = yield* exitOf(server.child)
    assert.isBelow(Date.now() - signalled, 1000)
    assert.strictEqual(code, 130)
    assert.include(server.output(), "second signal: exiting now")
    socket.destroy()
  }), 60_000)
