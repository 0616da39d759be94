/**
 * `/v1/webhooks...`: endpoints, secret rotation, delivery history, resend and test events.
 */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { Unprocessable } from "../api/Errors.ts"
import { CurrentPrincipal, principalName } from "../domain/Principal.ts"
import { allowedWithPrivateWebhooks, type WebhookTargetRefused } from "../webhooks/AddressGuard.ts"
import { WebhookDispatcher } from "../webhooks/Dispatcher.ts"
import { WebhookEndpoints } from "../webhooks/Endpoints.ts"
import * as HandlerGroup from "./HandlerGroup.ts"
import { spoken } from "./ServiceErrors.ts"

const publicOnly = "Use an https URL whose host resolves only to public addresses."

const refused = (error: WebhookTargetRefused) =>
  new Unprocessable({
    error: {
      message: `The webhook URL was refused (${error.reason}): ${error.message}`,
      next: allowedWithPrivateWebhooks(error)
        ? `${publicOnly} For a receiver on this machine or a private network during development, start the service with OUTREACH_ALLOW_PRIVATE_WEBHOOKS=true (a restart is needed; never in production).`
        : publicOnly
    }
  })

export const WebhooksHandlers = Layer.unwrap(Effect.gen(function*() {
  const endpoints = spoken(yield* WebhookEndpoints)
  const dispatcher = spoken(yield* WebhookDispatcher)
  const workspaceId = Effect.map(CurrentPrincipal.use(Effect.succeed), (principal) => principal.workspaceId)
  return HandlerGroup.onMiddlewares(HttpApiBuilder.group(Api, "webhooks", (handlers) =>
    handlers.handleAll({
      list: () =>
        Effect.gen(function*() {
          return { ok: true as const, webhooks: yield* endpoints.list(yield* workspaceId) }
        }),
      create: ({ payload }) =>
        Effect.gen(function*() {
          const created = yield* endpoints.create({
            workspaceId: yield* workspaceId,
            url: payload.url,
            events: payload.events ?? [],
            mode: payload.mode ?? "fat"
          }).pipe(Effect.mapError(refused))
          return { ok: true as const, webhook: created.webhook, secret: created.secret }
        }),
      get: ({ params }) =>
        Effect.gen(function*() {
          return { ok: true as const, webhook: yield* endpoints.get(yield* workspaceId, params.id) }
        }),
      update: ({ params, payload }) =>
        Effect.gen(function*() {
          const webhook = yield* endpoints.update(yield* workspaceId, params.id, payload).pipe(
            Effect.catchTag("WebhookTargetRefused", (error) => Effect.fail(refused(error)))
          )
          return { ok: true as const, webhook }
        }),
      delete: ({ params }) =>
        Effect.gen(function*() {
          yield* endpoints.remove(yield* workspaceId, params.id)
          return { ok: true as const, id: params.id, deleted: true as const }
        }),
      rotateSecret: ({ params }) =>
        Effect.gen(function*() {
          const rotated = yield* endpoints.rotateSecret(yield* workspaceId, params.id)
          return { ok: true as const, webhook: rotated.webhook, secret: rotated.secret }
        }),
      deliveries: ({ params }) =>
        Effect.gen(function*() {
          return { ok: true as const, deliveries: yield* endpoints.deliveries(yield* workspaceId, params.id) }
        }),
      test: ({ params }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const delivery = yield* dispatcher.sendTest(principal.workspaceId, params.id, principalName(principal))
          return { ok: true as const, delivery }
        }),
      resend: ({ params }) =>
        Effect.gen(function*() {
          const delivery = yield* dispatcher.resend(yield* workspaceId, params.id, params.deliveryId)
          return { ok: true as const, delivery }
        })
    })
  ))
}))
