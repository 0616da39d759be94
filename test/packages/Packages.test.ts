/**
 * The client packages as an integrator installs them: each built
 * (`npm run build:packages`), packed (`npm pack`), and installed from its
 * tarball into a fresh project OFFLINE (effect, the client's one dependency,
 * packed from this repository's own copy), then imported by plain JavaScript on
 * Node with type stripping off, and type-checked from a TypeScript file:
 *
 * - `outreach-webhooks` alone installs with nothing else, under 1 MB, and
 *   verifies a signature it did not make;
 * - `outreach-client` calls the running service with the Promise API and the
 *   Effect API, and a failure rejects with the envelope's message and type.
 */
import { execFile } from "node:child_process"
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { HttpServer } from "effect/http"
import { build, packages } from "../../scripts/build-packages.ts"
import { sign } from "../../src/webhooks/Verify.ts"
import { layer as serverLayer, newWorkspace } from "../support/TestServer.ts"

const root = new URL("../../", import.meta.url).pathname

const baseUrl = Effect.map(HttpServer.HttpServer, (server) =>
  server.address._tag === "UnixPathAddress" ? "" : `http://127.0.0.1:${server.address.port}`)

/** Runs a command to its end: its exit code and output. */
const exec = (command: string, args: ReadonlyArray<string>, cwd: string) =>
  Effect.callback<{ readonly code: number; readonly stdout: string; readonly output: string }>((resume) => {
    execFile(command, [...args], { cwd, env: { ...process.env, npm_config_update_notifier: "false" }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resume(Effect.succeed({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, output: `${stdout}${stderr}` })))
  })

/** A fresh directory, removed with the test's scope. */
const tempDir = (prefix: string) =>
  Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), prefix))),
    (path) => Effect.sync(() => rmSync(path, { recursive: true, force: true }))
  )

/** `npm pack` of `dir` into `into`: the tarball's path. */
const pack = (dir: string, into: string) =>
  Effect.gen(function*() {
    const packed = yield* exec("npm", ["pack", "--pack-destination", into, dir], root)
    assert.strictEqual(packed.code, 0, packed.output)
    const name = packed.stdout.trim().split("\n").at(-1) ?? ""
    return join(into, name)
  })

/** A fresh project with the tarballs installed offline, nothing fetched. */
const project = (tarballs: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const dir = yield* tempDir("outreach-consumer-")
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true, type: "module" }))
    const installed = yield* exec("npm", ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", ...tarballs], dir)
    assert.strictEqual(installed.code, 0, installed.output)
    return dir
  })

const sizeOf = (path: string): number =>
  statSync(path).isDirectory() ? readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0) : statSync(path).size

/** Runs a plain JavaScript file with Node's type stripping off: nothing may need it. */
const runJs = (dir: string, name: string, code: string) =>
  Effect.gen(function*() {
    writeFileSync(join(dir, name), code)
    return yield* exec(process.execPath, ["--no-experimental-strip-types", name], dir)
  })

layer(serverLayer())("the client packages, packed and installed offline", (it) => {
  it.effect("outreach-webhooks installs alone, under 1 MB, and verifies a signature", () =>
    Effect.gen(function*() {
      const tarballs = yield* tempDir("outreach-tarballs-")
      build("webhooks")
      const dir = yield* project([yield* pack(packages.webhooks.dir, tarballs)])
      assert.deepStrictEqual(readdirSync(join(dir, "node_modules")).filter((name) => !name.startsWith(".")), ["outreach-webhooks"])
      const size = sizeOf(join(dir, "node_modules"))
      assert.isBelow(size, 1024 * 1024)
      console.log(`outreach-webhooks installed: ${(size / 1024).toFixed(1)} KB`)
      const secret = "whsec_" + Buffer.alloc(32, 7).toString("base64")
      const body = JSON.stringify({ type: "job.completed" })
      const now = Math.floor(Date.now() / 1000)
      const result = yield* runJs(dir, "verify.mjs", `
        import { verifyWebhook, signatureHeader, timestampHeader } from "outreach-webhooks"
        const headers = { [timestampHeader]: "${now}", [signatureHeader]: "${sign(secret, now, body)}" }
        const good = verifyWebhook("${secret}", headers, ${JSON.stringify(body)})
        const forged = verifyWebhook("${secret}", headers, ${JSON.stringify(body)} + " ")
        console.log(JSON.stringify({ good, forged }))
      `)
      assert.strictEqual(result.code, 0, result.output)
      const { forged, good } = JSON.parse(result.stdout)
      assert.strictEqual(good.ok, true)
      assert.strictEqual(forged.ok, false)
    }), 240_000)

  it.effect("outreach-client installs with effect only, and its Promise and Effect APIs call the service", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const base = yield* baseUrl
      const tarballs = yield* tempDir("outreach-tarballs-")
      build("client")
      const effectTarball = yield* pack(join(root, "node_modules/effect"), tarballs)
      const dir = yield* project([effectTarball, yield* pack(packages.client.dir, tarballs)])
      const client = sizeOf(join(dir, "node_modules/outreach-client"))
      const total = sizeOf(join(dir, "node_modules"))
      console.log(`outreach-client installed: ${(client / 1024 / 1024).toFixed(2)} MB itself, ${(total / 1024 / 1024).toFixed(1)} MB with effect`)
      const result = yield* runJs(dir, "client.mjs", `
        import { Effect } from "effect"
        import * as Client from "outreach-client"
        const client = Client.makePromise({ baseUrl: "${base}", apiKey: "${keyValue}" })
        const me = await client.identity.me()
        const { accounts } = await client.approvals.list({ query: {} }).then(() => client.accounts.list())
        const missing = await client.accounts.get({ params: { id: "${crypto.randomUUID()}" } }).then(() => null, (error) => error)
        const viaEffect = await Effect.runPromise(Effect.flatMap(Client.make({ baseUrl: "${base}", apiKey: "${keyValue}" }), (c) => c.identity.me()))
        console.log(JSON.stringify({
          kind: me.kind,
          accounts: accounts.length,
          error: { isOutreachError: missing instanceof Client.OutreachError, type: missing.type, message: missing.message },
          viaEffect: viaEffect.kind
        }))
      `)
      assert.strictEqual(result.code, 0, result.output)
      const answer = JSON.parse(result.stdout)
      assert.strictEqual(answer.kind, "key")
      assert.strictEqual(answer.accounts, 0)
      assert.deepInclude(answer.error, { isOutreachError: true, type: "notFound" })
      assert.match(answer.error.message, /No account/)
      assert.strictEqual(answer.viaEffect, "key")

      // The declarations type-check a consumer's TypeScript.
      writeFileSync(join(dir, "consumer.ts"), [
        `import { makePromise, OutreachError } from "outreach-client"`,
        `const client = makePromise({ baseUrl: "http://127.0.0.1:8080", apiKey: "svc_" })`,
        `export const approvals: Promise<{ readonly approvals: ReadonlyArray<{ readonly id: string }> }> = client.approvals.list({ query: {} })`,
        `export const isError = (error: unknown): string | undefined => error instanceof OutreachError ? error.type : undefined`,
        `// @ts-expect-error: a command's input is checked`,
        `export const wrong = client.jobs.create({ headers: {}, payload: { account: "x", command: "connect", input: { nobody: 1 } } })`
      ].join("\n"))
      const checked = yield* exec(process.execPath, [
        join(root, "node_modules/typescript/bin/tsc"),
        "--ignoreConfig",
        "--noEmit",
        "--strict",
        "--module",
        "nodenext",
        "--moduleResolution",
        "nodenext",
        "--target",
        "es2024",
        "--lib",
        "es2024",
        "--skipLibCheck",
        "--types",
        "",
        "consumer.ts"
      ], dir)
      assert.strictEqual(checked.code, 0, checked.output)
    }), 300_000)
})
