/**
 * The signature scheme of webhooks, over node:crypto alone: the header names,
 * `sign` (the sender side) and `verifyWebhook` (the receiver side) of the
 * spec's verification rules. The signature is lowercase hex HMAC-SHA256 over
 * `<timestamp>.<raw body>`, keyed with the whole endpoint secret, `whsec_`
 * prefix included. It imports nothing else, so a receiver that loads it
 * (`outreach-service/webhooks`) loads one file.
 */
import { createHmac, type KeyObject, timingSafeEqual } from "node:crypto"

/** The webhook secret prefix. */
export const secretPrefix = "whsec_"

/** Header carrying the Unix time in seconds at which the attempt was signed. */
export const timestampHeader = "svc-signature-timestamp"
/** Header carrying the hex HMAC-SHA256 signature. */
export const signatureHeader = "svc-signature"
/**
 * Header carrying, while a secret rotation is in its 24-hour overlap, the
 * signature with the NEW secret; `svc-signature` then still carries the
 * signature with the old one, so receivers that have not switched keep
 * verifying. Same form as `svc-signature`; absent outside a rotation.
 */
export const nextSignatureHeader = "svc-signature-next"
/** Header carrying the event type. */
export const eventHeader = "svc-event"
/** Header carrying the delivery id (the same across retries of one delivery). */
export const deliveryHeader = "svc-delivery"
/** The `User-Agent` of every delivery. */
export const userAgent = "svc-Webhooks/1.0"

/** The recommended tolerance between the signing time and the receiver's clock: 5 minutes. */
export const defaultToleranceSeconds = 300

/** Whether a string has the shape of a webhook secret (`whsec_` + base64 of 32 bytes). */
export const isSecret = (value: string): boolean => /^whsec_[A-Za-z0-9+/]{43}=$/.test(value)

/**
 * The signature of one attempt: 64 lowercase hex characters of HMAC-SHA256
 * over `<timestampSeconds>.<rawBody>`, keyed with the whole secret string (or
 * a key object made from it once, to sign many bodies with it).
 */
export const sign = (secret: string | KeyObject, timestampSeconds: number, rawBody: string | Uint8Array): string =>
  createHmac("sha256", secret).update(`${timestampSeconds}.`).update(rawBody).digest("hex")

/** The two signature headers of one attempt. */
export type SignatureHeaders = {
  readonly "svc-signature-timestamp": string
  readonly "svc-signature": string
}

/** The signature headers for a body signed at `timestampSeconds`. */
export const signatureHeaders = (
  secret: string | KeyObject,
  timestampSeconds: number,
  rawBody: string | Uint8Array
): SignatureHeaders => ({
  [timestampHeader]: String(timestampSeconds),
  [signatureHeader]: sign(secret, timestampSeconds, rawBody)
})

/**
 * Every header of a delivery attempt, as listed in the spec's "Request
 * headers". A type alias, not an interface, so it is assignable to
 * `Record<string, string>` for HTTP clients.
 */
export type WebhookHeaders = SignatureHeaders & {
  readonly "content-type": "application/json"
  readonly "user-agent": string
  readonly "svc-event": string
  readonly "svc-delivery": string
  readonly "svc-signature-next"?: string
}

/**
 * The full header set of one delivery attempt, signed at `timestampSeconds`.
 * `nextSecret` (during a rotation's overlap) adds `svc-signature-next`.
 */
export const webhookHeaders = (options: {
  readonly secret: string | KeyObject
  readonly nextSecret?: string | KeyObject | undefined
  readonly eventType: string
  readonly deliveryId: string
  readonly timestampSeconds: number
  readonly rawBody: string | Uint8Array
}): WebhookHeaders => ({
  "content-type": "application/json",
  "user-agent": userAgent,
  [eventHeader]: options.eventType,
  [deliveryHeader]: options.deliveryId,
  ...signatureHeaders(options.secret, options.timestampSeconds, options.rawBody),
  ...(options.nextSecret === undefined
    ? {}
    : { [nextSignatureHeader]: sign(options.nextSecret, options.timestampSeconds, options.rawBody) })
})

/** Why a webhook request failed verification. */
export type VerifyFailureReason =
  /** `svc-signature-timestamp` or `svc-signature` is absent. */
  | "missingHeader"
  /** The timestamp header is not a whole number of seconds. */
  | "badTimestamp"
  /** The timestamp is older than the tolerance. */
  | "tooOld"
  /** The timestamp is further in the future than the tolerance (a skewed or forged clock). */
  | "inFuture"
  /** The signature matches none of the secrets. */
  | "badSignature"

/** The outcome of `verifyWebhook`. */
export type VerifyResult =
  | { readonly ok: true; readonly timestampSeconds: number }
  | { readonly ok: false; readonly reason: VerifyFailureReason }

/** Anything with a `get(name)` method, such as a WHATWG `Headers`. */
export interface HeaderGetter {
  get(name: string): string | null
}

/**
 * Request headers as a receiver has them: a WHATWG `Headers`, or a plain
 * record with keys in any case (such as Node's `IncomingHttpHeaders`).
 */
export type ReceivedHeaders = HeaderGetter | Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

/** Options of `verifyWebhook`. */
export interface VerifyOptions {
  /** Largest accepted distance in seconds between the timestamp and now; default 300 (5 minutes). */
  readonly toleranceSeconds?: number
  /** The receiver's current Unix time in seconds; default the system clock. */
  readonly nowSeconds?: number
}

const readHeader = (headers: ReceivedHeaders, name: string): string | undefined => {
  if ("get" in headers && typeof headers.get === "function") {
    return headers.get(name) ?? undefined
  }
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue
    if (typeof value === "string") return value
    // A repeated header arrives as an array; only one value can be the signature.
    if (Array.isArray(value) && typeof value[0] === "string") return value[0]
  }
  return undefined
}

const hexSignature = /^[0-9a-f]{64}$/
const wholeSeconds = /^\d{1,15}$/

/**
 * Verifies a received webhook request, following the spec's verification
 * rules: HMAC-SHA256 of `<timestamp>.<raw body>` compared in constant time
 * with `svc-signature`, and a timestamp within `toleranceSeconds` of now.
 *
 * `secret` may list several secrets: while a secret is rotated, the old and
 * the new one are both valid. A signature with any of them, in `svc-signature`
 * or (during a rotation's 24-hour overlap) `svc-signature-next`, passes. `rawBody` must be the body exactly as received,
 * before any JSON parsing.
 *
 * @example
 * ```ts
 * const result = verifyWebhook(process.env.WEBHOOK_SECRET, request.headers, rawBody)
 * if (!result.ok) return respond(400, result.reason)
 * ```
 */
export const verifyWebhook = (
  secret: string | ReadonlyArray<string>,
  headers: ReceivedHeaders,
  rawBody: string | Uint8Array,
  options?: VerifyOptions
): VerifyResult => {
  const timestamp = readHeader(headers, timestampHeader)?.trim()
  const received = readHeader(headers, signatureHeader)?.trim().toLowerCase()
  const receivedNext = readHeader(headers, nextSignatureHeader)?.trim().toLowerCase()
  if (timestamp === undefined || received === undefined || timestamp === "" || received === "") {
    return { ok: false, reason: "missingHeader" }
  }
  if (!wholeSeconds.test(timestamp)) return { ok: false, reason: "badTimestamp" }
  const timestampSeconds = Number(timestamp)
  const tolerance = options?.toleranceSeconds ?? defaultToleranceSeconds
  const now = options?.nowSeconds ?? Math.floor(Date.now() / 1000)
  if (timestampSeconds < now - tolerance) return { ok: false, reason: "tooOld" }
  if (timestampSeconds > now + tolerance) return { ok: false, reason: "inFuture" }
  if (!hexSignature.test(received)) return { ok: false, reason: "badSignature" }

  const candidates = [Buffer.from(received, "hex")]
  // During a rotation the new secret's signature travels in `svc-signature-next`.
  if (receivedNext !== undefined && hexSignature.test(receivedNext)) candidates.push(Buffer.from(receivedNext, "hex"))
  const secrets = typeof secret === "string" ? [secret] : secret
  let matched = false
  // Every pair is checked, even after a match, so timing does not reveal which one matched.
  for (const candidate of secrets) {
    const expected = createHmac("sha256", candidate).update(`${timestamp}.`).update(rawBody).digest()
    for (const receivedBytes of candidates) {
      if (timingSafeEqual(expected, receivedBytes)) matched = true
    }
  }
  return matched ? { ok: true, timestampSeconds } : { ok: false, reason: "badSignature" }
}
