/**
 * `node scripts/bundle.ts` (the first half of `npm start`): the service as one
 * JavaScript file, `dist/service/main.js`, built from `src/main.ts` with its
 * dependencies and tree-shaken. Run from its TypeScript modules, the service
 * idled at about 220 MB resident on PostgreSQL; most of that was Node's
 * TypeScript loader and the 871 modules it loaded (whole packages, behind
 * their index modules), each kept with its source. The bundle holds only
 * what the service reaches (docs/performance.md § Footprint).
 *
 * Left outside the bundle, loaded from `node_modules` as before: PGlite (it
 * reads its WebAssembly and data files next to its own modules) and the
 * OpenTelemetry SDK (loaded only when tracing is configured). The Scalar
 * reference's script is a chunk of its own, loaded at its first request.
 *
 * The output is kept Latin-1: V8 keeps a script's source for as long as its
 * functions live, at one byte a character when the source is Latin-1 and two
 * otherwise; one dash in a template doubled the bundle's 3 MB. Comments are
 * left out for the same reason; names and lines are kept (no minifying), so a
 * stack trace still reads and its line in the bundle is readable code. No
 * source map: writing one made each `npm start` wait about 40% longer.
 *
 * Run as a script, it bundles only when the bundle is missing or older than
 * one of its inputs (a file under `src/`, `package-lock.json`, this script),
 * so a second `npm start` waits for nothing but the service.
 */
import { readdirSync, statSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "rolldown"

/** Where `npm start` bundles to: a folder of its own, emptied at each bundling. */
const outDir = "dist/service"

/** The bundle's entry, relative to the repository (what `npm start` runs). */
export const entry = `${outDir}/main.js`

const root = fileURLToPath(new URL("../", import.meta.url))

/**
 * Escapes what `charset: "ascii"` leaves: characters in tagged templates' text
 * (the dashboard's `html` reads the cooked text, where an escape is the same
 * character).
 */
const escapeNonLatin1 = (code: string) =>
  code.replace(/[^\x00-\xff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`)

/** Bundles `src/main.ts` into `dir` (relative to the repository), emptied first; the milliseconds it took. */
export const bundle = async (dir = outDir): Promise<number> => {
  const started = performance.now()
  await build({
    cwd: root,
    input: { main: "src/main.ts" },
    platform: "node",
    external: [/^@electric-sql\/pglite(\/|$)/, /^@opentelemetry\//, /^@effect\/opentelemetry(\/|$)/],
    logLevel: "warn",
    plugins: [{ name: "latin-1", renderChunk: escapeNonLatin1 }],
    output: {
      dir,
      cleanDir: true,
      format: "esm",
      charset: "ascii",
      comments: false
    }
  })
  return performance.now() - started
}

/** What the bundle is made of: the service's sources, the installed packages (as the lock file says), this script. */
const inputs = ["src", "package-lock.json", "scripts/bundle.ts"]

/** The latest modification time under `path` (a file or a folder), in ms. */
const newest = (path: string): number => {
  const stat = statSync(path)
  return stat.isDirectory()
    ? Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))))
    : stat.mtimeMs
}

/** Whether the bundle in `dir` was written after every one of its inputs last changed. */
export const upToDate = (dir = outDir): boolean => {
  const built = statSync(join(root, dir, "main.js"), { throwIfNoEntry: false })
  return built !== undefined && inputs.every((input) => newest(join(root, input)) < built.mtimeMs)
}

if (import.meta.main) {
  if (upToDate()) {
    console.log(`${entry} is newer than src/, package-lock.json and this script: not bundled again`)
  } else {
    const ms = await bundle()
    console.log(`bundled src/main.ts into ${entry} in ${ms.toFixed(0)} ms`)
  }
}
