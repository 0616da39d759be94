/**
 * One command's view of the provider: the service's account, the provider account that holds it,
 * the client and the store, and now (the `Clock`'s). Every provider call goes through `ask`:
 * transient failures (no answer, 5xx, 429) are retried with `providerBackoff`, then every failure
 * is named (`Errors.ts`).
 */
import { Clock, Effect } from "effect"
import type { UnipileClient } from "unipile-node-sdk"
import { type NetworkError, networkError } from "../NetworkErrors.ts"
import { type Client, paced, type ProviderFailure } from "./UnipileClient.ts"
import { isTransient, providerBackoff, toNetworkError } from "./UnipileErrors.ts"
import type { Store } from "./Store.ts"

export interface Session {
  readonly client: Client
  readonly store: Store
  readonly accountId: string
  /** Unipile's `account_id` of the seat. */
  readonly providerAccount: string
  /** The command being run, for the errors' messages. */
  readonly command: string
  /** Whether a `connect` carries a note (the provider's `limit_exceeded` then means the notes' quota). */
  readonly withNote: boolean
}

/** Retries `effect` while it fails transiently, with the provider's backoff. */
export const retried = <A>(effect: Effect.Effect<A, ProviderFailure>): Effect.Effect<A, ProviderFailure> =>
  Effect.retry(effect, { schedule: providerBackoff, while: isTransient })

/** Names a provider failure for the session's command. */
export const named = (session: Pick<Session, "command" | "withNote">) => (failure: ProviderFailure): Effect.Effect<never, NetworkError> =>
  Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.fail(toNetworkError(failure, { command: session.command, withNote: session.withNote, now })))

/** An SDK call as the session's seat: retried while transient, then named. */
export const ask = <A>(session: Session, name: string, run: (client: UnipileClient) => Promise<A>): Effect.Effect<A, NetworkError> =>
  retried(session.client.call(name, run)).pipe(Effect.catch(named(session)))

/**
 * A session for the service's account; `signedOut` when no provider account holds it. Each of its
 * calls waits first for `pace` of the seat (its share of the provider's rate, `RequestRate.ts`).
 */
export const open = (
  client: Client,
  store: Store,
  accountId: string,
  command: string,
  withNote = false,
  pace: (providerAccount: string) => Effect.Effect<void> = () => Effect.void
): Effect.Effect<Session, NetworkError> =>
  Effect.flatMap(store.providerAccountOf(accountId), (providerAccount) =>
    providerAccount === undefined
      ? Effect.fail(networkError(
        "signedOut",
        "The account is not signed in on the provider yet.",
        "Connect it first: POST /v1/accounts/{id}/native-auth, or its connectUrl."
      ))
      : Effect.succeed({ client: paced(client, pace(providerAccount)), store, accountId, providerAccount, command, withNote }))
