/**
 * The sandbox's sign-in page: the `connectUrl` (and `reconnectUrl`) of an
 * account points here, where a person finishes signing in by hand. The link's
 * token is the credential; it works once and expires after an hour.
 */
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { Accounts } from "../../accounts/Accounts.ts"

/** The routes this module serves, for the gate's 404/405 table. */
export const connectRoutes = [
  { method: "GET", path: "/connect/:token" },
  { method: "POST", path: "/connect/:token" }
] as const

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[c] ?? c)

const page = (title: string, body: string, status = 200) =>
  HttpServerResponse.text(
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; background: #f4f6f8; color: #1d2733; margin: 0; }
  main { max-width: 28rem; margin: 12vh auto; background: #fff; border-radius: 12px; padding: 2rem 2.25rem;
         box-shadow: 0 1px 3px rgba(0,0,0,.08), 0 8px 24px rgba(0,0,0,.06); }
  h1 { font-size: 1.35rem; margin: 0 0 .75rem; }
  p { line-height: 1.5; color: #44505c; }
  .who { font-weight: 600; color: #1d2733; }
  button { margin-top: 1rem; width: 100%; padding: .8rem 1rem; font-size: 1rem; border: 0; border-radius: 8px;
           background: #0a66c2; color: #fff; cursor: pointer; }
  button:hover { background: #004182; }
  .note { font-size: .85rem; color: #6b7785; margin-top: 1.25rem; }
</style>
</head>
<body><main>${body}</main></body>
</html>`,
    { status, contentType: "text/html; charset=utf-8" }
  )

const tokenOf = (params: Readonly<Record<string, string | undefined>>) => params["token"] ?? ""

const unknownLink = page(
  "Link no longer works",
  `<h1>This sign-in link no longer works</h1>
<p>Sign-in links work once and for one hour: this one was already used, has expired, or was never issued.</p>
<p>If you just signed in with it, you are done and can close this window. Otherwise ask for a new link from
the app that sent you here (it gets one with <code>POST /v1/accounts/{id}/reconnect</code>).</p>`,
  404
)

/** `GET` and `POST /connect/{token}`. */
export const layer = Layer.mergeAll(
  HttpRouter.add(
    "GET",
    "/connect/:token",
    Effect.gen(function*() {
      const accounts = yield* Accounts
      const params = yield* HttpRouter.params
      return yield* accounts.byLink(tokenOf(params)).pipe(
        Effect.map((account) =>
          page(
            "Connect your account",
            `<h1>Connect your account</h1>
<p>Sign in to the professional network to connect
<span class="who">${escapeHtml(account.label === "" ? "this seat" : account.label)}</span> to your team's outreach service.</p>
<form method="post"><button type="submit">Sign in and connect</button></form>
<p class="note">This is the sandbox network: no real sign-in happens. The link expires one hour after it was issued.</p>`
          )
        ),
        Effect.catchTag("Missing", () => Effect.succeed(unknownLink))
      )
    })
  ),
  HttpRouter.add(
    "POST",
    "/connect/:token",
    Effect.gen(function*() {
      const accounts = yield* Accounts
      const params = yield* HttpRouter.params
      return yield* accounts.completeLink(tokenOf(params)).pipe(
        Effect.map((account) =>
          page(
            "Connected",
            `<h1>Connected</h1>
<p><span class="who">${escapeHtml(account.label === "" ? "The account" : account.label)}</span> is connected
and starts its warm-up. You can close this window.</p>`
          )
        ),
        Effect.catchTags({
          Missing: () => Effect.succeed(unknownLink),
          WrongState: () =>
            Effect.succeed(page("Already connected", "<h1>Already connected</h1><p>You can close this window.</p>"))
        })
      )
    })
  )
)
