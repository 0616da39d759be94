/**
 * The event types integrators receive by webhook, with the data each carries
 * (spec: Events). One place: the outbox, the delivery worker and the OpenAPI
 * document's `webhooks` section all read these schemas.
 */
import { Schema } from "effect"
import { InvitationSource } from "./Invitation.ts"
import { Confidence, TriageClass, Unsure } from "./TriageClass.ts"

const Uuid = Schema.String.annotate({ format: "uuid" })
const DateTime = Schema.String.annotate({ format: "date-time" })

/** Envelope-style error inside job events. */
export const JobError = Schema.Struct({ type: Schema.String, message: Schema.String, next: Schema.String })

/** `data` of each event type. */
export const EventData = {
  "message.received": Schema.Struct({
    accountId: Uuid,
    chatId: Schema.String,
    messageId: Schema.String,
    senderProviderId: Schema.String,
    text: Schema.String,
    sentAt: DateTime,
    triage: Schema.NullOr(Schema.Struct({
      class: TriageClass,
      suggestedReply: Schema.NullOr(Schema.String),
      confidence: Confidence,
      unsure: Unsure
    }))
  }),
  "invitation.accepted": Schema.Struct({
    accountId: Uuid,
    invitationId: Uuid,
    providerId: Schema.String,
    via: InvitationSource,
    name: Schema.optionalKey(Schema.String.annotate({ description: "The person's name, when the service knows it" }))
  }),
  "job.completed": Schema.Struct({
    jobId: Uuid,
    accountId: Uuid,
    kind: Schema.String,
    status: Schema.String,
    result: Schema.Unknown,
    error: Schema.NullOr(JobError)
  }),
  "job.failed": Schema.Struct({
    jobId: Uuid,
    accountId: Uuid,
    kind: Schema.String,
    status: Schema.String,
    error: Schema.NullOr(JobError)
  }),
  "account.connected": Schema.Struct({
    accountId: Uuid,
    tier: Schema.String,
    products: Schema.Array(Schema.String),
    reconnected: Schema.Boolean
  }),
  "account.reconnection_required": Schema.Struct({
    accountId: Uuid,
    reason: Schema.String,
    needsHuman: Schema.Boolean
  }),
  "account.paused": Schema.Struct({ accountId: Uuid, reason: Schema.String }),
  "account.resumed": Schema.Struct({ accountId: Uuid, wasRestricted: Schema.Boolean })
} as const

export type EventType = keyof typeof EventData

/** Every event type, in the spec's order. */
export const eventTypes: ReadonlyArray<EventType> = [
  "message.received",
  "invitation.accepted",
  "job.completed",
  "job.failed",
  "account.connected",
  "account.reconnection_required",
  "account.paused",
  "account.resumed"
]

/** An event type, as a schema (stored columns, webhook filters). */
export const EventTypeSchema = Schema.Literals(eventTypes)

/** An event to record: its type and the data of that type. */
export type NewEvent = {
  readonly [T in EventType]: { readonly type: T; readonly data: typeof EventData[T]["Type"] }
}[EventType]
