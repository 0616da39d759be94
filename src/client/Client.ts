/**
 * The typed client, `outreach-service/client`: every endpoint of the contract
 * as a method, its inputs and answers typed by the same Schemas the server
 * uses, and each endpoint's errors as typed failures (`NotFound`,
 * `Unprocessable`, ...). Built with `HttpApiClient` from the contract.
 *
 * @since 1.0.0
 */
import { Effect } from "effect"
import { FetchHttpClient, HttpClientRequest } from "effect/http"
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
