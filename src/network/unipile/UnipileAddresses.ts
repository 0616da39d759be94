/**
 * The identifier Unipile takes for each address form the commands accept: a person's public
 * identifier (the slug of `/in/<slug>`) or provider id (`ACoAA...`, or a Sales Navigator lead's
 * `ACwAA...`), a company's slug or numeric id, a post's activity urn. An address that is none of
 * these fails `invalidInput`, before any call is made.
 */
import { Effect } from "effect"
import { type NetworkError, networkError } from "../NetworkErrors.ts"

const refuse = (kind: string, address: string, why: string) =>
  Effect.fail(networkError("invalidInput", `The ${kind} address "${address.slice(0, 200)}" ${why}.`, `Give a ${kind} address the command accepts (see its input's description).`))

const pathOf = (address: string): ReadonlyArray<string> | undefined => {
  try {
    const url = new URL(address)
    if (!/(^|\.)linkedin\.com$/i.test(url.hostname)) return undefined
    return url.pathname.split("/").filter((part) => part.length > 0).map(decodeURIComponent)
  } catch {
    return undefined
  }
}

const looksLikeUrl = (address: string) => /^[a-z]+:\/\//i.test(address)
const identifierPattern = /^[A-Za-z0-9][A-Za-z0-9_-]{1,99}$/

/** The identifier of the person an address names, for `GET /users/{identifier}`. */
export const personIdentifier = (address: string): Effect.Effect<string, NetworkError> => {
  const trimmed = address.trim()
  if (looksLikeUrl(trimmed)) {
    const path = pathOf(trimmed)
    if (path === undefined) return refuse("person", address, "is not an address on the network")
    if (path[0] === "in" && path[1] !== undefined) return Effect.succeed(path[1].toLowerCase())
    if (path[0] === "sales" && (path[1] === "lead" || path[1] === "people") && path[2] !== undefined) {
      return Effect.succeed(path[2].split(",")[0])
    }
    return refuse("person", address, "names no person")
  }
  return identifierPattern.test(trimmed) ? Effect.succeed(trimmed) : refuse("person", address, "is neither a profile address nor an identifier")
}

/** The identifier of the company an address names, for `GET /linkedin/company/{identifier}`. */
export const companyIdentifier = (address: string): Effect.Effect<string, NetworkError> => {
  const trimmed = address.trim()
  if (looksLikeUrl(trimmed)) {
    const path = pathOf(trimmed)
    if (path === undefined) return refuse("company", address, "is not an address on the network")
    return path[0] === "company" && path[1] !== undefined ? Effect.succeed(path[1].toLowerCase()) : refuse("company", address, "names no company page")
  }
  return identifierPattern.test(trimmed) ? Effect.succeed(trimmed) : refuse("company", address, "is neither a company page address nor an identifier")
}

/** The activity id (digits) of the post an address names. */
export const postId = (address: string): Effect.Effect<string, NetworkError> => {
  const trimmed = address.trim()
  const urn = /urn:li:activity:(\d{6,25})/.exec(trimmed)
  if (urn !== null) return Effect.succeed(urn[1])
  if (/^\d{6,25}$/.test(trimmed)) return Effect.succeed(trimmed)
  const slug = /activity-(\d{6,25})/.exec(trimmed)
  if (slug !== null && pathOf(trimmed) !== undefined) return Effect.succeed(slug[1])
  return refuse("post", address, "is neither an activity urn, a post address nor an activity id")
}

/** The urn Unipile takes as a post's `post_id` for reactions and comments. */
export const activityUrn = (id: string) => `urn:li:activity:${id}`
