/**
 * What `sync` reports: what changed on the network for one account since an
 * instant. The invitations the account sent whose status changed (or that
 * were sent) in the window, with their current status, and the messages the
 * account received in the window. The caller keeps `syncedUntil` and passes
 * it as the next `since`, so each change is reported exactly once.
 */
import { Schema } from "effect"

const DateTime = Schema.String.annotate({ format: "date-time", description: "ISO 8601 date-time (UTC)" })

/**
 * The status of a sent invitation. The network does not tell a sender about
 * declines, so `declined` appears only where a driver can see it (the sandbox
 * leaves declined invitations pending, as the network does).
 */
export const SentInvitationStatus = Schema.Literals(["pending", "accepted", "declined", "withdrawn"])
export type SentInvitationStatus = typeof SentInvitationStatus.Type

/** An invitation the account sent, as it stands now. */
export const SyncedInvitation = Schema.Struct({
  invitationId: Schema.String,
  providerId: Schema.String.annotate({ description: "The invitee" }),
  note: Schema.NullOr(Schema.String),
  status: SentInvitationStatus,
  sentAt: DateTime,
  acceptedAt: Schema.NullOr(DateTime),
  /** When it stopped being pending (accepted, declined or withdrawn), null while pending. */
  resolvedAt: Schema.NullOr(DateTime)
}).annotate({ identifier: "SyncedInvitation" })
export type SyncedInvitation = typeof SyncedInvitation.Type

/** A message the account received. */
export const InboundMessage = Schema.Struct({
  chatId: Schema.String,
  messageId: Schema.String,
  senderProviderId: Schema.String,
  text: Schema.String,
  sentAt: DateTime,
  /** The id of the account's message this answers, when it answers one sent through the service. */
  inReplyTo: Schema.NullOr(Schema.String)
}).annotate({ identifier: "InboundMessage" })
export type InboundMessage = typeof InboundMessage.Type

/** What changed in (`since`, `syncedUntil`]. */
export const SyncResult = Schema.Struct({
  /** The instant (epoch ms) the sync covers up to: pass it as the next `since`. */
  syncedUntil: Schema.Number,
  /** Oldest change first. */
  invitations: Schema.Array(SyncedInvitation),
  /** Oldest first. */
  messages: Schema.Array(InboundMessage)
}).annotate({ identifier: "SyncResult" })
export type SyncResult = typeof SyncResult.Type
