/**
 * The example app under `examples/own-driver`, run as its author runs it: a
 * separate process that imports the package by name, plugs in its own network
 * driver and runs a read and a write through the Governor.
 */
import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import { run } from "../support/Processes.ts"

it.live("the own-driver example runs a read and a write on its own driver, and exits 0", () =>
  Effect.gen(function*() {
    const outcome = yield* run("examples/own-driver/main.ts", [], {})
    assert.strictEqual(outcome.code, 0, outcome.output)
    assert.match(outcome.output, /account [0-9a-f-]+: warming/)
    assert.match(outcome.output, /get_profile: completed \{"name":"Grace Hopper"/)
    assert.match(outcome.output, /send_message: completed .*"recipientProviderId":"ACoAAExample1"/)
  }), 90_000)
