/**
 * Every request snippet the API reference (`/docs`) shows, run as a reader
 * pastes it: the page rendered by a real browser (Debian's chromium through
 * playwright-core), each operation's `curl` snippet read from it, the reader's
 * two edits made (their key for `YOUR_SECRET_TOKEN`, an id for `{id}`), and
 * run with curl against the service. Each snippet sends
 * `Authorization: Bearer …` (not `Basic username:password`), and the service
 * takes it: no snippet is refused for its credentials or for a malformed
 * request; an id that names nothing answers 404, as documented.
 */
import { execFile } from "node:child_process"
import { afterAll, assert, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { HttpServer } from "effect/http"
import type { Page } from "playwright-core"
import { closeAll, open } from "../support/Browser.ts"
import { call, layer as serverLayer, newWorkspace } from "../support/TestServer.ts"

const baseUrl = Effect.gen(function*() {
  const server = yield* HttpServer.HttpServer
  const address = server.address
  if (address._tag === "UnixPathAddress") return yield* Effect.die(new Error("no TCP address"))
  return `http://127.0.0.1:${address.port}`
})

const Document = Schema.Struct({
  tags: Schema.Array(Schema.Struct({ name: Schema.String })),
  paths: Schema.Record(Schema.String, Schema.Record(Schema.String, Schema.Struct({
    tags: Schema.optionalKey(Schema.Array(Schema.String)),
    security: Schema.optionalKey(Schema.Array(Schema.Record(Schema.String, Schema.Array(Schema.String)))),
    responses: Schema.Record(Schema.String, Schema.Unknown)
  })))
})

/** `METHOD /path` of a snippet: its URL's path, and `--request` (GET when absent). */
const operationOf = (snippet: string, base: string): string => {
  const url = /^curl '?([^'\s]+)/.exec(snippet)?.[1] ?? ""
  const method = /--request (\w+)/.exec(snippet)?.[1] ?? "GET"
  return `${method} ${url.replace(base, "").split("?")[0]}`
}

/**
 * The page's `curl` snippets, by operation, once those of `wanted` are all rendered (the
 * browser renders a section in steps, as it scrolls into view), or after 20 seconds.
 */
const rendered = async (page: Page, base: string, wanted: ReadonlyArray<string>): Promise<ReadonlyMap<string, string>> => {
  const deadline = Date.now() + 20_000
  for (;;) {
    const texts = (await page.locator("pre, code").allTextContents()).filter((text) => text.startsWith("curl"))
    const shown = new Map(texts.map((text) => [operationOf(text, base), text]))
    if (wanted.every((name) => shown.has(name)) || Date.now() > deadline) return shown
    await page.mouse.wheel(0, 2000)
    await page.waitForTimeout(200)
  }
}

/** Runs a snippet in bash as pasted, with curl told to print only the status. */
const runSnippet = (snippet: string) =>
  Effect.callback<string>((resume) => {
    execFile("bash", ["-c", `${snippet.trimEnd()} --silent --max-time 90 --output /dev/null --write-out '%{http_code}'`], (error, stdout, stderr) =>
      resume(Effect.succeed(error === null ? stdout : `failed: ${error.message} ${stderr}`)))
  })

layer(serverLayer())("the API reference's snippets", (it) => {
  afterAll(closeAll)
  it.effect("show a Bearer header, and each runs as pasted", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { keyValue: token } = yield* newWorkspace()
      const spec = Schema.decodeUnknownSync(Document)((yield* call("GET", "/openapi.json")).body)
      const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
        Object.entries(item).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, tags: operation.tags ?? [] }))
      )
      const browser = yield* Effect.promise(() => open())
      const page = yield* Effect.promise(() => browser.newPage())
      // Each tag's section renders its operations' snippets; walk them all.
      const snippets = new Map<string, string>()
      for (const tag of spec.tags) {
        const slug = tag.name.toLowerCase().replace(/[^a-z0-9]+/g, "-")
        const wanted = operations.filter((operation) => operation.tags.includes(tag.name)).map((operation) => operation.name)
        yield* Effect.promise(() => page.goto(`${base}/docs#tag/${slug}`))
        for (const [name, text] of yield* Effect.promise(() => rendered(page, base, wanted))) snippets.set(name, text)
        // An operation the section did not render: go to it.
        for (const name of wanted.filter((name) => !snippets.has(name))) {
          const [method, path] = name.split(" ")
          yield* Effect.promise(() => page.goto(`${base}/docs#tag/${slug}/${method}${path}`))
          for (const [shown, text] of yield* Effect.promise(() => rendered(page, base, [name]))) snippets.set(shown, text)
        }
      }
      const missing = operations.map((operation) => operation.name).filter((name) => !snippets.has(name))
      assert.deepStrictEqual(missing, [], "operations without a snippet on /docs")
      assert.strictEqual(snippets.size, operations.length)

      const refused: Array<string> = []
      for (const [operation, snippet] of snippets) {
        const [method, path] = operation.split(" ")
        const documented = spec.paths[path]?.[method.toLowerCase()]
        if ((documented?.security ?? []).some((scheme) => "bearer" in scheme)) {
          assert.include(snippet, "--header 'Authorization: Bearer YOUR_SECRET_TOKEN'", operation)
          assert.notInclude(snippet, "Basic", operation)
        }
        const pasted = snippet.replaceAll("YOUR_SECRET_TOKEN", token).replace(/\{[a-zA-Z]+\}/g, () => crypto.randomUUID())
        const status = yield* runSnippet(pasted)
        // Neither the credentials nor the request's shape are refused; 404 for an id that names nothing is documented.
        if (!/^\d{3}$/.test(status) || ["400", "401", "403", "415", "500"].includes(status) || !(status in (documented?.responses ?? {}))) {
          refused.push(`${operation} answered ${status}:\n${pasted}`)
        }
      }
      assert.deepStrictEqual(refused, [], refused.join("\n\n"))
    }), 300_000)
})
