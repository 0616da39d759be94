/**
 * The session cookie as a credential of the REST gate: a request without an
 * `Authorization` header may be signed in by the `outreach_session` cookie (a
 * `sess_` token), and a change it asks for must carry the CSRF token in
 * `x-csrf-token`, since a browser sends the cookie on its own.
 *
 * A CSRF token is an HMAC-SHA256, keyed with a secret (the session token, or
 * before sign-in a browser value or sign-in token), of a fixed label: it is tied
 * to that secret, needs no storage, and a page on another site can neither read
 * nor compute it. The dashboard (`dashboard/Session.ts`) sets the cookie and puts
 * the same token in its forms; it imports these rules, the gate never imports it.
 */
import { createHmac, timingSafeEqual } from "node:crypto"
import type { HttpServerRequest } from "effect/http"

export const sessionCookie = "outreach_session"

/** The header that carries a CSRF token on a REST call signed in by the cookie. */
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

/** The session token a request's cookie holds, if it has the shape of one. */
export const sessionTokenOf = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
  const value = request.cookies[sessionCookie]
  return value !== undefined && value.startsWith("sess_") ? value : undefined
}
