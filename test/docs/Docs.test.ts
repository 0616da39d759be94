import { readFileSync } from "node:fs"
import { assert, describe, it } from "@effect/vitest"
import { renderLimits } from "../../scripts/write-docs.ts"

describe("generated docs", () => {
  it("docs/limits.md matches the tier table in code (run `npm run docs`)", () => {
    const checkedIn = readFileSync(new URL("../../docs/limits.md", import.meta.url), "utf8")
    assert.strictEqual(checkedIn, renderLimits(), "docs/limits.md is stale: run `npm run docs`")
  })
})
