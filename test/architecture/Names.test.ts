/**
 * Rooms that say what they hold (issue #31): no two source files of `src/` share a name, so a
 * name in a stack trace, a search or an import names one module.
 */
import { basename } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { fromRoot, sourcesUnder, src } from "./Sources.ts"

describe("source file names", () => {
  it("no two files of src/ share a name", () => {
    const byName = new Map<string, Array<string>>()
    for (const file of sourcesUnder(src)) byName.set(basename(file), [...(byName.get(basename(file)) ?? []), fromRoot(file)])
    assert.isAbove(byName.size, 250)
    assert.deepStrictEqual([...byName.values()].filter((paths) => paths.length > 1), [])
  })
})
