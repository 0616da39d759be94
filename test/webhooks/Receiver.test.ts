/**
 * `outreach-service/webhooks` loads the signature scheme and nothing else: no
 * module of the service, no Effect.
 */
import { execFileSync } from "node:child_process"
import { assert, describe, it } from "@effect/vitest"

const root = new URL("../../", import.meta.url).pathname

// Imports the kit by the package's name, as another project would, and lists every file loaded.
const script = `
import { registerHooks } from "node:module"
const loaded = []
registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context) } })
const kit = await import("outreach-service/webhooks")
console.log(JSON.stringify({ exports: Object.keys(kit).sort(), loaded }))
`

describe("the receiver's kit", () => {
  it("outreach-service/webhooks loads only the signature code", () => {
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" })
    const { exports, loaded }: { exports: ReadonlyArray<string>; loaded: ReadonlyArray<string> } = JSON.parse(output)
    assert.include(exports, "verifyWebhook")
    const ours = loaded.filter((url) => url.startsWith(`file://${root}src/`)).map((url) => url.slice(`file://${root}`.length))
    assert.deepStrictEqual(ours.sort(), ["src/webhooks/Receiver.ts", "src/webhooks/Verify.ts"])
    assert.deepStrictEqual(loaded.filter((url) => url.includes("/node_modules/")), [])
  })
})
