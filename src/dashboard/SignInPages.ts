/**
 * Signing in and out: `/dashboard/sign-in` (email and password), then
 * `/dashboard/sign-in/code` for people with two-factor on (a TOTP code or a
 * recovery code), `/dashboard/sign-out` and `/dashboard/sign-out-everywhere`.
 */
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, type HttpServerResponse } from "effect/http"
import { AppConfig } from "../platform/AppConfig.ts"
import { challengeMinutes, sessionHours } from "../team/Policy.ts"
import { Sessions } from "../team/Sessions.ts"
import { SignIn } from "../team/SignIn.ts"
import type { NewSession } from "../team/Sessions.ts"
import { html } from "./Html.ts"
import { base, plainPage, problemPage } from "./Layout.ts"
import { anonymousAction, currentPerson, guarded, safeNext, seeOther, signedInAction, withBrowserToken } from "./Requests.ts"
import { csrfTokenFor, sessionCookie } from "../http/SessionCookie.ts"
import { browserCookie, challengeCookie, csrfField, isHttps, withCookie, withoutCookie } from "./Session.ts"

export const signInRoutes = [
  { method: "GET", path: `${base}/sign-in` },
  { method: "POST", path: `${base}/sign-in` },
  { method: "GET", path: `${base}/sign-in/code` },
  { method: "POST", path: `${base}/sign-in/code` },
  { method: "POST", path: `${base}/sign-out` },
  { method: "POST", path: `${base}/sign-out-everywhere` }
] as const

/** Messages shown after a redirect, by code (never text from the query string). */
const notices: Record<string, string> = {
  "signed-out": "You are signed out.",
  "signed-out-everywhere": "You are signed out on every device.",
  "removed": "You are no longer in this workspace.",
  "password-reset": "Your new password is set and your other sessions ended: sign in with it."
}

const noticeOf = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
  const code = new URL(request.url, "http://localhost").searchParams.get("notice")
  return code === null ? undefined : notices[code]
}

const nextOf = (request: HttpServerRequest.HttpServerRequest): string | undefined =>
  new URL(request.url, "http://localhost").searchParams.get("next") ?? undefined

const signInForm = (options: {
  readonly csrf: string
  readonly next: string
  readonly email?: string | undefined
  readonly error?: string | undefined
  readonly notice?: string | undefined
  readonly status?: number
}) =>
  plainPage({
    title: "Sign in",
    status: options.status ?? 200,
    error: options.error,
    notice: options.notice,
    body: html`<form method="post" action="${base}/sign-in">
<input type="hidden" name="${csrfField}" value="${options.csrf}">
<input type="hidden" name="next" value="${options.next}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${options.email ?? ""}" autofocus>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
<p class="muted">No account yet? Ask an owner or admin of your workspace for an invitation link.</p>`
  })

const codeForm = (options: { readonly csrf: string; readonly next: string; readonly error?: string | undefined; readonly status?: number }) =>
  plainPage({
    title: "Two-factor code",
    status: options.status ?? 200,
    error: options.error,
    body: html`<p>Open your authenticator app and type the 6-digit code it shows for Outreach Service.</p>
<form method="post" action="${base}/sign-in/code">
<input type="hidden" name="${csrfField}" value="${options.csrf}">
<input type="hidden" name="next" value="${options.next}">
<label for="code">Code</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required autofocus aria-describedby="code-help">
<p id="code-help" class="muted">Lost your phone? Type one of your recovery codes instead (like <code>abcde-fghij</code>); each works once.</p>
<button type="submit">Continue</button>
</form>
<p><a href="${base}/sign-in">Start again</a></p>`
  })

/** The response that signs the browser in: the session cookie, then on to `next`. */
const signedIn = (request: HttpServerRequest.HttpServerRequest, session: NewSession, next: string) =>
  Effect.map(AppConfig, (config) => {
    const secure = isHttps(request, config)
    return withoutCookie(
      withCookie(seeOther(safeNext(next)), sessionCookie, session.token, {
        secure,
        path: "/",
        maxAgeSeconds: sessionHours * 3600
      }),
      challengeCookie,
      { secure, path: base }
    )
  })

const lockedPage = (message: string) =>
  problemPage(429, "Signing in is locked for now", message, html`<a href="${base}/sign-in">Back to sign-in</a>`)

const startAgain = (message: string) =>
  problemPage(400, "Start signing in again", message, html`<a class="button" href="${base}/sign-in">Sign in</a>`)

const showSignIn = guarded(Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  if ((yield* currentPerson) !== undefined) return seeOther(safeNext(nextOf(request)))
  return yield* withBrowserToken((csrf) => signInForm({ csrf, next: safeNext(nextOf(request)), notice: noticeOf(request) }))
}))

const submitSignIn = anonymousAction(
  (request) => request.cookies[browserCookie],
  (form, request) =>
    Effect.gen(function*() {
      const signIn = yield* SignIn
      const config = yield* AppConfig
      const email = form.get("email") ?? ""
      const next = safeNext(form.get("next"))
      const csrf = csrfTokenFor(request.cookies[browserCookie] ?? "")
      if (email.trim() === "" || (form.get("password") ?? "") === "") {
        return signInForm({ csrf, next, email, error: "Type your email and your password.", status: 400 })
      }
      return yield* signIn.password(email, form.get("password") ?? "").pipe(
        Effect.flatMap((outcome): Effect.Effect<HttpServerResponse.HttpServerResponse, never, AppConfig> =>
          outcome._tag === "SignedIn"
            ? signedIn(request, outcome.session, next)
            : Effect.succeed(
              withCookie(seeOther(`${base}/sign-in/code?next=${encodeURIComponent(next)}`), challengeCookie, outcome.challenge, {
                secure: isHttps(request, config),
                path: base,
                maxAgeSeconds: challengeMinutes * 60
              })
            )
        ),
        Effect.catchTags({
          SignInRefused: (refused) => Effect.succeed(signInForm({ csrf, next, email, error: refused.message, status: 401 })),
          LockedOut: (locked) => Effect.succeed(lockedPage(locked.message))
        })
      )
    })
)

const showCode = guarded(Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const signIn = yield* SignIn
  const challenge = request.cookies[challengeCookie]
  if (challenge === undefined || !(yield* signIn.challengeOpen(challenge))) {
    return startAgain("This step of signing in has expired (it lasts 10 minutes) or was already used.")
  }
  return codeForm({ csrf: csrfTokenFor(challenge), next: safeNext(nextOf(request)) })
}))

const submitCode = anonymousAction(
  (request) => request.cookies[challengeCookie],
  (form, request) =>
    Effect.gen(function*() {
      const signIn = yield* SignIn
      const config = yield* AppConfig
      const challenge = request.cookies[challengeCookie] ?? ""
      const next = safeNext(form.get("next"))
      const clear = (response: HttpServerResponse.HttpServerResponse) =>
        withoutCookie(response, challengeCookie, { secure: isHttps(request, config), path: base })
      return yield* signIn.secondFactor(challenge, form.get("code") ?? "").pipe(
        Effect.flatMap((session) => signedIn(request, session, next)),
        Effect.catchTags({
          SignInRefused: (refused) =>
            Effect.succeed(codeForm({ csrf: csrfTokenFor(challenge), next, error: refused.message, status: 401 })),
          LockedOut: (locked) => Effect.succeed(clear(lockedPage(locked.message))),
          ChallengeExpired: (expired) => Effect.succeed(clear(startAgain(expired.message)))
        })
      )
    })
)

const signedOut = (request: HttpServerRequest.HttpServerRequest, notice: string) =>
  Effect.map(AppConfig, (config) =>
    withoutCookie(seeOther(`${base}/sign-in?notice=${notice}`), sessionCookie, { secure: isHttps(request, config), path: "/" }))

const signOut = signedInAction((person, _form, request) =>
  Effect.gen(function*() {
    yield* (yield* Sessions).end(person.sessionId)
    return yield* signedOut(request, "signed-out")
  })
)

const signOutEverywhere = signedInAction((person, _form, request) =>
  Effect.gen(function*() {
    yield* (yield* Sessions).endAllOf(person.userId)
    return yield* signedOut(request, "signed-out-everywhere")
  })
)

export const layer = Layer.mergeAll(
  HttpRouter.add("GET", `${base}/sign-in`, showSignIn),
  HttpRouter.add("POST", `${base}/sign-in`, submitSignIn),
  HttpRouter.add("GET", `${base}/sign-in/code`, showCode),
  HttpRouter.add("POST", `${base}/sign-in/code`, submitCode),
  HttpRouter.add("POST", `${base}/sign-out`, signOut),
  HttpRouter.add("POST", `${base}/sign-out-everywhere`, signOutEverywhere)
)
