/**
 * `npm run build:packages`: the two packages an integrator installs, built to
 * JavaScript with type declarations, so they install from a tarball (`npm pack`)
 * or a registry and import on Node without type stripping (which Node refuses
 * under `node_modules`).
 *
 * - `packages/client` (`outreach-client`): `src/client/Client.ts` and the
 *   contract it is derived from (`src/api/`, `src/domain/`: nothing of the
 *   server), depending on `effect` only.
 * - `packages/webhooks` (`outreach-webhooks`): `src/webhooks/Verify.ts`, the
 *   signature scheme over `node:crypto`, with no dependencies at all.
 *
 * The compiler emits the modules as they are (no bundling); relative imports
 * are rewritten from `.ts` to `.js`, in the declarations too.
 */
import { execFileSync } from "node:child_process"
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../", import.meta.url))

/** The packages: where each is, and the module its build starts from. */
export const packages = {
  client: { dir: join(root, "packages/client"), entry: "src/client/Client.ts" },
  webhooks: { dir: join(root, "packages/webhooks"), entry: "src/webhooks/Verify.ts" }
} as const

const filesUnder = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })

/** Builds one package into its `dist/`, emptied first. */
export const build = (name: keyof typeof packages) => {
  const { dir, entry } = packages[name]
  const outDir = join(dir, "dist")
  rmSync(outDir, { recursive: true, force: true })
  execFileSync(process.execPath, [
    join(root, "node_modules/typescript/bin/tsc"),
    "--ignoreConfig",
    "--declaration",
    "--outDir",
    outDir,
    "--rootDir",
    join(root, "src"),
    "--target",
    "es2024",
    "--lib",
    "es2024",
    "--module",
    "nodenext",
    "--moduleResolution",
    "nodenext",
    "--types",
    "node",
    "--strict",
    "--exactOptionalPropertyTypes",
    "--verbatimModuleSyntax",
    "--allowImportingTsExtensions",
    "--rewriteRelativeImportExtensions",
    "--skipLibCheck",
    join(root, entry)
  ], { cwd: root, stdio: "inherit" })
  for (const file of filesUnder(outDir).filter((path) => path.endsWith(".d.ts"))) {
    writeFileSync(file, readFileSync(file, "utf8").replace(/(from\s+"\.{1,2}\/[^"]+)\.ts"/g, "$1.js\""))
  }
  return outDir
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const name of ["client", "webhooks"] as const) console.log(`built ${build(name)}`)
}
