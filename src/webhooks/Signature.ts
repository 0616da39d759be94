/**
 * Webhook secrets and signatures: the sender side (`sign`, `webhookHeaders`)
 * and the receiver side (`verifyWebhook`) of the spec's verification rules.
 *
 * The signature is lowercase hex HMAC-SHA256 over `<timestamp>.<raw body>`,
 * keyed with the whole endpoint secret, `whsec_` prefix included.
 *
 * `sign` and `verifyWebhook` are plain synchronous functions over node:crypto
 * so integrators can use them without knowing Effect; the Effect forms
 * (`newSecret`, `signNow`, `verifyWebhookEffect`) read time from `Clock`.
 */
import { createSecretKey, type KeyObject, randomBytes } from "node:crypto"
import { Clock, Effect, Schema } from "effect"
import * as Recent from "../platform/Recent.ts"
import { type ReceivedHeaders, secretPrefix, verifyWebhook, type WebhookHeaders, webhookHeaders } from "./Verify.ts"

export * from "./Verify.ts"

/** A new endpoint secret: `whsec_` followed by 32 random bytes, base64. */
export const newSecret: Effect.Effect<string> = Effect.sync(() => secretPrefix + randomBytes(32).toString("base64"))

/**
 * The full header set of one attempt signed now: each attempt carries a fresh
 * timestamp, taken from `Clock` so the sandbox's test clock is honoured.
 */
export const signNow = (options: {
  readonly secret: string
  readonly nextSecret?: string | undefined
  readonly eventType: string
  readonly deliveryId: string
  readonly rawBody: string | Uint8Array
}): Effect.Effect<WebhookHeaders> =>
  Effect.map(Clock.currentTimeMillis, (ms) => webhookHeaders({ ...options, timestampSeconds: Math.floor(ms / 1000) }))

/** Secrets a signer keeps the keys of; past this the oldest go. */
const keptKeys = 1024

/**
 * Signs delivery attempts with `webhookHeaders`, each secret's HMAC key made
 * once rather than at every attempt. `timestampSeconds` is the caller's, from
 * `Clock`.
 */
export const attemptSigner = (): (options: {
  readonly secret: string
  readonly nextSecret?: string | undefined
  readonly eventType: string
  readonly deliveryId: string
  readonly timestampSeconds: number
  readonly rawBody: string | Uint8Array
}) => WebhookHeaders => {
  const keys = Recent.make<string, KeyObject>(keptKeys)
  // The secret's UTF-8 bytes, as `createHmac` makes of a string key.
  const keyOf = (secret: string): KeyObject => keys.getOrAdd(secret, () => createSecretKey(Buffer.from(secret, "utf8")))
  return (options) =>
    webhookHeaders({
      ...options,
      secret: keyOf(options.secret),
      nextSecret: options.nextSecret === undefined ? undefined : keyOf(options.nextSecret)
    })
}

/** A webhook request failed verification. */
export class WebhookSignatureInvalid extends Schema.TaggedError<WebhookSignatureInvalid>()("WebhookSignatureInvalid", {
  reason: Schema.Literals(["missingHeader", "badTimestamp", "tooOld", "inFuture", "badSignature"])
}) {
  override get message(): string {
    return `Webhook signature verification failed: ${this.reason}`
  }
}

/**
 * `verifyWebhook` as an Effect: now comes from `Clock`, and a request that
 * fails verification fails with `WebhookSignatureInvalid`. Succeeds with the
 * signed timestamp in seconds.
 */
export const verifyWebhookEffect = (
  secret: string | ReadonlyArray<string>,
  headers: ReceivedHeaders,
  rawBody: string | Uint8Array,
  options?: { readonly toleranceSeconds?: number }
): Effect.Effect<number, WebhookSignatureInvalid> =>
  Effect.flatMap(Clock.currentTimeMillis, (ms) => {
    const result = verifyWebhook(secret, headers, rawBody, {
      ...options,
      nowSeconds: Math.floor(ms / 1000)
    })
    return result.ok
      ? Effect.succeed(result.timestampSeconds)
      : Effect.fail(new WebhookSignatureInvalid({ reason: result.reason }))
  })
