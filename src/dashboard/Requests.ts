/**
 * What every dashboard route shares: who is signed in (the gate resolved the
 * session cookie), reading a form, the CSRF check of every form that changes
 * something, and turning any failure into a page that says what happened
 * (never a stack trace or a blank page).
 */
import { Cause, Effect, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse, UrlParams } from "effect/http"
import { Uuid } from "../api/Envelope.ts"
import { type Action, permits, refusal } from "../domain/Permissions.ts"
import type { Principal } from "../domain/Principal.ts"
import { TwoFactorSettings } from "../team/TwoFactorSettings.ts"
import { isDatabaseUnreachable } from "../platform/Causes.ts"
import { Admitted } from "../http/Admission.ts"
import { html } from "./Html.ts"
import { base, plainPage, problemPage, type Viewer } from "./Layout.ts"
import { AppConfig } from "../platform/AppConfig.ts"
import { csrfMatches, csrfTokenFor, sessionTokenOf } from "../http/SessionCookie.ts"
import { browserCookie, csrfField, isHttps, newBrowserValue, withCookie } from "./Session.ts"

/** The signed-in person of a request. */
export interface Person extends Viewer {
  readonly userId: string
  readonly workspaceId: string
  readonly sessionId: string
  /** The session token (the cookie's value): the key of the CSRF tokens. */
  readonly token: string
  readonly principal: Extract<Principal, { readonly kind: "session" }>
}

/** A submitted form's fields. */
export interface Form {
  readonly get: (name: string) => string | undefined
  readonly all: (name: string) => ReadonlyArray<string>
}

/** The person signed in by the session cookie, if any. */
export const currentPerson: Effect.Effect<Person | undefined, never, HttpServerRequest.HttpServerRequest> = Effect.gen(
  function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const token = sessionTokenOf(request)
    const admitted = yield* Admitted
    const principal = admitted.principal
    if (token === undefined || admitted.via !== "cookie" || principal === undefined || principal.kind !== "session") {
      return undefined
    }
    return {
      userId: principal.user.id,
      workspaceId: principal.workspaceId,
      sessionId: principal.sessionId,
      name: principal.user.name,
      email: principal.user.email,
      role: principal.user.role,
      token,
      csrf: csrfTokenFor(token),
      principal
    }
  }
)

/** Whether the person's role may do `action` (the table of `domain/Permissions.ts`). */
export const may = (person: Person, action: Action): boolean => permits(person.role, action)

class FormUnreadable {
  readonly _tag = "FormUnreadable"
}

/** The request's url-encoded form. */
export const readForm: Effect.Effect<Form, FormUnreadable, HttpServerRequest.HttpServerRequest> = Effect.gen(
  function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const params = yield* request.urlParamsBody.pipe(Effect.mapError(() => new FormUnreadable()))
    return {
      get: (name) => Option.getOrUndefined(UrlParams.getFirst(params, name)),
      all: (name) => UrlParams.getAll(params, name)
    }
  }
)

/** A local dashboard path to go back to after signing in; anything else is ignored. */
export const safeNext = (next: string | undefined): string =>
  next !== undefined && /^\/dashboard(?:[/?][A-Za-z0-9\-._~%/?=&]*)?$/.test(next) ? next : base

export const seeOther = (location: string) => HttpServerResponse.redirect(location, { status: 303 })

/** Whether htmx sent the request (it then gets a fragment, not a whole page). */
export const fromHtmx = Effect.map(
  HttpServerRequest.HttpServerRequest,
  (request) => request.headers["hx-request"] === "true"
)

const csrfRefused = problemPage(
  403,
  "This form cannot be accepted",
  "The form was sent without its security token, or with one from an older session, so nothing was changed. Go back, reload the page and try again."
)

const sessionEnded = (next: string) =>
  plainPage({
    title: "Please sign in again",
    status: 401,
    body: html`<p>Your session has ended (you signed out, it expired, or it was ended from another device), so nothing was changed.</p>
<p><a class="button" href="${base}/sign-in?next=${encodeURIComponent(next)}">Sign in</a></p>`
  })

const unreadableForm = problemPage(400, "This form could not be read", "The form arrived incomplete or too large. Go back and try again.")

/**
 * Any failure left becomes a page: the database out of reach (503, try again) or anything
 * else (500, logged with its cause). Interruptions stay interruptions.
 */
export const guarded = <E, R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.catchCause(effect, (cause) => {
    if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause)
    if (isDatabaseUnreachable(cause)) {
      return Effect.succeed(
        problemPage(503, "Try again in a moment", "The service cannot reach its database right now. It reconnects by itself: reload this page in a few seconds.")
      )
    }
    return Effect.logError("dashboard page failed unexpectedly", cause).pipe(
      Effect.as(problemPage(500, "Something went wrong", "The page could not be shown because of an error on our side; it has been logged. Try again, and tell your administrator if it keeps happening."))
    )
  })

/** What a dashboard path that is not served answers (a person reads it, not a program). */
export const notFoundPage = problemPage(
  404,
  "Page not found",
  "There is no such page in the dashboard. The link may be mistyped or out of date."
)

const isUuid = Schema.is(Uuid)

/**
 * Whether every id in the route's path is one: checked before any handler, so no id that
 * is not a UUID reaches SQL (an invitation's `token` is looked up by its hash, not cast).
 */
const pathIdsValid = Effect.map(
  HttpRouter.params,
  (params) => Object.entries(params).every(([name, value]) => name === "token" || (value !== undefined && isUuid(value)))
)

/** A page for signed-in people; others are sent to sign in and come back. */
export const signedInPage = <E, R>(
  handler: (person: Person, request: HttpServerRequest.HttpServerRequest) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
) =>
  guarded(Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const person = yield* currentPerson
    if (person === undefined) return seeOther(`${base}/sign-in?next=${encodeURIComponent(request.url)}`)
    if (!(yield* pathIdsValid)) return notFoundPage
    // The workspace requires two-factor and this person has none yet: setting it up comes first.
    if (!request.url.startsWith(`${base}/security`) && (yield* (yield* TwoFactorSettings).mustSetUp(person.workspaceId, person.userId))) {
      return seeOther(`${base}/security?notice=required`)
    }
    return yield* handler(person, request)
  }))

/** A form of a signed-in person that changes something: signed in, readable, and with its CSRF token. */
export const signedInAction = <E, R>(
  handler: (
    person: Person,
    form: Form,
    request: HttpServerRequest.HttpServerRequest
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
) =>
  guarded(Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const person = yield* currentPerson
    const referer = request.headers["referer"]
    if (person === undefined) {
      const back = referer !== undefined && URL.canParse(referer, "http://localhost") ? new URL(referer, "http://localhost").pathname : undefined
      return sessionEnded(safeNext(back))
    }
    if (!(yield* pathIdsValid)) return notFoundPage
    const form = yield* Effect.option(readForm)
    if (Option.isNone(form)) return unreadableForm
    if (!csrfMatches(person.token, form.value.get(csrfField))) return csrfRefused
    return yield* handler(person, form.value, request)
  }))

/** A form shown before sign-in: readable and with the CSRF token for `secret`. */
export const anonymousAction = <E, R>(
  secretOf: (request: HttpServerRequest.HttpServerRequest) => string | undefined,
  handler: (form: Form, request: HttpServerRequest.HttpServerRequest) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
) =>
  guarded(Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const form = yield* Effect.option(readForm)
    if (Option.isNone(form)) return unreadableForm
    const secret = secretOf(request)
    if (secret === undefined || !csrfMatches(secret, form.value.get(csrfField))) return csrfRefused
    return yield* handler(form.value, request)
  }))

/**
 * A page shown before sign-in whose form needs a CSRF token: keyed with the browser's
 * `outreach_browser` cookie, set on the response when the browser has none yet.
 */
export const withBrowserToken = (render: (csrf: string) => HttpServerResponse.HttpServerResponse) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const config = yield* AppConfig
    const existing = request.cookies[browserCookie]
    const value = existing !== undefined && existing.length >= 16 ? existing : newBrowserValue()
    const response = render(csrfTokenFor(value))
    return existing === value
      ? response
      : withCookie(response, browserCookie, value, { secure: isHttps(request, config), path: base, maxAgeSeconds: 86_400 })
  })

/** 403 for a page or form the person's role may not use, in the table's words. */
export const notAllowedPage = (person: Person, action: Action) =>
  problemPage(403, "Not for your role", `${refusal(person.role, action)} Ask an owner or admin of the workspace if you need a change.`)
