/**
 * The identifiers the sandbox hands out. They are reversible encodings, so the
 * sandbox needs no storage: a provider id carries the profile slug, a chat id
 * carries the other person's provider id, and a post id carries the instant
 * it was published (as the network's own activity ids do: the top bits are a
 * millisecond timestamp).
 */

const MEMBER_PREFIX = "ACoAA"
const SALES_PREFIX = "ACwAA"

/** Provider ids look like the network's: `ACoAA` then base64url characters. */
export const providerIdPattern = /^AC[ow]AA[A-Za-z0-9_-]{4,200}$/

/**
 * The public profile slug rule: 3 to 100 letters, digits or hyphens (any
 * script), starting with a letter or digit.
 */
export const slugPattern = /^[\p{L}\p{N}][\p{L}\p{N}\p{M}-]{2,99}$/u

const toBase64Url = (text: string): string => Buffer.from(text, "utf8").toString("base64url")

/** The sandbox provider id of a profile slug. */
export const providerIdOfSlug = (slug: string): string => MEMBER_PREFIX + toBase64Url(slug)

/**
 * The slug a sandbox provider id was made from, or null for ids the sandbox
 * did not make (those stand for themselves). The Sales Navigator form
 * (`ACwAA...`) names the same member as the `ACoAA...` form.
 */
export const slugOfProviderId = (providerId: string): string | null => {
  if (!providerIdPattern.test(providerId)) return null
  const body = providerId.slice(MEMBER_PREFIX.length)
  const decoded = Buffer.from(body, "base64url").toString("utf8")
  return slugPattern.test(decoded) && toBase64Url(decoded) === body && decoded === decoded.toLowerCase()
    ? decoded
    : null
}

/** The member form of a provider id (`ACwAA...` becomes `ACoAA...`). */
export const memberProviderId = (providerId: string): string =>
  providerId.startsWith(SALES_PREFIX) ? MEMBER_PREFIX + providerId.slice(SALES_PREFIX.length) : providerId

/** The chat id of the conversation with one person: `2-` then base64url, like the network's thread ids. */
export const chatIdOf = (providerId: string): string => "2-" + toBase64Url(providerId)

/** The other person's provider id in a sandbox chat id, or null when it is not one. */
export const providerIdOfChat = (chatId: string): string | null => {
  if (!/^2-[A-Za-z0-9_-]{4,300}$/.test(chatId)) return null
  const body = chatId.slice(2)
  const decoded = Buffer.from(body, "base64url").toString("utf8")
  return providerIdPattern.test(decoded) && toBase64Url(decoded) === body ? decoded : null
}

const TIMESTAMP_SHIFT = 22n
const LOW_BITS = (1n << TIMESTAMP_SHIFT) - 1n

/** A post (activity) id: the publication instant in the top bits, a discriminator in the low 22 bits. */
export const postIdOf = (publishedAtMs: number, discriminator: number): string =>
  ((BigInt(Math.floor(publishedAtMs)) << TIMESTAMP_SHIFT) | (BigInt(discriminator) & LOW_BITS)).toString()

/** The publication instant (epoch ms) inside a post id. */
export const publishedAtOfPostId = (postId: string): number => Number(BigInt(postId) >> TIMESTAMP_SHIFT)

/** The id of an invitation the account received from a person: `inv-` then base64url of the sender's provider id. */
export const invitationIdOf = (providerId: string): string => "inv-" + toBase64Url(providerId)

/** The sender's provider id in a sandbox invitation id, or null when it is not one. */
export const providerIdOfInvitation = (invitationId: string): string | null => {
  if (!/^inv-[A-Za-z0-9_-]{4,300}$/.test(invitationId)) return null
  const body = invitationId.slice(4)
  const decoded = Buffer.from(body, "base64url").toString("utf8")
  return providerIdPattern.test(decoded) && toBase64Url(decoded) === body ? decoded : null
}
