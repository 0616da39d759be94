/**
 * The tiers' global setup (vitest `globalSetup`): migrates once per test run
 * the template every storage test copies (see `TestDatabase.ts`), a PGlite's
 * dumped data directory in a temporary file or, with `DATABASE_URL`, a database
 * on that server, and names it to the test workers in the environment. Both
 * are removed when the run ends. A second project's setup in the same run finds
 * the templates named already and leaves them to the first.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Exit, Scope } from "effect"
import { backend, migratedPglite, migratedPostgresTemplate, serverDatabaseUrl, templateVariables } from "./TestDatabase.ts"

const variable = templateVariables[backend]

/** The template for this run's backend, in `scope`: the value its environment variable names. */
const template = (scope: Scope.Scope): Effect.Effect<string> =>
  serverDatabaseUrl === undefined
    ? Effect.gen(function*() {
      const dir = yield* Scope.provide(scope)(Effect.acquireRelease(
        Effect.sync(() => mkdtempSync(join(tmpdir(), "outreach-template-"))),
        (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
      ))
      const dump = yield* migratedPglite
      const bytes = yield* Effect.promise(() => dump.arrayBuffer())
      const file = join(dir, "pglite.tar")
      writeFileSync(file, new Uint8Array(bytes))
      return file
    })
    : Scope.provide(scope)(migratedPostgresTemplate(serverDatabaseUrl))

export default async function setup(): Promise<undefined | (() => Promise<void>)> {
  if (process.env[variable] !== undefined) return undefined
  const scope = Effect.runSync(Scope.make())
  process.env[variable] = await Effect.runPromise(template(scope))
  return async () => {
    delete process.env[variable]
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}
