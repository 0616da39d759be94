/**
 * The request-rate rule: 600 requests per credential per fixed calendar
 * minute, shared by every server through PostgreSQL. This module holds the
 * arithmetic and the headers; the counting is one SQL statement, the
 * `claim_requests` function (migrations/0070) that `auth/Credentials.ts` calls.
 */

/** Requests allowed per credential (or client address) per calendar minute. */
export const requestsPerMinute = 600

/** The calendar minute an instant falls in, as a whole number of minutes since the epoch. */
export const windowOf = (nowMs: number): number => Math.floor(nowMs / 60_000)

/** Whole seconds until the current window ends (1 to 60). */
export const secondsUntilReset = (nowMs: number): number => Math.max(1, Math.ceil((60_000 - (nowMs % 60_000)) / 1000))

/** Where a request stands in its window. */
export interface RateWindow {
  readonly limit: number
  readonly remaining: number
  readonly resetSeconds: number
  readonly exceeded: boolean
}

/** The window state after counting `hits` requests (this one included) at `nowMs`. */
export const rateWindow = (hits: number, nowMs: number): RateWindow => ({
  limit: requestsPerMinute,
  remaining: Math.max(0, requestsPerMinute - hits),
  resetSeconds: secondsUntilReset(nowMs),
  exceeded: hits > requestsPerMinute
})

/** The `ratelimit-*` headers every response carries, plus `retry-after` when over the limit. */
export const rateLimitHeaders = (window: RateWindow): Record<string, string> => {
  const headers: Record<string, string> = {
    "ratelimit-limit": String(window.limit),
    "ratelimit-remaining": String(window.remaining),
    "ratelimit-reset": String(window.resetSeconds)
  }
  if (window.exceeded) headers["retry-after"] = String(window.resetSeconds)
  return headers
}
