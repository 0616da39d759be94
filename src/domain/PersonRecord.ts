/**
 * A person as the service knows them (across the workspace's seats) and their
 * timeline, as the contract (`/v1/people`) shows them.
 */
import { Schema } from "effect"
import { DateTimeString, Uuid } from "./Formats.ts"
import { InvitationSource, InvitationStatus } from "./Invitation.ts"
import { JobStatus } from "./Job.ts"
import { Confidence, TriageClass, Unsure } from "./TriageClass.ts"

/** Days an unanswered cold message keeps a person to the seat that sent it. */
export const COLD_MESSAGE_HOLD_DAYS = 14

/** The most timeline entries one answer carries. */
export const TIMELINE_MAX = 200

const exampleIds = {
  person: "3c9d2e1f-8a7b-4c6d-9e0f-1a2b3c4d5e6f",
  account: "0b7c6a1e-3f4d-4e2a-9b8c-7d6e5f4a3b2c",
  job: "9a7e4c2b-1d3f-4e5a-8b6c-0d1e2f3a4b5c",
  invitation: "5d1f8a2e-7c43-4b0e-9a61-2f3c4d5e6f70",
  chat: "2-QUNvQUFiV0Z5YVdFdFoyRnlZMmxoTFROaE9XWXdNbU14WWc"
} as const

/** How one account stands with a person, as the service recorded it. */
export const Relationship = Schema.Literals(["connected", "invited", "messaged", "none"]).annotate({
  description: [
    "How the account stands with the person, the first that holds:",
    "- `connected`: an invitation from the account was accepted;",
    "- `invited`: an invitation from the account is pending;",
    "- `messaged`: messages went between them (either way);",
    "- `none`: the account only ran jobs about the person (a profile read, a refused write) or its invitation was withdrawn or declined."
  ].join("\n")
})
export type Relationship = typeof Relationship.Type

/** One account's dealings with a person. */
export const PersonAccount = Schema.Struct({
  accountId: Uuid,
  label: Schema.String.annotate({ description: "The account's label (usually the rep's name)" }),
  relationship: Relationship,
  invitation: Schema.NullOr(InvitationStatus).annotate({
    description: "The status of the account's latest invitation to the person; null when it sent none"
  }),
  messagesSent: Schema.Int.annotate({ description: "Messages the account sent the person through the service" }),
  messagesReceived: Schema.Int.annotate({ description: "Messages the person sent the account, as syncing recorded them" }),
  lastActivityAt: DateTimeString.annotate({ description: "The account's latest dealing with the person" })
}).annotate({ identifier: "PersonAccount" })
export type PersonAccount = typeof PersonAccount.Type

const personAccountExample = {
  accountId: exampleIds.account,
  label: "Ada Lovelace",
  relationship: "connected",
  invitation: "accepted",
  messagesSent: 1,
  messagesReceived: 1,
  lastActivityAt: "2026-11-22T08:12:00.000Z"
} as const

/** A person as the examples of the contract show them. */
export const personExample = {
  id: exampleIds.person,
  providerId: "ACoAAbWFyaWEtZ2FyY2lhLTNhOWYwMmMxYg",
  profileUrl: "https://www.linkedin.com/in/maria-garcia-3a9f02c1b",
  name: "María García",
  headline: "VP of Sales at Harborview Analytics | B2B SaaS",
  company: "Harborview Analytics",
  firstSeenAt: "2026-11-18T09:30:00.000Z",
  lastActivityAt: "2026-11-22T08:12:00.000Z",
  accounts: [personAccountExample]
} as const

/** A person the workspace's accounts have dealt with. */
export const PersonRecord = Schema.Struct({
  id: Uuid.annotate({ description: "The person's id in this workspace" }),
  providerId: Schema.String.annotate({ description: "The network's identifier of the person: what makes two addresses one person" }),
  profileUrl: Schema.String.annotate({ description: "The person's canonical profile address" }),
  name: Schema.NullOr(Schema.String).annotate({
    description: "Null until the service has read the person's profile or written to them (people known only from syncing)"
  }),
  headline: Schema.NullOr(Schema.String),
  company: Schema.NullOr(Schema.String).annotate({ description: "The current employer, when the service read the profile" }),
  firstSeenAt: DateTimeString.annotate({ description: "The workspace's first dealing with the person" }),
  lastActivityAt: DateTimeString.annotate({ description: "The workspace's latest dealing with the person" }),
  accounts: Schema.Array(PersonAccount).annotate({ description: "Every account that dealt with the person, latest first" })
}).annotate({
  identifier: "PersonRecord",
  description: "A person, once per workspace, with how each account stands with them",
  examples: [personExample]
})
export type PersonRecord = typeof PersonRecord.Type

const entryFields = {
  at: DateTimeString.annotate({ description: "When it happened" }),
  accountId: Uuid.annotate({ description: "The account that did it (or to which it happened)" }),
  accountLabel: Schema.String
}

const seat = { accountId: exampleIds.account, accountLabel: "Ada Lovelace" } as const

/** One example of each kind of timeline entry: María's story with Ada, newest first in `timelineExample`. */
const examples = {
  received: {
    kind: "message_received",
    at: "2026-11-22T08:12:00.000Z",
    ...seat,
    chatId: exampleIds.chat,
    messageId: "msg-9b8a7c6d5e4f3a2b",
    text: "Sounds good, does Tuesday at 10am work for a call?",
    triage: { class: "meeting", suggestedReply: "Tuesday at 10am works for me. I'll send an invite.", confidence: 0.95, unsure: false }
  },
  sent: {
    kind: "message_sent",
    at: "2026-11-20T10:00:00.000Z",
    ...seat,
    jobId: "4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b",
    chatId: exampleIds.chat,
    messageId: "msg-4f0c9d1e2a3b4c5d",
    text: "Thanks for connecting, María! Would a 20-minute call next week be useful?",
    inmail: false
  },
  accepted: { kind: "invitation_accepted", at: "2026-11-19T14:05:00.000Z", ...seat, invitationId: exampleIds.invitation },
  job: {
    kind: "job",
    at: "2026-11-18T09:30:02.000Z",
    ...seat,
    jobId: exampleIds.job,
    command: "connect",
    status: "completed",
    error: null
  },
  invitation: {
    kind: "invitation",
    at: "2026-11-18T09:30:00.000Z",
    ...seat,
    invitationId: exampleIds.invitation,
    status: "accepted",
    source: "svc",
    note: null,
    resolvedAt: "2026-11-19T14:05:00.000Z"
  }
} as const

const JobEntry = Schema.Struct({
  kind: Schema.Literal("job"),
  ...entryFields,
  jobId: Uuid,
  command: Schema.String.annotate({ description: "The job's command" }),
  status: JobStatus,
  error: Schema.NullOr(Schema.Struct({ type: Schema.String, message: Schema.String })).annotate({
    description: "Why it failed (for example `guardrail` naming another seat); null otherwise"
  })
}).annotate({
  identifier: "TimelineJob",
  description: "A job about the person (from the moment it ran); `at` is when it last moved",
  examples: [examples.job, {
    ...examples.job,
    accountLabel: "Grace Hopper",
    command: "send_message",
    status: "failed",
    error: { type: "guardrail", message: "Another seat of this workspace, Ada Lovelace (account 0b7c6a1e-3f4d-4e2a-9b8c-7d6e5f4a3b2c), sent María García a cold message on 2026-11-18T09:30:00.000Z that has not been answered." }
  }]
})

const InvitationEntry = Schema.Struct({
  kind: Schema.Literal("invitation"),
  ...entryFields,
  invitationId: Schema.String,
  status: InvitationStatus.annotate({ description: "Its status now" }),
  source: InvitationSource,
  note: Schema.NullOr(Schema.String),
  resolvedAt: Schema.NullOr(DateTimeString)
}).annotate({
  identifier: "TimelineInvitation",
  description: "An invitation the account sent; `at` is when it was sent",
  examples: [examples.invitation]
})

const AcceptedEntry = Schema.Struct({
  kind: Schema.Literal("invitation_accepted"),
  ...entryFields,
  invitationId: Schema.String
}).annotate({
  identifier: "TimelineInvitationAccepted",
  description: "The person accepted the account's invitation",
  examples: [examples.accepted]
})

const MessageSentEntry = Schema.Struct({
  kind: Schema.Literal("message_sent"),
  ...entryFields,
  jobId: Uuid.annotate({ description: "The `send_message` job that sent it" }),
  chatId: Schema.String,
  messageId: Schema.String,
  text: Schema.String,
  inmail: Schema.Boolean.annotate({ description: "Sent as an InMail: a cold message to someone not connected" })
}).annotate({
  identifier: "TimelineMessageSent",
  description: "A message the account sent the person",
  examples: [examples.sent]
})

const MessageReceivedEntry = Schema.Struct({
  kind: Schema.Literal("message_received"),
  ...entryFields,
  chatId: Schema.String,
  messageId: Schema.String,
  text: Schema.String,
  triage: Schema.NullOr(Schema.Struct({
    class: TriageClass,
    suggestedReply: Schema.NullOr(Schema.String),
    confidence: Schema.NullOr(Confidence),
    unsure: Unsure
  })).annotate({
    description: "The reply's triage, as `message.received` carried it"
  })
}).annotate({
  identifier: "TimelineMessageReceived",
  description: "A message the person sent the account, as syncing recorded it",
  examples: [examples.received]
})

/** One thing in a person's history. */
export const TimelineEntry = Schema.Union([JobEntry, InvitationEntry, AcceptedEntry, MessageSentEntry, MessageReceivedEntry])
  .annotate({
    identifier: "TimelineEntry",
    description: "One thing in the person's history; `kind` fixes the other fields"
  })
export type TimelineEntry = typeof TimelineEntry.Type

/** A timeline as the examples of the contract show it, newest first. */
export const timelineExample = [
  examples.received,
  examples.accepted,
  examples.sent,
  examples.job,
  examples.invitation
]
