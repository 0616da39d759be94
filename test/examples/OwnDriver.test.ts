/**
 * The example app under `examples/own-driver`, run as its author runs it: a
 * separate process that imports the package by name, plugs in its own network
 * driver and runs a read and a write through the Governor.
 */
import { execFile } from "node:child_process"
import { assert, it } from "@effect/vitest"
import { Effect } from "effect"

const root = new URL("../../", import.meta.url).pathname

it.live("the own-driver example runs a read and a write on its own driver, and exits 0", () =>
  Effect.gen(function*() {
    const outcome = yield* Effect.promise(() =>
      new Promise<{ readonly code: number; readonly output: string }>((resolve) => {
        execFile(process.execPath, ["examples/own-driver/main.ts"], { cwd: root, timeout: 60_000 }, (error, stdout, stderr) =>
          resolve({ code: error === null ? 0 : Number(error.code ?? 1), output: stdout + stderr }))
      })
    )
    assert.strictEqual(outcome.code, 0, outcome.output)
    assert.match(outcome.output, /account [0-9a-f-]+: warming/)
    assert.match(outcome.output, /get_profile: completed \{"name":"Grace Hopper"/)
    assert.match(outcome.output, /send_message: completed .*"recipientProviderId":"ACoAAExample1"/)
  }), 90_000)
