/**
 * The contract is a leaf: loading `src/api/Api.ts` (as a typed client or an
 * embedder does) loads only the contract (`src/api/`), the domain's schemas
 * and rules (`src/domain/`) and the `effect` package, never a service, an
 * adapter or the server. Walks the static import graph from the entry.
 */
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { fromRoot, importsOf, src } from "./Sources.ts"

/** Every module `entry` loads, and each import that leaves what `allowed` accepts. */
const walk = (entry: string, allowed: {
  readonly folders: ReadonlyArray<string>
  readonly packages: (specifier: string) => boolean
}) => {
  const loaded = new Set<string>([entry])
  const outside: Array<string> = []
  const queue = [entry]
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const { specifier, target } of importsOf(file)) {
      if (target === undefined) {
        if (!allowed.packages(specifier)) outside.push(`${fromRoot(file)} -> ${specifier}`)
        continue
      }
      if (!allowed.folders.some((folder) => target.startsWith(join(src, folder) + "/"))) {
        outside.push(`${fromRoot(file)} -> ${fromRoot(target)}`)
        continue
      }
      if (!loaded.has(target)) {
        loaded.add(target)
        queue.push(target)
      }
    }
  }
  return { loaded: [...loaded].map(fromRoot), outside }
}

const effectOnly = (specifier: string) => specifier === "effect" || specifier.startsWith("effect/")

describe("the contract is a leaf", () => {
  it("src/api/Api.ts loads only src/api/, src/domain/ and effect", () => {
    const { loaded, outside } = walk(join(src, "api", "Api.ts"), { folders: ["api", "domain"], packages: effectOnly })
    assert.deepStrictEqual(outside, [])
    // The walk did follow the contract's groups into the domain.
    assert.include(loaded, "src/api/AccountsApi.ts")
    assert.include(loaded, "src/domain/Commands.ts")
  })

  it("the typed client (outreach-service/client) loads only the contract besides itself", () => {
    const { outside } = walk(join(src, "client", "Client.ts"), {
      folders: ["client", "api", "domain"],
      packages: effectOnly
    })
    assert.deepStrictEqual(outside, [])
  })
})
