/**
 * No cast silences the compiler in `src/` (the shared style guide, ../shared/docs/style.md: "no `any`, no `as`
 * casts to silence the compiler"): `as never`, `as any` and `as unknown as`
 * are refused wherever they appear outside comments. `as const` is no cast.
 */
import { readFileSync } from "node:fs"
import { assert, it } from "@effect/vitest"
import { fromRoot, sourcesUnder, src } from "./Sources.ts"

const comments = /\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm
const casts = /\bas\s+(?:never|any|unknown\s+as)\b/g

it("src/ has no `as never`, `as any` or `as unknown as`", () => {
  const found = sourcesUnder(src).flatMap((file) => {
    const code = readFileSync(file, "utf8").replace(comments, "")
    return [...code.matchAll(casts)].map((match) => `${fromRoot(file)}: ${match[0]}`)
  })
  assert.deepStrictEqual(found, [])
})
