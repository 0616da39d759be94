import { existsSync, readFileSync } from "node:fs"
import { assert, describe, it } from "@effect/vitest"

const copies = [
  ["docs/spec/outreach-api.md", "../shared/spec/outreach-api.md"],
  ["docs/spec/decisions.md", "../shared/docs/decisions.md"]
] as const

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8")

describe("the contract in the repository", () => {
  it("docs/spec holds the API specification and the product decisions", () => {
    assert.include(read("docs/spec/outreach-api.md"), "# Outreach Automation Service API Specification")
    assert.include(read("docs/spec/decisions.md"), "# Product decisions")
  })

  it("the copies match the shared originals where those sit beside the repository", () => {
    for (const [copy, original] of copies) {
      if (!existsSync(new URL(`../../${original}`, import.meta.url))) continue
      assert.strictEqual(read(copy), read(original), `${copy} is stale: copy ${original} over it`)
    }
  })
})
