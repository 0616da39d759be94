/**
 * `npm run webhooks:listen`, the first hour's receiver: it answers 204 and
 * prints a delivery signed with its secret, and refuses any other with 400,
 * saying why.
 */
import { spawn } from "node:child_process"
import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import { signatureHeaders } from "../../src/webhooks/Verify.ts"
import { eventually } from "../support/Eventually.ts"
import { freePort, run } from "../support/Processes.ts"

const root = new URL("../../", import.meta.url).pathname
const secret = "whsec_" + "A".repeat(43) + "="

it.effect("verifies what its secret signed and refuses the rest", () =>
  Effect.gen(function*() {
    const port = yield* freePort
    let output = ""
    const child = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const started = spawn(process.execPath, ["examples/webhook-listener/main.ts", "--secret", secret, "--port", String(port)], { cwd: root })
        started.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
        started.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
        return started
      }),
      (started) => Effect.sync(() => started.kill("SIGKILL"))
    )
    yield* eventually("the listener to listen", Effect.sync(() => output), (text) => text.includes("Listening"), 30_000, 50)

    const body = JSON.stringify({ id: "e1", type: "job.completed", createdAt: "2026-11-25T10:00:00.000Z", data: { jobId: "j1" } })
    const post = (headers: Record<string, string>) =>
      Effect.promise(() => fetch(`http://127.0.0.1:${port}/`, { method: "POST", headers, body }).then((r) => r.status))
    const now = Math.floor(Date.now() / 1000)

    assert.strictEqual(yield* post(signatureHeaders(secret, now, body)), 204)
    assert.strictEqual(yield* post(signatureHeaders("whsec_" + "B".repeat(43) + "=", now, body)), 400)
    assert.strictEqual(yield* post(signatureHeaders(secret, now - 3600, body)), 400)
    yield* eventually("three lines", Effect.sync(() => output), (text) => text.split("\n").length >= 5, 5000, 20)
    assert.include(output, `verified job.completed {"jobId":"j1"}`)
    assert.include(output, "rejected badSignature")
    assert.include(output, "rejected tooOld")
    assert.isNull(child.exitCode)
  }), 60_000)

it.live("without a secret it says how to give one and exits 1", () =>
  Effect.gen(function*() {
    // Nor from the environment: an empty WEBHOOK_SECRET gives none.
    const result = yield* run("examples/webhook-listener/main.ts", [], { WEBHOOK_SECRET: "" })
    assert.strictEqual(result.code, 1)
    assert.include(result.output, "--secret whsec_")
  }), 60_000)
