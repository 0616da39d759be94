/**
 * The frame of every dashboard page: the document, its styles (inline: no
 * external fonts or stylesheets), the navigation for the person's role, the
 * live counts (server-sent events through htmx), and the security headers.
 */
import { HttpServerResponse } from "effect/http"
import { type Html, html, type Part, trusted } from "./Html.ts"
import { csrfField } from "./Session.ts"
import { permits } from "../domain/Permissions.ts"

/** Where the dashboard lives. */
export const base = "/dashboard"

/** What a signed-in page needs to know about its person. */
export interface Viewer {
  readonly name: string
  readonly email: string
  readonly role: "owner" | "admin" | "member"
  readonly csrf: string
}

/** A hidden input with the form's CSRF token. */
export const csrfInput = (viewer: { readonly csrf: string }): Html =>
  html`<input type="hidden" name="${csrfField}" value="${viewer.csrf}">`

const styles = `
:root { color-scheme: light; --ink: #17212b; --muted: #4a5663; --line: #c9d2db; --bg: #f3f5f7; --card: #fff;
  --accent: #0a58b0; --accent-dark: #073f80; --ok: #1b6b34; --warn: #8a4b00; --bad: #a4161a; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
a:hover { color: var(--accent-dark); }
:focus-visible { outline: 3px solid #e8a317; outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: #fff; padding: .5rem 1rem; z-index: 10; }
.skip:focus { left: .5rem; }
header.top { background: #102a43; color: #fff; padding: .5rem 1rem; display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; align-items: center; }
header.top a, header.top .who { color: #fff; }
header.top .pill { background: #fff; font-weight: 700; }
header.top .brand { font-weight: 700; text-decoration: none; margin-right: auto; }
nav.main { background: #fff; border-bottom: 1px solid var(--line); overflow-x: auto; }
nav.main ul { list-style: none; display: flex; gap: .1rem; margin: 0 auto; padding: .25rem 1rem; max-width: 72rem; font-size: .92rem; }
nav.main a { display: block; padding: .55rem .5rem; border-radius: 6px; text-decoration: none; white-space: nowrap; }
nav.main a[aria-current="page"] { background: #dde9f7; color: var(--accent-dark); font-weight: 600; }
@media (min-width: 60rem) { nav.main ul { flex-wrap: wrap; } }
main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 .5rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 1rem; margin: 0 0 1rem; }
.narrow { max-width: 28rem; margin: 8vh auto; }
.muted { color: var(--muted); }
.counts { display: flex; gap: .75rem; flex-wrap: wrap; font-size: .95rem; }
.counts a { text-decoration: none; }
.pill { display: inline-block; border-radius: 999px; padding: 0 .6rem; font-size: .85rem; border: 1px solid currentColor; }
.pill.ok { color: var(--ok); } .pill.warn { color: var(--warn); } .pill.bad { color: var(--bad); }
label { display: block; font-weight: 600; margin: .75rem 0 .25rem; }
input[type=text], input[type=email], input[type=password], input[type=url], input[type=number], input[type=time], select, textarea {
  width: 100%; font: inherit; padding: .55rem .6rem; border: 1px solid #7b8794; border-radius: 6px; background: #fff; color: var(--ink); }
textarea { min-height: 6rem; }
button, .button { font: inherit; padding: .55rem 1rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent);
  color: #fff; cursor: pointer; text-decoration: none; display: inline-block; margin: .5rem .5rem 0 0; }
button:hover, .button:hover { background: var(--accent-dark); color: #fff; }
button.secondary { background: #fff; color: var(--accent); }
button.danger { background: var(--bad); border-color: var(--bad); }
.notice { border-left: 4px solid var(--ok); background: #e8f5ec; padding: .75rem 1rem; border-radius: 6px; margin: 0 0 1rem; }
.error { border-left: 4px solid var(--bad); background: #fdecec; padding: .75rem 1rem; border-radius: 6px; margin: 0 0 1rem; }
.secret { font-family: ui-monospace, Menlo, Consolas, monospace; word-break: break-all; background: #f0f3f6; padding: .5rem; border-radius: 6px; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: .9rem; color: var(--muted); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: .5rem 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
.row { display: flex; flex-wrap: wrap; gap: 1rem; }
ul.plain { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; }
.forecast meter { width: 6rem; vertical-align: middle; }
.row > * { flex: 1 1 16rem; }
.quote { white-space: pre-wrap; background: #f6f8fa; border-radius: 6px; padding: .5rem .75rem; }
fieldset { border: 1px solid var(--line); border-radius: 8px; margin: .75rem 0; }
.inline { display: inline; }
.check { font-weight: normal; display: flex; gap: .5rem; align-items: center; }
.qr svg { width: 14rem; height: 14rem; background: #fff; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
nav.tabs { display: flex; gap: .5rem; margin: 0 0 1rem; }
nav.tabs a { padding: .4rem .8rem; border-radius: 6px; text-decoration: none; border: 1px solid var(--line); background: #fff; }
nav.tabs a[aria-current="page"] { background: #dde9f7; color: var(--accent-dark); font-weight: 600; }
.filters .row > * { flex: 1 1 12rem; }
.pager { display: flex; gap: 1rem; align-items: baseline; flex-wrap: wrap; }
.pager p { margin: 0 auto 0 0; font-weight: 600; }
table.queue td, table.decided td { font-size: .95rem; }
table.queue tr.approval:focus { outline: 3px solid #e8a317; outline-offset: -3px; background: #fff8e6; }
table.queue td.text { min-width: 16rem; max-width: 30rem; overflow-wrap: anywhere; }
table.queue td.text summary { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
table.queue td.target, table.decided td.target { overflow-wrap: anywhere; min-width: 11rem; max-width: 16rem; }
table.decided td.text { overflow-wrap: anywhere; max-width: 28rem; }
pre.quote { overflow-x: auto; font-size: .85rem; max-height: 24rem; }
tr.exchange td { border-bottom-width: 2px; }
tr.exchange h3 { font-size: 1rem; margin: .75rem 0 .25rem; }
.bulk { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; padding: .75rem 1rem; }
.bulk h2 { margin: 0; font-size: 1rem; flex-basis: 100%; }
.bulk .field { flex: 1 1 16rem; }
.bulk label { margin-top: 0; }
.bulk button { margin: 0; }
table.queue td.actions button { margin: 0 .25rem .25rem 0; padding: .35rem .7rem; }
table.queue details summary { cursor: pointer; }
.counter.over { color: var(--bad); font-weight: 700; }
.seat-actions { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: start; margin: .5rem 0; }
.seat-actions details { flex-basis: 100%; }
ul.changes { margin: 0; padding-left: 1rem; font-size: .9rem; overflow-wrap: anywhere; }
kbd { border: 1px solid var(--line); border-radius: 4px; padding: 0 .3rem; background: #fff; font-size: .85rem; }
@media (max-width: 40rem) { main { padding: .75rem; } h1 { font-size: 1.3rem; }
  table.queue, table.queue tbody, table.queue tr, table.queue td { display: block; width: 100%; }
  table.queue thead { display: none; }
  table.queue tr.approval { border: 1px solid var(--line); border-radius: 8px; margin: 0 0 .75rem; background: #fff; }
  table.queue td { border: 0; padding: .25rem .5rem; }
  table.queue td.text { min-width: 0; } }
`

/** The content security policy of a page whose forms go to `formAction` (and the redirects they bring). */
const contentSecurityPolicy = (formAction: string) =>
  `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; form-action ${formAction}; base-uri 'none'`

/** The headers every page carries: no caching of personal pages, no framing, scripts only from here. */
const securityHeaders = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "content-security-policy": contentSecurityPolicy("'self'")
}

/**
 * A page whose form's answer redirects to `origin` (the consent page, to an assistant's
 * redirect URI): browsers hold a form's redirects to `form-action` too.
 */
export const formsMayRedirectTo = (response: HttpServerResponse.HttpServerResponse, origin: string) =>
  HttpServerResponse.setHeader(response, "content-security-policy", contentSecurityPolicy(`'self' ${origin}`))

/** An HTML response with the security headers. */
export const respond = (body: Html, status = 200, headers: Record<string, string> = {}) =>
  HttpServerResponse.text(body.value, {
    status,
    contentType: "text/html; charset=utf-8",
    headers: { ...securityHeaders, ...headers }
  })

const document = (title: string, head: Part, body: Part) =>
  html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Outreach dashboard</title>
<link rel="icon" href="${base}/assets/favicon.svg" type="image/svg+xml">
<style>${trusted(styles)}</style>
${head}
</head>
<body>${body}</body>
</html>`

/** The pages of the navigation, each shown to the roles the table lets see it. */
const sections = [
  { path: "", label: "Attention", needs: "read" },
  { path: "/approvals", label: "Approvals", needs: "read" },
  { path: "/seats", label: "Seats", needs: "read" },
  { path: "/inbox", label: "Inbox", needs: "read" },
  { path: "/jobs", label: "Jobs", needs: "read" },
  { path: "/workflows", label: "Workflows", needs: "read" },
  { path: "/automations", label: "Automations", needs: "read" },
  { path: "/people", label: "People", needs: "read" },
  { path: "/team", label: "Team", needs: "read" },
  { path: "/activity", label: "Activity", needs: "read" },
  { path: "/keys", label: "API keys", needs: "manageKeys" },
  { path: "/webhooks", label: "Webhooks", needs: "manageWebhooks" },
  { path: "/security", label: "Security", needs: "read" },
  { path: "/assistants", label: "Assistants", needs: "read" }
] as const

export type Section = (typeof sections)[number]["path"]

/** A signed-in page. `live` is the counts block, replaced by the server's events as they change. */
export const page = (options: {
  readonly title: string
  readonly viewer: Viewer
  readonly section: Section
  readonly live: Html
  readonly body: Part
  readonly notice?: string | undefined
  readonly error?: string | undefined
  readonly status?: number
}) => {
  const { viewer } = options
  const nav = sections.filter((s) => permits(viewer.role, s.needs)).map((s) =>
    html`<li><a href="${base}${s.path}"${
      s.path === options.section ? html` aria-current="page"` : ""
    }>${s.label}</a></li>`
  )
  return respond(
    document(
      options.title,
      // live.js runs before htmx (deferred scripts run in order): htmx connects the live stream
      // as soon as it runs, and live.js must be listening when the stream says it connected.
      html`<script src="${base}/assets/live.js" defer></script>
<script src="${base}/assets/htmx.min.js" defer></script>
<script src="${base}/assets/hx-sse.min.js" defer></script>
<script src="${base}/assets/approvals.js" defer></script>
<script src="${base}/assets/local-times.js" defer></script>`,
      html`<a class="skip" href="#content">Skip to content</a>
<header class="top">
  <a class="brand" href="${base}">Outreach dashboard</a>
  <div id="live" class="counts" hx-sse:connect="${base}/live" aria-label="Live counts">${options.live}</div>
  <span class="who">${viewer.name} (${viewer.role})</span>
  <form class="inline" method="post" action="${base}/sign-out">${csrfInput(viewer)}<button type="submit" class="secondary">Sign out</button></form>
</header>
<nav class="main" aria-label="Dashboard"><ul>${nav}</ul></nav>
<main id="content">
<h1>${options.title}</h1>
${options.notice === undefined ? "" : html`<p class="notice" role="status">${options.notice}</p>`}
${options.error === undefined ? "" : html`<p class="error" role="alert">${options.error}</p>`}
${options.body}
</main>`
    ),
    options.status ?? 200
  )
}

/** A page for someone not signed in (sign-in, invitations, errors). */
export const plainPage = (options: {
  readonly title: string
  readonly body: Part
  readonly error?: string | undefined
  readonly notice?: string | undefined
  readonly status?: number
}) =>
  respond(
    document(
      options.title,
      "",
      html`<main id="content" class="narrow"><div class="card">
<h1>${options.title}</h1>
${options.notice === undefined ? "" : html`<p class="notice" role="status">${options.notice}</p>`}
${options.error === undefined ? "" : html`<p class="error" role="alert">${options.error}</p>`}
${options.body}
</div></main>`
    ),
    options.status ?? 200
  )

/** A page that says what went wrong and where to go, for any failure a person can meet. */
export const problemPage = (status: number, title: string, message: string, link = html`<a href="${base}">Back to the dashboard</a>`) =>
  plainPage({ title, status, body: html`<p>${message}</p><p>${link}</p>` })

/** "in 3 h 5 min" / "5 min ago": a time relative to now, for countdowns. */
export const relative = (atMs: number, nowMs: number): string => {
  const minutes = Math.round(Math.abs(atMs - nowMs) / 60_000)
  const days = Math.floor(minutes / 1440)
  const hours = Math.floor((minutes % 1440) / 60)
  const mins = minutes % 60
  const text = days > 0 ? `${days} d ${hours} h` : hours > 0 ? `${hours} h ${mins} min` : `${mins} min`
  return atMs >= nowMs ? `in ${text}` : `${text} ago`
}

/** An ISO time as people read it: `2026-11-23 08:55 UTC`. */
export const when = (iso: string | null): string => iso === null ? "—" : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`

/**
 * A time in the reader's own time zone: the page says it in UTC, and `local-times.js` rewrites it
 * in the browser's zone; the ISO time stays in its title.
 */
export const localTime = (iso: string | null): Html =>
  iso === null ? html`—` : html`<time datetime="${iso}" title="${iso}" data-local>${when(iso)}</time>`
