/**
 * The one error a network command or sync can fail with. Its fields are the
 * job error envelope's (`{type, message, next}`), so a job that fails on the
 * network reports it as it is.
 */
import { Schema } from "effect"

/**
 * Why the network refused:
 * - `invalidInput`: an address, id, cursor or value the network cannot use (the message names the reason);
 * - `notFound`: nothing there (an unknown invitation, a post not published yet...);
 * - `guardrail`: one of the network's rules forbids it (already connected, already invited, not a connection...);
 * - `noteQuotaExhausted`: a free account's sixth invitation note in a calendar month;
 * - `cannotResendYet`: an invitation within 3 weeks of withdrawing the last one (`until` says when it can go);
 * - `network`: the network failed or could not be reached; retrying later may work;
 * - `notSupported`: the account's network (its driver) cannot do this command at all;
 * - `providerRateLimited`: the provider that reaches the network asked to slow down, and kept asking;
 * - `signedOut`: the network signed the account out (or restricted it); it must be reconnected.
 */
export const NetworkErrorType = Schema.Literals([
  "invalidInput",
  "notFound",
  "guardrail",
  "noteQuotaExhausted",
  "cannotResendYet",
  "network",
  "notSupported",
  "providerRateLimited",
  "signedOut"
]).annotate({ description: "Why the network refused" })
export type NetworkErrorType = typeof NetworkErrorType.Type

/** A refusal or failure of the network, with what to do about it. */
export class NetworkError extends Schema.TaggedError<NetworkError>()("NetworkError", {
  type: NetworkErrorType,
  message: Schema.String,
  next: Schema.String,
  /** For `noteQuotaExhausted` and `cannotResendYet`: the instant (ISO 8601) the action becomes possible again. */
  until: Schema.optionalKey(Schema.String)
}) {}

/** A `NetworkError` of the given type. */
export const networkError = (
  type: NetworkErrorType,
  message: string,
  next: string,
  until?: string
): NetworkError => new NetworkError(until === undefined ? { type, message, next } : { type, message, next, until })
