/**
 * The import rule (`Layers.ts`, drawn in docs/architecture.md), read off the
 * sources so the picture stays true: every import between two parts of
 * `src/` goes down the layers, no two parts import each other, and the
 * folders' import graph has no cycle.
 */
import { readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { layerOf, layers, mayImport, mermaid } from "./Layers.ts"
import { fromRoot, importsOf, root, sourcesUnder, src } from "./Sources.ts"

/** The part of `src/` a file belongs to: its top folder, or `(wiring)` for the files directly in src/. */
const partOf = (file: string): string => {
  const path = relative(src, file).split("/")
  return path.length === 1 ? "(wiring)" : path[0]
}

const files = sourcesUnder(src)

/** Every import from one part of `src/` to another, with the importing file and what it names. */
const edges = files.flatMap((file) =>
  importsOf(file).flatMap(({ specifier, target }) => {
    if (target === undefined || !target.startsWith(src + "/")) return []
    const from = partOf(file)
    const to = partOf(target)
    return from === to ? [] : [{ from, to, where: `${fromRoot(file)} imports ${specifier}` }]
  })
)

describe("the import rule (test/architecture/Layers.ts, docs/architecture.md)", () => {
  it("reads the sources", () => {
    assert.isAbove(edges.length, 300)
  })

  it("every part of src/ has its place in the layers", () => {
    const parts = [...new Set(files.map(partOf))].sort()
    assert.deepStrictEqual(parts.filter((part) => layerOf(part) === undefined), [], "place these in Layers.ts")
    // And the rule names no part twice.
    const named = layers.flatMap((layer) => layer.parts)
    assert.strictEqual(new Set(named).size, named.length)
  })

  it("every import goes to a lower layer", () => {
    const upward = edges.filter((edge) => !mayImport(edge.from, edge.to))
    assert.deepStrictEqual(upward.map((edge) => `${edge.from} -> ${edge.to}: ${edge.where}`), [])
  })

  it("no two parts import each other", () => {
    const pairs = new Set(edges.map((edge) => `${edge.from} -> ${edge.to}`))
    const mutual = [...pairs].filter((pair) => {
      const [from, to] = pair.split(" -> ")
      return from < to && pairs.has(`${to} -> ${from}`)
    })
    assert.deepStrictEqual(mutual, [])
  })

  it("the parts' import graph has no cycle", () => {
    const next = new Map<string, Set<string>>()
    for (const { from, to } of edges) next.set(from, (next.get(from) ?? new Set()).add(to))
    // Depth-first: a part met again while still on the path closes a cycle.
    const cycles: Array<string> = []
    const state = new Map<string, "open" | "done">()
    const visit = (part: string, path: ReadonlyArray<string>) => {
      if (state.get(part) === "done") return
      if (state.get(part) === "open") {
        cycles.push([...path.slice(path.indexOf(part)), part].join(" -> "))
        return
      }
      state.set(part, "open")
      for (const to of next.get(part) ?? []) visit(to, [...path, part])
      state.set(part, "done")
    }
    for (const part of next.keys()) visit(part, [])
    assert.deepStrictEqual(cycles, [])
  })

  it("the contract imports only the domain; the domain imports nothing of the service", () => {
    assert.deepStrictEqual(edges.filter((edge) => edge.from === "api" && edge.to !== "domain").map((e) => e.where), [])
    assert.deepStrictEqual(edges.filter((edge) => edge.from === "domain").map((e) => e.where), [])
  })

  it("services speak their own language: no module outside the edge imports the contract (src/api/)", () => {
    // The edge: the contract itself, REST, the dashboard, MCP, the typed client, the sandbox's
    // HTTP routes (handlers of the contract's sandbox group) and the wiring.
    const edge = (file: string) =>
      partOf(file) === "(wiring)" ||
      ["api", "http", "dashboard", "mcp", "client"].includes(partOf(file)) ||
      relative(src, file).startsWith("sandbox/http/")
    const importers = files.flatMap((file) =>
      edge(file) ? [] : importsOf(file).flatMap(({ specifier, target }) =>
        target !== undefined && target.startsWith(join(src, "api") + "/") ? [`${fromRoot(file)} imports ${specifier}`] : []
      )
    )
    assert.deepStrictEqual(importers, [])
  })

  it("the sandbox is imported only by the wiring, where the driver and the routes are chosen", () => {
    const importers = [...new Set(edges.filter((edge) => edge.to === "sandbox").map((edge) => edge.where))].sort()
    assert.deepStrictEqual(importers, [
      "src/App.ts imports ./sandbox/SandboxDriver.ts",
      "src/Server.ts imports ./sandbox/http/ConnectPage.ts",
      "src/Server.ts imports ./sandbox/http/SandboxClockHandlers.ts",
      "src/Server.ts imports ./sandbox/http/SandboxHandlers.ts"
    ])
  })

  it("assistants and REST share services and intake, never a REST handler: mcp/ imports no *Handlers module", () => {
    const handlers = (edge: { readonly where: string }) => /Handlers\.ts$/.test(edge.where)
    assert.deepStrictEqual(edges.filter((edge) => edge.from === "mcp" && edge.to === "http" && handlers(edge)).map((e) => e.where), [])
  })

  it("docs/architecture.md draws this rule (run `npm run docs` when it changed)", () => {
    const doc = readFileSync(join(root, "docs", "architecture.md"), "utf8")
    assert.include(doc, mermaid(), "docs/architecture.md is stale: run `npm run docs`")
  })
})
