/**
 * What a webhook request carries: the envelope `{id, type, createdAt, data}`
 * and, per endpoint mode, the full data (`fat`) or only its identifying
 * fields (`thin`).
 *
 * Thin data keeps, per the spec, "only ids, status, kind and type": the keys
 * listed in `thinKeys`, the same for every delivery of a type. A thin
 * receiver fetches the rest through the API when it needs it.
 */
import { Schema } from "effect"
import { EventData, type EventType, eventTypes } from "./Events.ts"

/** Delivery modes of an endpoint. */
export const WebhookMode = Schema.Literals(["fat", "thin"])
export type WebhookMode = typeof WebhookMode.Type

/** The `data` keys a thin delivery keeps, per event type. */
export const thinKeys = {
  "message.received": ["accountId", "chatId", "messageId", "senderProviderId"],
  "invitation.accepted": ["accountId", "invitationId", "providerId"],
  "job.completed": ["jobId", "accountId", "kind", "status"],
  "job.failed": ["jobId", "accountId", "kind", "status"],
  "account.connected": ["accountId"],
  "account.reconnection_required": ["accountId"],
  "account.paused": ["accountId"],
  "account.resumed": ["accountId"]
} as const satisfies { readonly [T in EventType]: ReadonlyArray<keyof typeof EventData[T]["fields"]> }

/** The thin `data` schema of each event type (for the OpenAPI document). */
export const ThinEventData = Object.fromEntries(
  eventTypes.map((type) => {
    const fields: Record<string, Schema.Top> = EventData[type].fields
    const keys: ReadonlyArray<string> = thinKeys[type]
    return [type, Schema.Struct(Object.fromEntries(keys.map((key) => [key, fields[key] ?? Schema.Unknown])))]
  })
)

/** An event as the outbox holds it, `data` in its encoded (JSON) form. */
export interface EnvelopeSource {
  readonly id: string
  readonly type: EventType
  readonly createdAt: string
  readonly data: unknown
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** `data` as an endpoint in `mode` receives it. */
export const dataFor = (type: EventType, data: unknown, mode: WebhookMode): unknown => {
  if (mode === "fat" || !isRecord(data)) return data
  const keys: ReadonlyArray<string> = thinKeys[type]
  return Object.fromEntries(keys.filter((key) => key in data).map((key) => [key, data[key]]))
}

/**
 * The exact request body of a delivery. Built once when the delivery is
 * created and stored, so every retry sends (and signs) the same bytes.
 */
export const envelopeBody = (event: EnvelopeSource, mode: WebhookMode): string =>
  JSON.stringify({ id: event.id, type: event.type, createdAt: event.createdAt, data: dataFor(event.type, event.data, mode) })

/**
 * The type of a test event, sent by hand to one endpoint (whatever events it chose) to see that
 * it receives and verifies deliveries. Not one of the spec's event types: nothing happened, and
 * no endpoint is sent one unless someone asks.
 */
export const testEventType = "webhook.test"

/** The type of a delivery: an event type, or the test event's. */
export const DeliveryEventType = Schema.Literals([...eventTypes, testEventType])
export type DeliveryEventType = typeof DeliveryEventType.Type

/** The test event's `data`, fat and thin. */
export const TestEventData = Schema.Struct({
  webhookId: Schema.String.annotate({ format: "uuid", description: "The endpoint the test was sent to" }),
  test: Schema.Literal(true),
  message: Schema.optionalKey(Schema.String.annotate({ description: "Who sent it, in words (fat mode only)" }))
})

/** The exact body of a test event to an endpoint in `mode`. */
export const testEventBody = (
  event: { readonly id: string; readonly createdAt: string; readonly webhookId: string; readonly sentBy: string },
  mode: WebhookMode
): string =>
  JSON.stringify({
    id: event.id,
    type: testEventType,
    createdAt: event.createdAt,
    data: mode === "fat"
      ? { webhookId: event.webhookId, test: true, message: `A test event sent by ${event.sentBy}. Nothing happened: answer 2xx to pass.` }
      : { webhookId: event.webhookId, test: true }
  })
