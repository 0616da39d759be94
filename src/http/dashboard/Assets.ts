/**
 * htmx and its SSE extension, served by the service from the `htmx.org`
 * package (no CDN, no bundler), and the dashboard's own small script
 * (`ApprovalsScript.ts`): read once when the routes are built.
 *
 * @since 1.0.0
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { approvalsScript } from "./ApprovalsScript.ts"
import { base } from "./Layout.ts"

const require = createRequire(import.meta.url)

/** The files, by the name they are served under, from the package's `dist/`. */
const files = {
  "htmx.min.js": "htmx.org/dist/htmx.min.js",
  "hx-sse.min.js": "htmx.org/dist/ext/hx-sse.min.js"
} as const

export const assetRoutes = [...Object.keys(files), "approvals.js"].map((name) => ({ method: "GET", path: `${base}/assets/${name}` }))

const serve = (name: string, source: string) =>
  HttpRouter.add(
    "GET",
    `${base}/assets/${name}`,
    HttpServerResponse.text(source, {
      contentType: "text/javascript; charset=utf-8",
      headers: { "cache-control": "public, max-age=3600", "x-content-type-options": "nosniff" }
    })
  )

export const layer = Layer.unwrap(Effect.sync(() => {
  const read = (name: keyof typeof files) => readFileSync(require.resolve(files[name]), "utf8")
  return Layer.mergeAll(
    serve("htmx.min.js", read("htmx.min.js")),
    serve("hx-sse.min.js", read("hx-sse.min.js")),
    serve("approvals.js", approvalsScript)
  )
}))
