/**
 * `/dashboard/password-reset/{token}`: the page of a password reset link an
 * owner made (on the Team page) and sent to a teammate by hand. The teammate
 * types a new password twice; every session of theirs ends and they sign in
 * with it. A link unknown, used, replaced or expired answers a page that says
 * so; while their email is locked by wrong attempts the link waits, as signing
 * in does.
 */
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import type { ResetUnusable } from "../team/Refusals.ts"
import { passwordLength } from "../team/Password.ts"
import { PasswordResets, type ResetTarget } from "../team/PasswordResets.ts"
import { html } from "./Html.ts"
import { base, plainPage, problemPage, when } from "./Layout.ts"
import { anonymousAction, guarded, seeOther, withBrowserToken } from "./Requests.ts"
import { csrfTokenFor } from "../http/SessionCookie.ts"
import { browserCookie, csrfField } from "./Session.ts"

export const passwordResetRoutes = [
  { method: "GET", path: `${base}/password-reset/:token` },
  { method: "POST", path: `${base}/password-reset/:token` }
] as const

const tokenParam = Effect.map(HttpRouter.params, (params) => params["token"] ?? "")

const unusable = (refused: ResetUnusable) =>
  problemPage(
    refused.reason === "unknown" ? 404 : 410,
    "This link cannot be used",
    refused.message,
    html`<a href="${base}/sign-in">Sign in</a>`
  )

const form = (options: {
  readonly token: string
  readonly csrf: string
  readonly target: ResetTarget
  readonly error?: string
  readonly status?: number
}) =>
  plainPage({
    title: "Choose a new password",
    status: options.status ?? 200,
    error: options.error,
    body: html`<p>For <strong>${options.target.name}</strong> (${options.target.email}) in ${options.target.workspaceName}. This link works once, until ${
      when(options.target.expiresAt)
    }; every session of yours ends when the password changes.</p>
<form method="post" action="${base}/password-reset/${options.token}">
<input type="hidden" name="${csrfField}" value="${options.csrf}">
<label for="new-password">New password</label>
<input id="new-password" name="password" type="password" autocomplete="new-password" required minlength="${passwordLength.min}" maxlength="${passwordLength.max}" aria-describedby="password-help">
<p id="password-help" class="muted">${passwordLength.min} to ${passwordLength.max} characters. A few unrelated words make a good one.</p>
<label for="again-password">The same password again</label>
<input id="again-password" name="again" type="password" autocomplete="new-password" required>
<button type="submit">Set the new password</button></form>`
  })

const show = guarded(Effect.gen(function*() {
  const token = yield* tokenParam
  const found = yield* Effect.result((yield* PasswordResets).target(token))
  if (found._tag === "Failure") return unusable(found.failure)
  return yield* withBrowserToken((csrf) => form({ token, csrf, target: found.success }))
}))

const submit = anonymousAction(
  (request) => request.cookies[browserCookie],
  (fields, request) =>
    Effect.gen(function*() {
      const resets = yield* PasswordResets
      const token = yield* tokenParam
      const found = yield* Effect.result(resets.target(token))
      if (found._tag === "Failure") return unusable(found.failure)
      const again = (error: string, status: number) =>
        form({ token, csrf: csrfTokenFor(request.cookies[browserCookie] ?? ""), target: found.success, error, status })
      const password = fields.get("password") ?? ""
      if (password !== (fields.get("again") ?? "")) return again("The two passwords differ: type the same one twice.", 400)
      const done = yield* Effect.result(resets.complete(token, password))
      if (done._tag === "Success") return seeOther(`${base}/sign-in?notice=password-reset`)
      switch (done.failure._tag) {
        case "ResetUnusable":
          return unusable(done.failure)
        case "LockedOut":
          return problemPage(429, "Setting a password is locked for now", `${done.failure.message} This link keeps working until then.`, html`<a href="${base}/password-reset/${token}">Try again later</a>`)
        case "InputRefused":
          return again(done.failure.message, 422)
      }
    })
)

export const layer = Layer.mergeAll(
  HttpRouter.add("GET", `${base}/password-reset/:token`, show),
  HttpRouter.add("POST", `${base}/password-reset/:token`, submit)
)
