/**
 * htmx and its SSE extension, served by the service from the `htmx.org`
 * package (no CDN, no bundler), and the dashboard's own small script
 * (`ApprovalsScript.ts`) and the live lists' (`LiveListsScript.ts`): read once when the routes are built.
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { approvalsScript } from "./ApprovalsScript.ts"
import { liveListsScript } from "./LiveListsScript.ts"
import { localTimesScript } from "./LocalTimes.ts"
import { base } from "./Layout.ts"

const require = createRequire(import.meta.url)

/** The files, by the name they are served under, from the package's `dist/`. */
const files = {
  "htmx.min.js": "htmx.org/dist/htmx.min.js",
  "hx-sse.min.js": "htmx.org/dist/ext/hx-sse.min.js"
} as const

/** The dashboard's icon: a paper plane on the header's blue, drawn here (no image file to ship). */
const favicon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#102a43"/><path d="M6 15.5 26 7l-6 19-4.5-7.5L6 15.5Z" fill="#fff"/><path d="m15.5 18.5 4-5" stroke="#102a43" stroke-width="1.6" stroke-linecap="round"/></svg>`

export const assetRoutes = [...Object.keys(files), "approvals.js", "live.js", "local-times.js", "favicon.svg"].map((name) => ({ method: "GET", path: `${base}/assets/${name}` }))

const serve = (name: string, source: string, contentType = "text/javascript; charset=utf-8") =>
  HttpRouter.add(
    "GET",
    `${base}/assets/${name}`,
    HttpServerResponse.text(source, {
      contentType,
      headers: { "cache-control": "public, max-age=3600", "x-content-type-options": "nosniff" }
    })
  )

export const layer = Layer.unwrap(Effect.sync(() => {
  const read = (name: keyof typeof files) => readFileSync(require.resolve(files[name]), "utf8")
  return Layer.mergeAll(
    serve("htmx.min.js", read("htmx.min.js")),
    serve("hx-sse.min.js", read("hx-sse.min.js")),
    serve("approvals.js", approvalsScript),
    serve("live.js", liveListsScript),
    serve("local-times.js", localTimesScript),
    serve("favicon.svg", favicon, "image/svg+xml")
  )
}))
