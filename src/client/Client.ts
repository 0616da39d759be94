/**
 * The typed client, `outreach-service/client`: every endpoint of the contract
 * as a method, its inputs and answers typed by the same Schemas the server
 * uses, and each endpoint's errors as typed failures (`NotFound`,
 * `Unprocessable`, ...). Built with `HttpApiClient` from the contract.
 */
import { Effect, Predicate, Record, Schema } from "effect"
import { FetchHttpClient, HttpClientRequest, type HttpClientResponse } from "effect/http"
import { HttpApiClient, HttpApiMiddleware } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { Authentication } from "../api/Security.ts"

/** The client side of the API's authentication: the key goes on every request. */
export const bearer = (apiKey: string) =>
  HttpApiMiddleware.layerClient(Authentication, ({ next, request }) => next(HttpClientRequest.bearerToken(request, apiKey)))

/** A client of the service at `baseUrl` (`http://127.0.0.1:8080`), on the `HttpClient` in context. */
export const makeWith = (options: { readonly baseUrl: string; readonly apiKey: string }) =>
  HttpApiClient.make(Api, { baseUrl: options.baseUrl }).pipe(Effect.provide(bearer(options.apiKey)))

/** A client of the service at `baseUrl`, over `fetch`. */
export const make = (options: { readonly baseUrl: string; readonly apiKey: string }) =>
  makeWith(options).pipe(Effect.provide(FetchHttpClient.layer))

/** The client's type: `client.accounts.connect(...)`, `client.jobs.get(...)`, ... */
export type Client = Effect.Success<ReturnType<typeof make>>

/**
 * A failed call of the Promise API: the envelope's `message` as the error's message, its
 * `type` (`notFound`, `unprocessable`, ...) and `next`, and the HTTP status when there was one
 * (a request that never reached the service has type `network`).
 */
export class OutreachError extends Error {
  override readonly name = "OutreachError"
  readonly type: string
  readonly next: string
  readonly status: number | undefined
  constructor(options: { readonly type: string; readonly message: string; readonly next: string; readonly status?: number | undefined }) {
    super(options.message)
    this.type = options.type
    this.next = options.next
    this.status = options.status
  }
}

const Envelope = Schema.Struct({ error: Schema.Struct({ type: Schema.String, message: Schema.String, next: Schema.String }) })
const isEnvelope = Schema.is(Envelope)

/** Any failure of the Effect API as an {@link OutreachError}. */
const toOutreachError = (failure: unknown): OutreachError =>
  isEnvelope(failure)
    ? new OutreachError({
      ...failure.error,
      status: Predicate.hasProperty(failure, "status") && typeof failure.status === "number" ? failure.status : undefined
    })
    : new OutreachError({
      type: "network",
      message: failure instanceof Error && failure.message !== "" ? failure.message : String(failure),
      next: "Check that the service is running at the base URL and reachable, then try again."
    })

type Method = (...args: never) => Effect.Effect<unknown, unknown>

/** What a method answers: the body (the Effect API can also answer the raw response, which this API does not ask for). */
type Body<A> = Exclude<A, HttpClientResponse.HttpClientResponse | readonly [unknown, HttpClientResponse.HttpClientResponse]>

/** The Effect client's methods as functions answering Promises of the answer's body. */
export type PromiseClient<C> = {
  readonly [Group in keyof C]: {
    readonly [Name in keyof C[Group]]: C[Group][Name] extends (...args: infer Args) => Effect.Effect<infer A, infer _E, infer _R>
      ? (...args: Args) => Promise<Body<A>>
      : never
  }
}

function promised<C extends Record<string, Record<string, Method>>>(client: C): PromiseClient<C>
function promised(client: Record<string, Record<string, Method>>): Record<string, Record<string, (...args: never) => Promise<unknown>>> {
  return Record.map(client, (group) =>
    Record.map(group, (method) => (...args: Parameters<typeof method>) =>
      Effect.runPromise(Effect.mapError(method(...args), toOutreachError))))
}

/**
 * The client for code that does not use Effect: the same methods, each answering a Promise
 * that rejects with an {@link OutreachError}.
 *
 * ```ts
 * const client = Client.makePromise({ baseUrl: "http://127.0.0.1:8080", apiKey: "svc_..." })
 * const { accounts } = await client.accounts.list()
 * ```
 */
export const makePromise = (options: { readonly baseUrl: string; readonly apiKey: string }): PromiseClient<Client> =>
  promised(Effect.runSync(make(options)))
