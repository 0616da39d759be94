/**
 * Webhook endpoints: `GET/POST /v1/webhooks`, `GET/PATCH/DELETE /v1/webhooks/{id}`,
 * `POST /v1/webhooks/{id}/rotate-secret`, `GET /v1/webhooks/{id}/deliveries`,
 * `POST /v1/webhooks/{id}/deliveries/{deliveryId}/resend`; and the OpenAPI
 * `webhooks` section describing every event request.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { EventData, eventTypes } from "../domain/Events.ts"
import { TestEventData, testEventType, ThinEventData, thinKeys, WebhookMode } from "../domain/WebhookPayload.ts"
import { Ok, Uuid } from "./Envelope.ts"
import { NotFound, Unprocessable } from "./Errors.ts"
import { allowedTo, Authentication } from "./Security.ts"
import { Text } from "../domain/Text.ts"
import { Delivery, EventTypeName, WebhookEndpoint } from "../domain/Webhooks.ts"
export { Delivery, WebhookEndpoint } from "../domain/Webhooks.ts"

const secretExample = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw7P2Mr3Hx0x0="

const Url = Text.check(Schema.isMinLength(1), Schema.isMaxLength(2048)).annotate({
  description: "https URL that resolves to public addresses",
  examples: ["https://hooks.example.com/outreach"]
})
const Events = Schema.Array(EventTypeName).check(Schema.isMaxLength(eventTypes.length))

/** `POST /v1/webhooks` body. */
export const CreateWebhook = Schema.Struct({
  url: Url,
  events: Schema.optionalKey(Events).annotate({ description: "Event types to deliver; default empty = all" }),
  mode: Schema.optionalKey(WebhookMode).annotate({ description: "Default `fat`" })
}).annotate({ identifier: "CreateWebhook" })

/** `PATCH /v1/webhooks/{id}` body: any of the fields. */
export const UpdateWebhook = Schema.Struct({
  url: Schema.optionalKey(Url),
  events: Schema.optionalKey(Events),
  mode: Schema.optionalKey(WebhookMode),
  enabled: Schema.optionalKey(Schema.Boolean.annotate({ description: "false disables delivery" }))
}).annotate({ identifier: "UpdateWebhook" })

const secretField = Schema.String.annotate({
  description: "The signing secret (`whsec_` + 32 random bytes, base64). Shown this once.",
  examples: [secretExample]
})

const notFound = NotFound
const refused = Unprocessable

export class WebhooksApi extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.get("list", "/v1/webhooks", {
      success: Ok({ webhooks: Schema.Array(WebhookEndpoint) })
    }).annotateMerge(allowedTo("manageWebhooks")).annotateMerge(OpenApi.annotations({ summary: "List webhook endpoints", description: "Newest first." })),
    HttpApiEndpoint.post("create", "/v1/webhooks", {
      payload: CreateWebhook,
      success: Ok({ webhook: WebhookEndpoint, secret: secretField }).pipe(HttpApiSchema.status(201)),
      error: refused
    }).annotateMerge(allowedTo("manageWebhooks")).annotateMerge(OpenApi.annotations({
      summary: "Register a webhook endpoint",
      description:
        "The URL must use https and its host must resolve only to public addresses; otherwise 422 `unprocessable` names the reason. The response carries the secret once."
    })),
    HttpApiEndpoint.get("get", "/v1/webhooks/:id", {
      params: { id: Uuid },
      success: Ok({ webhook: WebhookEndpoint }),
      error: notFound
    }).annotateMerge(allowedTo("manageWebhooks")).annotateMerge(OpenApi.annotations({ summary: "Get a webhook endpoint" })),
    HttpApiEndpoint.patch("update", "/v1/webhooks/:id", {
      params: { id: Uuid },
      payload: UpdateWebhook,
      success: Ok({ webhook: WebhookEndpoint }),
      error: [notFound, refused]
    }).annotateMerge(allowedTo("manageWebhooks")).annotateMerge(OpenApi.annotations({
      summary: "Change a webhook endpoint",
      description: "Any of `url`, `events`, `mode`, `enabled`. A new URL is vetted like at creation."
    })),
    HttpApiEndpoint.delete("delete", "/v1/webhooks/:id", {
      params: { id: Uuid },
      success: Ok({ id: Uuid, deleted: Schema.Literal(true) }),
      error: notFound
    }).annotateMerge(allowedTo("manageWebhooks")).annotateMerge(OpenApi.annotations({
      summary: "Delete a webhook endpoint",
      description: "Stops delivery at once; its pending deliveries and their history are removed."
    })),
    HttpApiEndpoint.post("rotateSecret", "/v1/webhooks/:id/rotate-secret", {
      params: { id: Uuid },
      success: Ok({ webhook: WebhookEndpoint, secret: secretField }),
      error: notFound
    }).annotateMerge(allowedTo("manageWebhooks")).annotateMerge(OpenApi.annotations({
      summary: "Rotate the signing secret",
      description: [
        "Returns a new secret once. For 24 hours the previous secret keeps signing: `svc-signature` is still",
        "made with the previous secret and `svc-signature-next` with the new one, so receivers can switch",
        "without losing a delivery (`verifyWebhook` accepts either header). After 24 hours only the new",
        "secret signs `svc-signature`. Rotating again during the overlap ends the older secret at once."
      ].join(" ")
    })),
    HttpApiEndpoint.get("deliveries", "/v1/webhooks/:id/deliveries", {
      params: { id: Uuid },
      success: Ok({ deliveries: Schema.Array(Delivery) }),
      error: notFound
    }).annotateMerge(allowedTo("manageWebhooks")).annotateMerge(OpenApi.annotations({
      summary: "Recent deliveries",
      description: "The last 50 deliveries to this endpoint, newest first, each with every attempt."
    })),
    HttpApiEndpoint.post("test", "/v1/webhooks/:id/test", {
      params: { id: Uuid },
      success: Ok({ delivery: Delivery }).annotate({
        examples: [{
          ok: true,
          delivery: {
            id: "5d2e8f4a-1b3c-4d5e-9f6a-7b8c9d0e1f2a",
            eventId: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
            eventType: testEventType,
            payload: "{\"id\":\"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d\",\"type\":\"webhook.test\",\"createdAt\":\"2026-11-27T10:42:07.000Z\",\"data\":{\"webhookId\":\"3c1f0a9e-8b7d-4e6f-9a5b-2c3d4e5f6a7b\",\"test\":true,\"message\":\"A test event sent by Olivia Owner. Nothing happened: answer 2xx to pass.\"}}",
            status: "succeeded" as const,
            attemptCount: 0,
            nextAttemptAt: null,
            createdAt: "2026-11-27T10:42:07.000Z",
            attempts: [{ at: "2026-11-27T10:42:07.120Z", trigger: "manual" as const, statusCode: 204, error: null, durationMs: 118, response: "" }]
          }
        }]
      }),
      error: notFound
    }).annotateMerge(allowedTo("manageWebhooks")).annotateMerge(OpenApi.annotations({
      summary: "Send a test event",
      description: [
        `Sends a \`${testEventType}\` event to this endpoint now, whatever its \`events\` and even when it is disabled, signed and`,
        "delivered exactly as every event is (same headers, same signature, the endpoint's payload mode), and answers with the",
        "delivery: its payload, its one attempt and what the endpoint answered (status, the start of the body, duration).",
        "A test is attempted once and not retried: `succeeded` on a 2xx, else `failed`. It is in the delivery history like any other.",
        `Its data: \`webhookId\`, \`test: true\`, and in fat mode a \`message\`. Nothing happened: a receiver acknowledges it and does nothing else.`
      ].join(" ")
    })),
    HttpApiEndpoint.post("resend", "/v1/webhooks/:id/deliveries/:deliveryId/resend", {
      params: { id: Uuid, deliveryId: Uuid },
      success: Ok({ delivery: Delivery }),
      error: notFound
    }).annotateMerge(allowedTo("manageWebhooks")).annotateMerge(OpenApi.annotations({
      summary: "Resend a delivery now",
      description: [
        "Makes one attempt at once (same delivery id, same body, fresh signature) and answers with the",
        "delivery including that attempt. It does not count towards the 8 automatic attempts; on success",
        "the delivery becomes `succeeded`, on failure its status and schedule are unchanged."
      ].join(" ")
    }))
  )
  .middleware(Authentication)
  .annotateMerge(OpenApi.annotations({ title: "Webhooks" }))
{}

// ---------------------------------------------------------------------------
// The OpenAPI `webhooks` section

type Json = Record<string, unknown>

const jsonSchema = (schema: Schema.Top): Json => {
  const document = Schema.toJsonSchemaDocument(schema)
  return { ...document.schema }
}

const headerParameter = (name: string, description: string, pattern?: string) => ({
  name,
  in: "header",
  required: name !== "svc-signature-next",
  description,
  schema: pattern === undefined ? { type: "string" } : { type: "string", pattern }
})

const eventHeaders = [
  headerParameter("svc-event", "The event type."),
  headerParameter("svc-delivery", "The delivery id; the same across retries of one delivery."),
  headerParameter("svc-signature-timestamp", "Unix time in seconds when this attempt was signed.", "^\\d+$"),
  headerParameter(
    "svc-signature",
    "Hex HMAC-SHA256 of `<timestamp>.<raw body>`, keyed with the whole endpoint secret (`whsec_` prefix included).",
    "^[0-9a-f]{64}$"
  ),
  headerParameter(
    "svc-signature-next",
    "Only during the 24 hours after a secret rotation: the same signature made with the new secret.",
    "^[0-9a-f]{64}$"
  ),
  headerParameter("User-Agent", "`svc-Webhooks/1.0`.")
]

/**
 * The OpenAPI 3.1 top-level `webhooks` object: one POST per event type whose
 * body is the envelope with the type's data (fat) or its thin subset.
 */
export const webhooksSection = (): Json => ({
  ...Object.fromEntries(eventTypes.map((type) => [type, eventOperation({
    type,
    description: [
      `Sent to every enabled endpoint subscribed to \`${type}\`. Answer 2xx within 10 seconds;`,
      "anything else (a timeout, 3xx, 4xx, 5xx) is retried with backoff, 8 attempts in all.",
      `Thin endpoints receive only these data keys: ${thinKeys[type].map((k) => `\`${k}\``).join(", ")}.`,
      "Deliveries may repeat and arrive out of order: de-duplicate on `id`, order by `createdAt`."
    ],
    data: {
      anyOf: [
        { ...jsonSchema(EventData[type]), title: "fat" },
        { ...jsonSchema(ThinEventData[type] ?? Schema.Unknown), title: "thin" }
      ]
    },
    received: "Received. Any other answer, or none within 10 seconds, is retried."
  })])),
  // The test event, sent only by hand (`POST /v1/webhooks/{id}/test`).
  [testEventType]: eventOperation({
    type: testEventType,
    description: [
      "Sent only when someone asks (`POST /v1/webhooks/{id}/test`, or the dashboard's \"Send a test event\"), to that one",
      "endpoint, whatever its events. Nothing happened: answer 2xx and do nothing else. Attempted once, never retried."
    ],
    data: jsonSchema(TestEventData),
    received: "Received."
  })
})

/** The POST an endpoint receives for one type of event: the envelope with that type's `data`. */
const eventOperation = (event: {
  readonly type: string
  readonly description: ReadonlyArray<string>
  readonly data: Json
  readonly received: string
}) => ({
  post: {
    summary: `${event.type} event`,
    description: event.description.join(" "),
    operationId: `webhook.${event.type}`,
    tags: ["Webhooks"],
    parameters: eventHeaders,
    requestBody: {
      required: true,
      content: {
        "application/json": {
          schema: {
            type: "object",
            required: ["id", "type", "createdAt", "data"],
            properties: {
              id: { type: "string", format: "uuid", description: "The event id (the same for every endpoint)" },
              type: { type: "string", const: event.type },
              createdAt: { type: "string", format: "date-time" },
              data: event.data
            }
          }
        }
      }
    },
    responses: { "2XX": { description: event.received } }
  }
})
