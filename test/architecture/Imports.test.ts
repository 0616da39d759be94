/**
 * The import rules of docs/architecture.md, read off the sources so the
 * picture stays true. Each rule lists the edges that break it today as known
 * debt (issue #19 removes them): a new edge that breaks a rule fails here, and
 * so does a debt edge that has gone, so the list only shrinks.
 */
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, normalize, relative } from "node:path"
import { assert, describe, it } from "@effect/vitest"

const root = join(import.meta.dirname, "..", "..")
const src = join(root, "src")

const sources = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith(".ts")
      ? [join(dir, entry.name)]
      : []
  )

/** The part of `src/` a file belongs to: its top folder, or `(wiring)` for src/*.ts. */
const partOf = (file: string): string => {
  const path = relative(src, file).split("/")
  return path.length === 1 ? "(wiring)" : path[0]
}

/** Every import between two parts of `src/`, as `from -> to` with the importing file. */
const edges = sources(src).flatMap((file) =>
  [...readFileSync(file, "utf8").matchAll(/(?:from|import\()\s*"(\.{1,2}\/[^"]+)"/g)].flatMap((match) => {
    const target = normalize(join(dirname(file), match[1]))
    if (!target.startsWith(src)) return []
    const from = partOf(file)
    const to = partOf(target)
    return from === to ? [] : [{ from, to, file: relative(root, file) }]
  })
)

const pairs = (keep: (edge: { readonly from: string; readonly to: string }) => boolean): ReadonlyArray<string> =>
  [...new Set(edges.filter(keep).map((edge) => `${edge.from} -> ${edge.to}`))].sort()

describe("import rules (docs/architecture.md)", () => {
  it("reads the sources", () => {
    assert.isAbove(edges.length, 100)
  })

  it("domain/ is a leaf: it imports nothing of the service", () => {
    assert.deepStrictEqual(pairs((edge) => edge.from === "domain"), [])
  })

  it("the contract (api/) imports only domain/", () => {
    assert.deepStrictEqual(pairs((edge) => edge.from === "api" && edge.to !== "domain"), [])
  })

  it("the sandbox network is imported only where the driver is chosen", () => {
    assert.deepStrictEqual(pairs((edge) => edge.to === "sandbox"), ["(wiring) -> sandbox"])
  })

  it("nothing imports the wiring (App.ts, main.ts, cli.ts, index.ts)", () => {
    assert.deepStrictEqual(pairs((edge) => edge.to === "(wiring)"), [])
  })

  it("no two parts import each other", () => {
    const all = new Set(edges.map((edge) => `${edge.from} -> ${edge.to}`))
    const mutual = pairs((edge) => edge.from < edge.to && all.has(`${edge.to} -> ${edge.from}`))
    const knownDebt: ReadonlyArray<string> = []
    assert.deepStrictEqual(mutual, knownDebt)
  })
})
