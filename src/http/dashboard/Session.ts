/**
 * The browser's side of a session: the cookies and the CSRF tokens.
 *
 * - `outreach_session` holds the `sess_` token: HttpOnly, SameSite=Lax, Path=/,
 *   Secure when the dashboard is reached over https, Max-Age the session's life.
 * - `outreach_signin` holds the token of a sign-in waiting for its two-factor code
 *   (Path=/dashboard, for the length of that step).
 * - `outreach_browser` is a random value for the forms shown before sign-in.
 *
 * A form's CSRF token is an HMAC-SHA256, keyed with the session token (or, before
 * sign-in, with the browser value or the sign-in token), of a fixed label: it is
 * tied to the session, needs no storage, and a page on another site can neither
 * read nor compute it. Every state-changing form carries it as `_csrf`; a REST
 * call authenticated by the cookie carries it in `x-csrf-token`.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { Duration, Option } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import type { AppSettings } from "../../platform/AppConfig.ts"

export const sessionCookie = "outreach_session"
export const challengeCookie = "outreach_signin"
export const browserCookie = "outreach_browser"

/** The form field and the header that carry a CSRF token. */
export const csrfField = "_csrf"
export const csrfHeader = "x-csrf-token"

/** The CSRF token of forms shown with `secret` (a session token, sign-in token or browser value). */
export const csrfTokenFor = (secret: string): string =>
  createHmac("sha256", secret).update("outreach-dashboard-csrf-v1").digest("base64url")

/** Whether `given` is the CSRF token for `secret`, compared in constant time. */
export const csrfMatches = (secret: string, given: string | undefined): boolean => {
  if (given === undefined || secret === "") return false
  const expected = Buffer.from(csrfTokenFor(secret))
  const actual = Buffer.from(given)
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/** A new value for the browser cookie. */
export const newBrowserValue = (): string => randomBytes(24).toString("base64url")

/** Over https (PUBLIC_URL, or a proxy saying so), cookies are Secure. */
export const isHttps = (request: HttpServerRequest.HttpServerRequest, config: AppSettings): boolean =>
  Option.match(config.publicUrl, {
    onNone: () => false,
    onSome: (url) => url.startsWith("https:")
  }) || request.headers["x-forwarded-proto"] === "https"

const cookieOptions = (secure: boolean, path: string, maxAgeSeconds: number) => ({
  httpOnly: true,
  sameSite: "lax" as const,
  secure,
  path,
  maxAge: Duration.seconds(Math.max(0, Math.floor(maxAgeSeconds)))
})

/** Sets a cookie (values are base64url, always encodable). */
export const withCookie = (
  response: HttpServerResponse.HttpServerResponse,
  name: string,
  value: string,
  options: { readonly secure: boolean; readonly path: string; readonly maxAgeSeconds: number }
) => HttpServerResponse.setCookieUnsafe(response, name, value, cookieOptions(options.secure, options.path, options.maxAgeSeconds))

/** Removes a cookie from the browser. */
export const withoutCookie = (
  response: HttpServerResponse.HttpServerResponse,
  name: string,
  options: { readonly secure: boolean; readonly path: string }
) => HttpServerResponse.setCookieUnsafe(response, name, "", cookieOptions(options.secure, options.path, 0))

/** The session token a request's cookie holds, if it has the shape of one. */
export const sessionTokenOf = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
  const value = request.cookies[sessionCookie]
  return value !== undefined && value.startsWith("sess_") ? value : undefined
}
