/**
 * The browser's side of a session: the cookies the dashboard sets and clears.
 *
 * - `outreach_session` (`http/SessionCookie.ts`, where the gate reads it) holds the
 *   `sess_` token: HttpOnly, SameSite=Lax, Path=/, Secure when the dashboard is
 *   reached over https, Max-Age the session's life.
 * - `outreach_signin` holds the token of a sign-in waiting for its two-factor code
 *   (Path=/dashboard, for the length of that step).
 * - `outreach_browser` is a random value for the forms shown before sign-in.
 *
 * Every state-changing form carries its CSRF token (`http/SessionCookie.ts`'s
 * `csrfTokenFor`, keyed with the session token, or before sign-in with the browser
 * value or the sign-in token) as `_csrf`.
 */
import { randomBytes } from "node:crypto"
import { Duration, Option } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import type { AppSettings } from "../platform/AppConfig.ts"

export const challengeCookie = "outreach_signin"
export const browserCookie = "outreach_browser"

/** The form field that carries a CSRF token. */
export const csrfField = "_csrf"

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
