/**
 * The import statements of the service's sources, read as text (no compiler
 * needed): static imports, `export ... from` and `import("...")`, type-only
 * ones included, since a type import still ties one module to another. The
 * architecture tests build on this.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { dirname, join, normalize, relative } from "node:path"

/** The repository's root and its `src/`. */
export const root = join(import.meta.dirname, "..", "..")
export const src = join(root, "src")

/** Every `.ts` file under `dir`, as absolute paths. */
export const sourcesUnder = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourcesUnder(join(dir, entry.name))
      : entry.name.endsWith(".ts")
      ? [join(dir, entry.name)]
      : []
  )

// Block comments, and line comments that start a line: an example in a JSDoc block is not an import.
const comments = /\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm
// `import ... from "x"`, `export ... from "x"` (no quote may come between the keyword and `from`),
// a side-effect `import "x"`, and `import("x")`.
const specifiers = /\b(?:import|export)\b[^"'`]*?\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)/gm

/** An import of one module by another: `target` is the absolute path for a relative import, else undefined. */
export interface Import {
  readonly file: string
  readonly specifier: string
  readonly target: string | undefined
}

/** What `file` imports, in order. */
export const importsOf = (file: string): ReadonlyArray<Import> => {
  const text = readFileSync(file, "utf8").replace(comments, "")
  return [...text.matchAll(specifiers)].map((match) => {
    const specifier = match[1] ?? match[2] ?? match[3] ?? ""
    const target = specifier.startsWith(".") ? normalize(join(dirname(file), specifier)) : undefined
    if (target !== undefined && !existsSync(target)) {
      throw new Error(`${relative(root, file)} imports ${specifier}, which does not exist: the reader misread it`)
    }
    return { file, specifier, target }
  })
}

/** `path` relative to the repository's root, for messages. */
export const fromRoot = (path: string): string => relative(root, path)
