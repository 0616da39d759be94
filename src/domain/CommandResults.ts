/**
 * The results of the write commands. Read commands answer the network's own
 * records (`NetworkModels.ts`); writes answer what was done, with the ids a
 * later command needs (the invitation to withdraw, the chat to follow up in).
 */
import { Schema } from "effect"
import { PersonSummary, Post } from "./NetworkModels.ts"
import { Reaction, Visibility } from "./CommandInputs.ts"

const DateTime = Schema.String.annotate({
  format: "date-time",
  description: "ISO 8601 date-time (UTC)",
  examples: ["2026-11-21T09:30:00.000Z"]
})

const personExample = {
  providerId: "ACoAAbWFyaWEtZ2FyY2lhLTNhOWYwMmMxYg",
  publicIdentifier: "maria-garcia-3a9f02c1b",
  profileUrl: "https://www.linkedin.com/in/maria-garcia-3a9f02c1b",
  name: "María García",
  headline: "VP of Sales at Harborview Analytics | B2B SaaS",
  location: "Madrid, Community of Madrid, Spain",
  connectionDegree: 2
} as const

/** `connect`: the invitation now pending. */
export const InvitationSent = Schema.Struct({
  invitationId: Schema.String.annotate({ description: "For `withdraw_invite`" }),
  person: PersonSummary,
  note: Schema.NullOr(Schema.String).annotate({ description: "The note sent, null when none" }),
  status: Schema.Literal("pending"),
  sentAt: DateTime
}).annotate({
  identifier: "InvitationSent",
  description: "The invitation sent; acceptance shows up later (invitation.accepted)",
  examples: [{
    invitationId: "5d1f8a2e-7c43-4b0e-9a61-2f3c4d5e6f70",
    person: personExample,
    note: "Hi María, enjoyed your post on pipeline reviews. Would be glad to connect.",
    status: "pending",
    sentAt: "2026-11-21T09:30:00.000Z"
  }]
})
export type InvitationSent = typeof InvitationSent.Type

/** `withdraw_invite`: the invitation withdrawn, and when the person can be invited again. */
export const InvitationWithdrawn = Schema.Struct({
  invitationId: Schema.String,
  providerId: Schema.String,
  withdrawnAt: DateTime,
  canResendAfter: DateTime.annotate({ description: "The network refuses a new invitation to the person before this" })
}).annotate({
  identifier: "InvitationWithdrawn",
  description: "The invitation withdrawn",
  examples: [{
    invitationId: "5d1f8a2e-7c43-4b0e-9a61-2f3c4d5e6f70",
    providerId: personExample.providerId,
    withdrawnAt: "2026-12-12T10:00:00.000Z",
    canResendAfter: "2027-01-02T10:00:00.000Z"
  }]
})
export type InvitationWithdrawn = typeof InvitationWithdrawn.Type

/** `send_message`: the message sent. */
export const MessageSent = Schema.Struct({
  chatId: Schema.String.annotate({ description: "The chat, for `get_conversation` and follow-ups" }),
  messageId: Schema.String,
  recipientProviderId: Schema.String,
  text: Schema.String,
  inmail: Schema.Boolean.annotate({ description: "Whether it went as an InMail (spends the inmails budget)" }),
  sentAt: DateTime
}).annotate({
  identifier: "MessageSent",
  description: "The message sent; replies show up later (message.received)",
  examples: [{
    chatId: "2-QUNvQUFiV0Z5YVdFdFoyRnlZMmxoTFROaE9XWXdNbU14WWc",
    messageId: "msg-4f0c9d1e2a3b4c5d",
    recipientProviderId: personExample.providerId,
    text: "Thanks for connecting, María! Would a 20-minute call next week be useful?",
    inmail: false,
    sentAt: "2026-11-21T09:30:00.000Z"
  }]
})
export type MessageSent = typeof MessageSent.Type

/** `accept_invite` and `decline_invite`: the answer given. */
export const InvitationAnswered = Schema.Struct({
  invitationId: Schema.String,
  from: PersonSummary,
  answer: Schema.Literals(["accepted", "declined"]),
  answeredAt: DateTime
}).annotate({
  identifier: "InvitationAnswered",
  description: "The received invitation, answered",
  examples: [{
    invitationId: "inv-QUNvQUFiV0Z5YVdFdFoyRnlZMmxoTFROaE9XWXdNbU14WWc",
    from: { ...personExample, connectionDegree: 1 },
    answer: "accepted",
    answeredAt: "2026-11-21T09:30:00.000Z"
  }]
})
export type InvitationAnswered = typeof InvitationAnswered.Type

/** `endorse`: the endorsement (repeating one is a no-op that answers the first). */
export const Endorsed = Schema.Struct({
  person: PersonSummary,
  skill: Schema.String.annotate({ description: "The skill as the profile spells it" }),
  endorsedAt: DateTime
}).annotate({
  identifier: "Endorsed",
  description: "The endorsement given",
  examples: [{ person: { ...personExample, connectionDegree: 1 }, skill: "Negotiation", endorsedAt: "2026-11-21T09:30:00.000Z" }]
})
export type Endorsed = typeof Endorsed.Type

/** `save_lead`: the lead saved (saving again is a no-op that answers the first). */
export const LeadSaved = Schema.Struct({
  person: PersonSummary,
  list: Schema.String,
  savedAt: DateTime
}).annotate({
  identifier: "LeadSaved",
  description: "The lead saved to a Sales Navigator list",
  examples: [{ person: personExample, list: "Q1 Madrid SaaS", savedAt: "2026-11-21T09:30:00.000Z" }]
})
export type LeadSaved = typeof LeadSaved.Type

/** `react`: the account's reaction to the post. */
export const Reacted = Schema.Struct({
  post: Schema.String.annotate({ description: "The post's urn" }),
  reaction: Reaction,
  reactedAt: DateTime
}).annotate({
  identifier: "Reacted",
  description: "The reaction given",
  examples: [{ post: "urn:li:activity:7528731723694092345", reaction: "insightful", reactedAt: "2026-11-21T09:30:00.000Z" }]
})
export type Reacted = typeof Reacted.Type

/** `comment`: the comment published. */
export const Commented = Schema.Struct({
  commentId: Schema.String,
  post: Schema.String.annotate({ description: "The post's urn" }),
  text: Schema.String,
  commentedAt: DateTime
}).annotate({
  identifier: "Commented",
  description: "The comment published",
  examples: [{
    commentId: "7529001122334455667",
    post: "urn:li:activity:7528731723694092345",
    text: "Great point on the third question — we ask the same one.",
    commentedAt: "2026-11-21T09:30:00.000Z"
  }]
})
export type Commented = typeof Commented.Type

/** `create_post`: the post published. */
export const PostCreated = Schema.Struct({
  post: Post,
  visibility: Visibility
}).annotate({
  identifier: "PostCreated",
  description: "The post published",
  examples: [{
    post: {
      id: "7529004455667788990",
      urn: "urn:li:activity:7529004455667788990",
      url: "https://www.linkedin.com/feed/update/urn:li:activity:7529004455667788990",
      author: {
        kind: "person",
        id: personExample.providerId,
        name: personExample.name,
        headline: personExample.headline,
        profileUrl: personExample.profileUrl
      },
      text: "Three questions we now ask on every deal review. #sales #revops",
      publishedAt: "2026-11-21T09:30:00.000Z",
      reactions: 0,
      comments: 0,
      reposts: 0,
      hashtags: ["sales", "revops"]
    },
    visibility: "anyone"
  }]
})
export type PostCreated = typeof PostCreated.Type
