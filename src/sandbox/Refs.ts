/**
 * Command inputs turned into the sandbox's references, with the parsers' and
 * pagers' refusals as `invalidInput` network errors that name the field and
 * the reason.
 */
import { Effect, Result } from "effect"
import { networkError, type NetworkError } from "../network/NetworkErrors.ts"
import {
  type CompanyAddress,
  type InvalidAddress,
  parseCompanyAddress,
  parsePostAddress,
  parseProfileAddress,
  type PostAddress,
  type ProfileRef
} from "./Addresses.ts"
import type { InvalidPageRequest } from "./Paging.ts"

const invalidAddress = (field: string) => (error: InvalidAddress): NetworkError =>
  networkError(
    "invalidInput",
    `${field}: ${error.message} (reason: ${error.reason})`,
    `Send a ${error.kind} address the network knows in ${field}.`
  )

/** The person at the address in `field`. */
export const personIn = (field: string, raw: string): Effect.Effect<ProfileRef, NetworkError> =>
  Effect.fromResult(Result.mapError(parseProfileAddress(raw), invalidAddress(field)))

/** The company address in `field`. */
export const companyIn = (field: string, raw: string): Effect.Effect<CompanyAddress, NetworkError> =>
  Effect.fromResult(Result.mapError(parseCompanyAddress(raw), invalidAddress(field)))

/** The post address in `field`. */
export const postIn = (field: string, raw: string): Effect.Effect<PostAddress, NetworkError> =>
  Effect.fromResult(Result.mapError(parsePostAddress(raw), invalidAddress(field)))

/** A page from a pager, its refusal (bad cursor or limit) as `invalidInput`. */
export const page = <A>(result: Result.Result<A, InvalidPageRequest>): Effect.Effect<A, NetworkError> =>
  Effect.fromResult(Result.mapError(result, (error) =>
    networkError(
      "invalidInput",
      `${error.reason === "badCursor" ? "cursor" : "limit"}: ${error.message} (reason: ${error.reason})`,
      error.reason === "badCursor" ? "Start again without a cursor." : "Ask for 1 to 100 items."
    )))

/**
 * Every item of a paged list, following its cursors (the sandbox's lists of
 * chats and invitations are short: a few dozen items).
 */
export const everything = <A>(
  pager: (request: { readonly cursor?: string | null; readonly limit: number }) => Result.Result<
    { readonly items: ReadonlyArray<A>; readonly cursor: string | null },
    InvalidPageRequest
  >
): ReadonlyArray<A> => {
  const items: Array<A> = []
  let cursor: string | null = null
  do {
    const result = pager({ cursor, limit: 100 })
    if (Result.isFailure(result)) return items
    items.push(...result.success.items)
    cursor = result.success.cursor
  } while (cursor !== null)
  return items
}
