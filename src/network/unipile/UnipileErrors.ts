/**
 * The provider's failures as the service's named network errors, and which ones are worth
 * trying again. An outage (no answer, 5xx, the provider's own time-out) and the provider's rate
 * limit (429) are transient: they are retried with `providerBackoff` and never reported as the
 * network refusing. Everything else is the network's (or the provider's) answer, named:
 *
 * | provider (`errors/...`) | service (`NetworkError.type`) |
 * |---|---|
 * | `cannot_resend_yet` | `cannotResendYet`, `until` 3 weeks after now |
 * | `limit_exceeded` on a `connect` with a note | `noteQuotaExhausted`, `until` the 1st of next month |
 * | `limit_exceeded` otherwise, `already_invited_recently`, `already_connected`, `no_connection_with_recipient`, `not_allowed_inmail`, `insufficient_credits`, `blocked_recipient`, `cannot_invite_attendee`, `user_unreachable`, `action_already_performed`, `feature_not_subscribed`, `subscription_required`, `insufficient_permissions` | `guardrail` |
 * | `invalid_recipient`, `invalid_parameters`, `too_many_characters`, `invalid_message`, `invalid_post`, other 400 and 422 | `invalidInput` |
 * | `resource_not_found`, `invalid_resource_identifier` (404) | `notFound` |
 * | `disconnected_account`, `invalid_credentials`, `expired_credentials`, `account_restricted`, other 401 and 403 of the account | `signedOut` |
 * | 429 `too_many_requests`, still after the retries | `providerRateLimited` |
 * | no answer, 5xx, 504, still after the retries; an answer the SDK's validator refused | `network` |
 */
import { DateTime, Schedule } from "effect"
import { type NetworkError, networkError } from "../NetworkErrors.ts"
import type { ProviderFailure } from "./UnipileClient.ts"

/** Worth trying again: the provider did not answer, failed, or asked to slow down. */
export const isTransient = (failure: ProviderFailure): boolean =>
  failure.type !== "invalid_response" &&
  (failure.status === null || failure.status >= 500 || failure.status === 429 || failure.status === 408)

/** Whether the provider may have done the work although no answer said so (a write is then looked up). */
export const isAmbiguous = (failure: ProviderFailure): boolean =>
  failure.status === null || failure.status === 504 || failure.status === 500

/**
 * How transient failures are retried: exponential from 250 ms, doubling, jittered, 5 retries
 * (about 8 s in all). The provider's rate limit is per API key, so every server of a deployment
 * backs off from the same answer.
 */
export const providerBackoff = Schedule.max([Schedule.exponential("250 millis", 2).pipe(Schedule.jittered), Schedule.recurs(5)])

const guardrails = new Set([
  "limit_exceeded",
  "already_invited_recently",
  "already_connected",
  "no_connection_with_recipient",
  "not_allowed_inmail",
  "insufficient_credits",
  "blocked_recipient",
  "cannot_invite_attendee",
  "user_unreachable",
  "action_already_performed",
  "feature_not_subscribed",
  "subscription_required",
  "insufficient_permissions"
])

const signedOut = new Set(["disconnected_account", "invalid_credentials", "expired_credentials", "account_restricted", "multiple_sessions"])

const plusDays = (now: number, days: number) => DateTime.formatIso(DateTime.makeUnsafe(now + days * 86_400_000))
const firstOfNextMonth = (now: number) => {
  const date = new Date(now)
  return DateTime.formatIso(DateTime.makeUnsafe(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)))
}

/** The named network error a provider failure comes to, for `command` at `now` (epoch ms). */
export const toNetworkError = (failure: ProviderFailure, context: { readonly command: string; readonly withNote: boolean; readonly now: number }): NetworkError => {
  const said = `The provider answered ${failure.status ?? "nothing"} ${failure.type}: ${failure.detail}`
  if (failure.type === "cannot_resend_yet") {
    return networkError(
      "cannotResendYet",
      `The invitation to this person was withdrawn less than 3 weeks ago; the network refuses a new one until then. (${said})`,
      "Create the connect job again after the date in `until`.",
      plusDays(context.now, 21)
    )
  }
  if (failure.type === "limit_exceeded" && context.command === "connect" && context.withNote) {
    return networkError(
      "noteQuotaExhausted",
      `The network refused the invitation's note: the account's monthly notes are used up. (${said})`,
      "Send the invitation without a note, or after the date in `until`.",
      firstOfNextMonth(context.now)
    )
  }
  if (failure.status === 429) {
    return networkError("providerRateLimited", `The provider kept asking to slow down. (${said})`, "Retry the job later.")
  }
  if (isTransient(failure) || failure.type === "invalid_response") {
    return networkError("network", `The provider could not be reached or failed. (${said})`, "Retry the job later.")
  }
  if (signedOut.has(failure.type) || ((failure.status === 401 || failure.status === 403) && !guardrails.has(failure.type))) {
    return networkError("signedOut", `The network signed the account out or restricted it. (${said})`, "Reconnect the account (POST /v1/accounts/{id}/reconnect).")
  }
  if (guardrails.has(failure.type)) {
    return networkError("guardrail", `One of the network's rules forbids ${context.command}. (${said})`, "Do not retry as is: the network's answer will not change soon.")
  }
  if (failure.status === 404) {
    return networkError("notFound", `Nothing there on the network. (${said})`, "Check the id or address, and that it still exists.")
  }
  return networkError("invalidInput", `The network cannot use the input of ${context.command}. (${said})`, "Fix the input and create the job again.")
}
