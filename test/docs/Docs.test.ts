import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { renderLimits } from "../../scripts/write-docs.ts"

describe("generated docs", () => {
  it("docs/limits.md matches the tier table in code (run `npm run docs`)", () => {
    const checkedIn = readFileSync(new URL("../../docs/limits.md", import.meta.url), "utf8")
    assert.strictEqual(checkedIn, renderLimits(), "docs/limits.md is stale: run `npm run docs`")
  })
})

describe("links", () => {
  const root = new URL("../../", import.meta.url).pathname
  const pages = ["README.md", ...readdirSync(`${root}docs`).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)]

  it("every relative link of the README and docs/ reaches a file of the repository", () => {
    const broken = pages.flatMap((page) =>
      [...readFileSync(`${root}${page}`, "utf8").matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
        .map((match) => match[1])
        .filter((target) => !/^[a-z]+:/.test(target))
        .filter((target) => !existsSync(join(root, dirname(page), target)))
        .map((target) => `${page} -> ${target}`)
    )
    assert.deepStrictEqual(broken, [])
  })

  it("the README is a guide, not the reference: at most 12 KB", () => {
    assert.isAtMost(statSync(`${root}README.md`).size, 12 * 1024)
  })
})
