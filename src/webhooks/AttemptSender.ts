/**
 * One attempt of a delivery to its endpoint: the address vetted (a host name resolved again at
 * every attempt, as DNS answers change; each distinct answer vetted once, `urlVetter`), signed
 * with a fresh timestamp, and sent pinned to the vetted address (connections kept alive per
 * endpoint and address). Signature timestamps are real time (`ServiceClock.realClock`): a
 * receiver checks them against its own clock, whatever the sandbox's says.
 */
import { Clock, Effect, type Scope } from "effect"
import { AppConfig } from "../platform/AppConfig.ts"
import * as ServiceClock from "../platform/ServiceClock.ts"
import { urlVetter, WebhookResolver } from "./AddressGuard.ts"
import type { DeliveryToAttempt } from "./DeliveryStore.ts"
import type { EndpointSecrets } from "./EndpointTable.ts"
import { connectionPool, deliver, type DeliveryOutcome } from "./SafeTransport.ts"
import { attemptSigner } from "./Signature.ts"

/** Sends one attempt of `target` to `endpoint` as last read; its outcome, failed or not. */
export type AttemptSender = (target: DeliveryToAttempt, endpoint: EndpointSecrets) => Effect.Effect<DeliveryOutcome>

/** The sender of attempts that time out after `timeoutMs`, with its connections for the scope. */
export const make = (
  timeoutMs: number
): Effect.Effect<AttemptSender, never, AppConfig | Scope.Scope> =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    const resolver = yield* WebhookResolver
    // Read once: attempts, whose time is plain code's, see the layer's clock (the sandbox's test clock too).
    const clock = yield* Clock.Clock
    const realClock = yield* ServiceClock.realClock
    const connections = yield* connectionPool
    const vet = urlVetter({ allowPrivate: config.allowPrivateWebhooks }, resolver)
    const signed = attemptSigner()

    // A plain function, no span: it runs for every delivery.
    return (target, endpoint) =>
      Effect.matchEffect(vet(endpoint.url), {
        onFailure: (refused) => Effect.succeed<DeliveryOutcome>({ ok: false, status: null, durationMs: 0, error: refused.message }),
        onSuccess: (vetted) => {
          const nowMs = clock.currentTimeMillisUnsafe()
          const overlap = endpoint.previousSecret !== null && endpoint.previousSecretExpiresAt !== null &&
            Date.parse(endpoint.previousSecretExpiresAt) > nowMs
          const headers = signed({
            secret: overlap && endpoint.previousSecret !== null ? endpoint.previousSecret : endpoint.secret,
            nextSecret: overlap ? endpoint.secret : undefined,
            eventType: target.eventType,
            deliveryId: target.id,
            timestampSeconds: Math.floor(realClock.currentTimeMillisUnsafe() / 1000),
            rawBody: target.body
          })
          return deliver({
            url: vetted.url,
            address: vetted.target.address,
            family: vetted.target.family,
            headers,
            body: target.body,
            timeoutMs,
            connections
          })
        }
      })
  })
