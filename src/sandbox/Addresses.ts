/**
 * Parsing of the addresses callers give for people, companies and posts. Each
 * accepted form is normalised to one canonical reference, so that every way of
 * writing the same address reaches the same simulated person, company or post.
 *
 * Parsers are pure and answer a `Result`; wrap with `Effect.fromResult` in
 * effectful code.
 */
import { Result, Schema } from "effect"
import { memberProviderId, providerIdOfSlug, providerIdPattern, publishedAtOfPostId, slugOfProviderId, slugPattern } from "./Ids.ts"

/** What kind of thing an address was expected to name. */
export const AddressKind = Schema.Literals(["profile", "company", "post"])
export type AddressKind = typeof AddressKind.Type

/**
 * Why an address was refused:
 * - `empty`: nothing was given;
 * - `tooLong`: more than 2,048 characters;
 * - `notNetworkAddress`: neither an address on the network nor an identifier;
 * - `wrongKind`: an address of the network that names another kind of thing
 *   (a company page given where a person is expected...);
 * - `unsupportedPath`: a network address whose path is none of the known forms;
 * - `missingIdentifier`: the form is right but the identifier is missing;
 * - `malformedIdentifier`: the identifier breaks its format.
 */
export const InvalidAddressReason = Schema.Literals([
  "empty",
  "tooLong",
  "notNetworkAddress",
  "wrongKind",
  "unsupportedPath",
  "missingIdentifier",
  "malformedIdentifier"
])
export type InvalidAddressReason = typeof InvalidAddressReason.Type

/** An address that names no person, company or post of the expected kind. */
export class InvalidAddress extends Schema.TaggedError<InvalidAddress>()("InvalidAddress", {
  kind: AddressKind,
  input: Schema.String,
  reason: InvalidAddressReason,
  message: Schema.String
}) {}

/** The canonical reference of a person. */
export interface ProfileRef {
  /** The network's identifier (`ACoAA...`); for sandbox slugs a reversible encoding of the slug. */
  readonly providerId: string
  /** The lower-case slug of the public address (or the provider id when only that is known). */
  readonly publicIdentifier: string
  /** `https://www.linkedin.com/in/<publicIdentifier>` */
  readonly profileUrl: string
}

/** A company address: by numeric id or by slug (resolved against the catalogue by `Companies.companyRef`). */
export type CompanyAddress =
  | { readonly _tag: "CompanyId"; readonly id: string }
  | { readonly _tag: "CompanySlug"; readonly slug: string }

/** A post address: the activity id, and the author's slug when the address carries it. */
export interface PostAddress {
  readonly id: string
  readonly authorSlug: string | null
}

const MAX_LENGTH = 2048
const NETWORK_HOST = /^(?:[a-z]{2,3}\.|www\.|m\.)?linkedin\.com$/
const SCHEMELESS = /^(?:[a-z]{2,3}\.|www\.|m\.)?linkedin\.com(?:[/?#]|$)/i
const NUMERIC_ID = /^\d{1,12}$/
const POST_ID = /^\d{15,20}$/
const POST_URN = /^urn:li:(?:activity|share|ugcPost):(\d+)$/
// The network launched in May 2003; an activity id older than that is not one.
const FIRST_POST_MS = Date.UTC(2003, 4, 5)
const LAST_POST_MS = Date.UTC(2100, 0, 1)

const fail = (kind: AddressKind, input: string, reason: InvalidAddressReason, message: string) =>
  Result.fail(new InvalidAddress({ kind, input, reason, message }))

const profileOfSlug = (slug: string): ProfileRef => ({
  providerId: providerIdOfSlug(slug),
  publicIdentifier: slug,
  profileUrl: `https://www.linkedin.com/in/${encodeURIComponent(slug)}`
})

/** The canonical reference of a provider id; sandbox ids lead back to their slug. */
export const profileOfProviderId = (providerId: string): ProfileRef => {
  const member = memberProviderId(providerId)
  const slug = slugOfProviderId(member)
  return slug === null
    ? { providerId: member, publicIdentifier: member, profileUrl: `https://www.linkedin.com/in/${member}` }
    : profileOfSlug(slug)
}

type Located =
  | { readonly _tag: "Bare"; readonly value: string }
  | { readonly _tag: "Path"; readonly segments: ReadonlyArray<string> }
  | { readonly _tag: "Foreign" }
  | { readonly _tag: "BadEncoding" }

// Splits an input into a network path (any accepted host and scheme) or a bare value.
const locate = (input: string): Located => {
  const looksLikeUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(input)
  if (!looksLikeUrl && !SCHEMELESS.test(input)) return { _tag: "Bare", value: input }
  let url: URL
  try {
    url = new URL(looksLikeUrl ? input : `https://${input}`)
  } catch {
    return { _tag: "Foreign" }
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || !NETWORK_HOST.test(url.hostname)) {
    return { _tag: "Foreign" }
  }
  try {
    return {
      _tag: "Path",
      segments: url.pathname.split("/").filter((segment) => segment.length > 0).map((s) => decodeURIComponent(s))
    }
  } catch {
    return { _tag: "BadEncoding" }
  }
}

const precheck = (kind: AddressKind, raw: string): Result.Result<string, InvalidAddress> => {
  const input = raw.trim()
  if (input.length === 0) return fail(kind, raw, "empty", `No ${kind} address was given.`)
  if (input.length > MAX_LENGTH) {
    return fail(kind, raw, "tooLong", `The ${kind} address is longer than ${MAX_LENGTH} characters.`)
  }
  return Result.succeed(input)
}

const kindOfPath = (segments: ReadonlyArray<string>): AddressKind | null => {
  const [first, second] = segments
  if (first === "in" || (first === "sales" && (second === "lead" || second === "people"))) return "profile"
  if (first === "company" || first === "school" || first === "showcase") return "company"
  if (first === "sales" && second === "company") return "company"
  if (first === "posts" || (first === "feed" && second === "update")) return "post"
  return null
}

const wrongKind = (expected: AddressKind, input: string, segments: ReadonlyArray<string>) => {
  const actual = kindOfPath(segments)
  return actual !== null && actual !== expected
    ? fail(expected, input, "wrongKind", `This is the address of a ${actual}, not of a ${expected}.`)
    : fail(
      expected,
      input,
      "unsupportedPath",
      `The path /${segments.join("/")} is not a ${expected} address; ${examples[expected]}.`
    )
}

const examples: Record<AddressKind, string> = {
  profile: "expected https://www.linkedin.com/in/<slug>, a Sales Navigator lead address or a provider id (ACoAA...)",
  company: "expected https://www.linkedin.com/company/<slug>, a numeric company id or a company slug",
  post: "expected urn:li:activity:<digits>, https://www.linkedin.com/feed/update/urn:li:activity:<digits> or a /posts/ address"
}

const slugOrId = (input: string, candidate: string): Result.Result<ProfileRef, InvalidAddress> => {
  if (candidate.length === 0) {
    return fail("profile", input, "missingIdentifier", "The address has no profile slug after /in/.")
  }
  if (providerIdPattern.test(candidate)) return Result.succeed(profileOfProviderId(candidate))
  const slug = candidate.normalize("NFC").toLowerCase()
  return slugPattern.test(slug)
    ? Result.succeed(profileOfSlug(slug))
    : fail(
      "profile",
      input,
      "malformedIdentifier",
      `"${candidate}" is not a profile slug: 3 to 100 letters, digits or hyphens, starting with a letter or digit.`
    )
}

const salesLead = (input: string, part: string | undefined): Result.Result<ProfileRef, InvalidAddress> => {
  const id = (part ?? "").split(",")[0]
  if (id.length === 0) return fail("profile", input, "missingIdentifier", "The Sales Navigator address has no lead id.")
  return providerIdPattern.test(id)
    ? Result.succeed(profileOfProviderId(id))
    : fail("profile", input, "malformedIdentifier", `"${id}" is not a lead id (expected ACwAA... or ACoAA...).`)
}

/**
 * Parses a person's address. Accepted: `https://www.linkedin.com/in/<slug>`
 * with or without `www.`, `http`/`https`, a trailing slash, a query string or
 * further path (`/details/...`), country subdomains (`de.linkedin.com`), no
 * scheme (`linkedin.com/in/<slug>`), Sales Navigator `/sales/lead/<id>,...`
 * and `/sales/people/<id>,...`, `urn:li:fsd_profile:<id>`, a bare provider id
 * (`ACoAA...`, `ACwAA...`) and a bare slug. Slugs are case-insensitive.
 */
export const parseProfileAddress = (raw: string): Result.Result<ProfileRef, InvalidAddress> =>
  Result.flatMap(precheck("profile", raw), (input): Result.Result<ProfileRef, InvalidAddress> => {
    const located = locate(input)
    switch (located._tag) {
      case "Foreign":
        return fail("profile", input, "notNetworkAddress", `Not an address on the network; ${examples.profile}.`)
      case "BadEncoding":
        return fail("profile", input, "malformedIdentifier", "The address has broken percent-encoding.")
      case "Bare": {
        const urn = /^urn:li:(?:fsd_profile|fs_miniProfile|member):(.*)$/.exec(located.value)
        const value = urn === null ? located.value : urn[1]
        if (/[\s/:?#]/.test(value)) {
          return fail("profile", input, "notNetworkAddress", `Not an address on the network; ${examples.profile}.`)
        }
        return slugOrId(input, value)
      }
      case "Path": {
        const [first, second, third] = located.segments
        if (first === "in") return slugOrId(input, second ?? "")
        if (first === "sales" && (second === "lead" || second === "people")) return salesLead(input, third)
        return wrongKind("profile", input, located.segments)
      }
    }
  })

const companyOf = (input: string, value: string): Result.Result<CompanyAddress, InvalidAddress> => {
  if (value.length === 0) return fail("company", input, "missingIdentifier", "The address has no company slug or id.")
  if (NUMERIC_ID.test(value)) return Result.succeed({ _tag: "CompanyId", id: String(Number(value)) })
  const slug = value.normalize("NFC").toLowerCase()
  return slugPattern.test(slug)
    ? Result.succeed({ _tag: "CompanySlug", slug })
    : fail(
      "company",
      input,
      "malformedIdentifier",
      `"${value}" is not a company slug or id: 3 to 100 letters, digits or hyphens, or up to 12 digits.`
    )
}

/**
 * Parses a company's address: `https://www.linkedin.com/company/<slug or id>`
 * (also `/school/`, `/showcase/`, any host and scheme form accepted for
 * people), Sales Navigator `/sales/company/<id>`, `urn:li:company:<id>`,
 * `urn:li:organization:<id>`, a bare numeric id or a bare slug.
 */
export const parseCompanyAddress = (raw: string): Result.Result<CompanyAddress, InvalidAddress> =>
  Result.flatMap(precheck("company", raw), (input): Result.Result<CompanyAddress, InvalidAddress> => {
    const located = locate(input)
    switch (located._tag) {
      case "Foreign":
        return fail("company", input, "notNetworkAddress", `Not an address on the network; ${examples.company}.`)
      case "BadEncoding":
        return fail("company", input, "malformedIdentifier", "The address has broken percent-encoding.")
      case "Bare": {
        const urn = /^urn:li:(?:company|organization|fsd_company):(.*)$/.exec(located.value)
        const value = urn === null ? located.value : urn[1]
        if (/[\s/:?#]/.test(value)) {
          return fail("company", input, "notNetworkAddress", `Not an address on the network; ${examples.company}.`)
        }
        if (providerIdPattern.test(value)) {
          return fail("company", input, "wrongKind", "This is the identifier of a person, not of a company.")
        }
        return companyOf(input, value)
      }
      case "Path": {
        const [first, second, third] = located.segments
        if (first === "company" || first === "school" || first === "showcase") return companyOf(input, second ?? "")
        if (first === "sales" && second === "company") return companyOf(input, (third ?? "").split(",")[0])
        return wrongKind("company", input, located.segments)
      }
    }
  })

const postOf = (input: string, digits: string, authorSlug: string | null): Result.Result<PostAddress, InvalidAddress> => {
  if (!POST_ID.test(digits)) {
    return fail("post", input, "malformedIdentifier", `"${digits}" is not an activity id (15 to 20 digits).`)
  }
  const publishedAt = publishedAtOfPostId(digits)
  if (publishedAt < FIRST_POST_MS || publishedAt >= LAST_POST_MS) {
    return fail("post", input, "malformedIdentifier", `"${digits}" is not an activity id: its timestamp is out of range.`)
  }
  return Result.succeed({ id: BigInt(digits).toString(), authorSlug })
}

const postsPath = (input: string, segment: string | undefined): Result.Result<PostAddress, InvalidAddress> => {
  if (segment === undefined || segment.length === 0) {
    return fail("post", input, "missingIdentifier", "The /posts/ address has no post after it.")
  }
  const match = /^([^_]+)_.*-(?:activity|share|ugcPost)-(\d+)(?:-[A-Za-z0-9_-]+)?$/.exec(segment)
  if (match === null) {
    return fail("post", input, "malformedIdentifier", "The /posts/ address has no activity id (…-activity-<digits>-…).")
  }
  const author = match[1].normalize("NFC").toLowerCase()
  return postOf(input, match[2], slugPattern.test(author) ? author : null)
}

/**
 * Parses a post's address: `urn:li:activity:<digits>` (also `share` and
 * `ugcPost` urns), `https://www.linkedin.com/feed/update/urn:li:activity:<digits>`,
 * `https://www.linkedin.com/posts/<author>_<words>-activity-<digits>-<code>`
 * and a bare activity id. The `/posts/` form also names the author.
 */
export const parsePostAddress = (raw: string): Result.Result<PostAddress, InvalidAddress> =>
  Result.flatMap(precheck("post", raw), (input): Result.Result<PostAddress, InvalidAddress> => {
    const located = locate(input)
    switch (located._tag) {
      case "Foreign":
        return fail("post", input, "notNetworkAddress", `Not an address on the network; ${examples.post}.`)
      case "BadEncoding":
        return fail("post", input, "malformedIdentifier", "The address has broken percent-encoding.")
      case "Bare": {
        const urn = POST_URN.exec(located.value)
        if (urn !== null) return postOf(input, urn[1], null)
        if (/^\d+$/.test(located.value)) return postOf(input, located.value, null)
        return fail("post", input, "notNetworkAddress", `Not a post address; ${examples.post}.`)
      }
      case "Path": {
        const [first, second, third] = located.segments
        if (first === "feed" && second === "update") {
          if (third === undefined) return fail("post", input, "missingIdentifier", "The address has no activity urn.")
          const urn = POST_URN.exec(third)
          return urn === null
            ? fail("post", input, "malformedIdentifier", `"${third}" is not an activity urn (urn:li:activity:<digits>).`)
            : postOf(input, urn[1], null)
        }
        if (first === "posts") return postsPath(input, second)
        return wrongKind("post", input, located.segments)
      }
    }
  })
