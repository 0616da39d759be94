/**
 * A workspace's webhook endpoints and their deliveries, as the service keeps
 * them and the contract (`/v1/webhooks...`) shows them.
 */
import { Schema } from "effect"
import { eventTypes } from "./Events.ts"
import { DateTimeString, Uuid } from "./Formats.ts"
import { DeliveryEventType, testEventType, WebhookMode } from "./WebhookPayload.ts"

/** One event type name. */
export const EventTypeName = Schema.Literals(eventTypes).annotate({ description: "An event type" })

const WebhookEndpointFields = Schema.Struct({
  id: Uuid,
  url: Schema.String,
  events: Schema.Array(EventTypeName).annotate({ description: "Event types delivered; empty means all" }),
  mode: WebhookMode.annotate({ description: "`fat`: the full data; `thin`: only ids, status and kind" }),
  enabled: Schema.Boolean,
  createdAt: DateTimeString,
  updatedAt: DateTimeString,
  previousSecretExpiresAt: Schema.NullOr(DateTimeString).annotate({
    description:
      "After a rotation: until when the previous secret still signs `svc-signature` (the new one signs `svc-signature-next`)"
  })
})

const endpointExample: typeof WebhookEndpointFields.Type = {
  id: "3c1f0a9e-8b7d-4e6f-9a5b-2c3d4e5f6a7b",
  url: "https://hooks.example.com/outreach",
  events: ["message.received", "job.completed"],
  mode: "fat",
  enabled: true,
  createdAt: "2026-11-21T09:30:00.000Z",
  updatedAt: "2026-11-21T09:30:00.000Z",
  previousSecretExpiresAt: null
}
/** A webhook endpoint; the secret is shown only by create and rotate-secret. */
export const WebhookEndpoint = WebhookEndpointFields.annotate({ identifier: "WebhookEndpoint", examples: [endpointExample] })

/** One attempt of a delivery. */
export const DeliveryAttempt = Schema.Struct({
  at: DateTimeString,
  trigger: Schema.Literals(["automatic", "manual"]).annotate({ description: "`manual`: a resend by hand" }),
  statusCode: Schema.NullOr(Schema.Number).annotate({ description: "null when no response arrived" }),
  error: Schema.NullOr(Schema.String),
  durationMs: Schema.Number,
  response: Schema.NullOr(Schema.String).annotate({
    description: "The start of the response's body as text (its first 2,048 bytes); empty when it had none, null when no response arrived"
  })
}).annotate({ identifier: "WebhookDeliveryAttempt" })

/** One event sent (or being sent) to one endpoint. */
export const Delivery = Schema.Struct({
  id: Uuid.annotate({ description: "The `svc-delivery` header value, the same across retries" }),
  eventId: Uuid,
  eventType: DeliveryEventType.annotate({ description: `An event type, or \`${testEventType}\` for a test event sent by hand` }),
  payload: Schema.String.annotate({ description: "The request body, exactly as sent and signed at every attempt" }),
  status: Schema.Literals(["pending", "succeeded", "failed"]).annotate({
    description: "`failed` after 8 automatic attempts without a 2xx (a test event: after its one attempt)"
  }),
  attemptCount: Schema.Number.annotate({ description: "Automatic attempts made (at most 8)" }),
  nextAttemptAt: Schema.NullOr(DateTimeString),
  createdAt: DateTimeString,
  attempts: Schema.Array(DeliveryAttempt).annotate({ description: "Every attempt, oldest first" })
}).annotate({ identifier: "WebhookDelivery" })
