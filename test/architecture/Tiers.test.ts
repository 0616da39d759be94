/**
 * Every test file runs in exactly one tier (test/support/Tiers.ts): the
 * vitest projects of `vitest.config.ts` and the chaos suite's configuration
 * between them collect each file once, so a new file runs somewhere CI runs
 * (in `db` unless it is listed elsewhere) and none runs twice. The lists name
 * only files that exist, and the fast tier (`npm test`) reaches no database
 * and no server process through the test support.
 */
import { globSync } from "node:fs"
import { join, matchesGlob } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import packageJson from "../../package.json" with { type: "json" }
import chaosConfig from "../../vitest.chaos.config.ts"
import config from "../../vitest.config.ts"
import * as Tiers from "../support/Tiers.ts"
import { fromRoot, importsOf, root } from "./Sources.ts"

const testFiles = globSync(Tiers.all, { cwd: root }).sort()

const matchesAny = (file: string, patterns: ReadonlyArray<string>) =>
  patterns.some((pattern) => matchesGlob(file, pattern))

/** Each tier with the patterns it collects and leaves out, as vitest reads them. */
const tiers: ReadonlyArray<{ readonly name: string; readonly include: ReadonlyArray<string>; readonly exclude: ReadonlyArray<string> }> = [
  ...Tiers.projects.map(({ test }) => ({ name: test.name, include: test.include, exclude: test.exclude ?? [] })),
  { name: "chaos", include: chaosConfig.test?.include ?? [], exclude: chaosConfig.test?.exclude ?? [] }
]

const tiersOf = (file: string) =>
  tiers.filter((tier) => matchesAny(file, tier.include) && !matchesAny(file, tier.exclude)).map((tier) => tier.name)

describe("test tiers", () => {
  it("vitest runs the tiers' projects, and npm's scripts name them", () => {
    assert.strictEqual(config.test?.projects, Tiers.projects)
    assert.deepStrictEqual(chaosConfig.test?.include, [...Tiers.chaos])
    assert.strictEqual(packageJson.scripts.test, "vitest run --project fast")
    assert.strictEqual(packageJson.scripts["test:db"], "vitest run --project db")
    assert.strictEqual(packageJson.scripts["test:slow"], "vitest run --project slow")
  })

  it("every test file is in exactly one tier", () => {
    assert.isAbove(testFiles.length, 100)
    const misplaced = testFiles
      .map((file) => ({ file, in: tiersOf(file) }))
      .filter((placed) => placed.in.length !== 1)
    assert.deepStrictEqual(misplaced, [], "a test file in no tier or in two: fix test/support/Tiers.ts")
  })

  it("a new file defaults to the db tier", () => {
    assert.deepStrictEqual(tiersOf("test/somewhere/New.test.ts"), ["db"])
  })

  it("every listed pattern matches a test file", () => {
    const stale = [...Tiers.fast, ...Tiers.slow, ...Tiers.chaos, ...Tiers.longest].filter((pattern) =>
      !testFiles.some((file) => matchesGlob(file, pattern))
    )
    assert.deepStrictEqual(stale, [])
  })

  it("the fast tier reaches no database and no server process through the test support", () => {
    const heavy = ["TestDatabase.ts", "TestServer.ts", "Runners.ts", "Processes.ts", "OwnPostgres.ts", "Browser.ts"]
      .map((name) => join(root, "test", "support", name))
    const testDir = join(root, "test")
    /** The test-side modules `file` reaches through relative imports (src/ is not followed). */
    const reached = (file: string, seen: Set<string>): Set<string> => {
      for (const { target } of importsOf(file)) {
        if (target === undefined || !target.startsWith(testDir) || seen.has(target)) continue
        seen.add(target)
        reached(target, seen)
      }
      return seen
    }
    const offending = testFiles
      .filter((file) => tiersOf(file).includes("fast"))
      .flatMap((file) => [...reached(join(root, file), new Set())].filter((module) => heavy.includes(module)).map((module) =>
        `${file} -> ${fromRoot(module)}`
      ))
    assert.deepStrictEqual(offending, [], "these belong in the db or slow tier (test/support/Tiers.ts)")
  })
})
