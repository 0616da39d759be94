/**
 * The embedding example of docs/library.md, run as an embedder would: copied into a file
 * that imports the package by name, on a PostgreSQL database of its own.
 */
import { spawn } from "node:child_process"
import { readFileSync, rmSync, writeFileSync } from "node:fs"
import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import { freePort } from "../support/Processes.ts"
import { freshPostgresUrl, serverDatabaseUrl } from "../support/TestDatabase.ts"

const root = new URL("../../", import.meta.url).pathname

const example = (): string => {
  const page = readFileSync(new URL("docs/library.md", `file://${root}`), "utf8")
  const block = /## Embedding the core in an Effect app[\s\S]*?```ts\n([\s\S]*?)```/.exec(page)?.[1]
  assert.isDefined(block, "docs/library.md has no embedding example")
  return block ?? ""
}

it.live.skipIf(serverDatabaseUrl === undefined)("the embedding example of docs/library.md starts and serves", () =>
  Effect.gen(function*() {
    const url = yield* freshPostgresUrl(serverDatabaseUrl ?? "")
    const port = yield* freePort
    const file = `${root}.embedding-example.ts`
    writeFileSync(file, example().replace("port: 3000", `port: ${port}`))
    yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(file, { force: true })))
    const child = yield* Effect.acquireRelease(
      Effect.sync(() => spawn(process.execPath, [file], { cwd: root, env: { ...process.env, DATABASE_URL: url } })),
      (started) => Effect.sync(() => started.kill("SIGKILL"))
    )
    const output = yield* Effect.callback<{ readonly text: string }, Error>((resume) => {
      let text = ""
      const onData = (chunk: Buffer) => {
        text += chunk.toString()
        if (text.includes("Listening on")) resume(Effect.succeed({ text }))
      }
      child.stdout.on("data", onData)
      child.stderr.on("data", onData)
      child.on("exit", (code) => resume(Effect.fail(new Error(`exited ${code}:\n${text}`))))
    })
    assert.include(output.text, "Listening on")
    const health = yield* Effect.promise(() => fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.status))
    assert.strictEqual(health, 200)
  }), 60_000)
