/**
 * What the inbox answers about an account: the invitations it sent, its daily
 * brief and its health report, as the contract shows them.
 */
import { Schema } from "effect"
import { Mode } from "./Account.ts"
import { Account } from "./AccountRecord.ts"
import { DateTimeString, Uuid } from "./Formats.ts"
import { InvitationSource, InvitationStatus, invitationStatuses } from "./Invitation.ts"
import { Budgets, HealthLevel } from "./Limits.ts"
import { Ssi } from "./NetworkModels.ts"
import { Confidence, TriageClass, Unsure } from "./TriageClass.ts"

/** An invitation the account sent, as the service recorded it (spec, Invitation record). */
export const Invitation = Schema.Struct({
  id: Schema.String.annotate({ description: "The invitation's id on the network (what `withdraw_invite` takes)" }),
  providerId: Schema.String.annotate({ description: "The invitee's identifier on the network" }),
  note: Schema.NullOr(Schema.String).annotate({ description: "The note sent with it, null when none" }),
  status: InvitationStatus.annotate({
    description: "`pending` until the person answers or it is withdrawn; `declined` only where the network tells senders"
  }),
  source: InvitationSource,
  sentAt: DateTimeString,
  resolvedAt: Schema.NullOr(DateTimeString).annotate({
    description: "When it stopped being pending (accepted, withdrawn or declined); null while pending"
  })
}).annotate({
  identifier: "Invitation",
  examples: [{
    id: "5d1f8a2e-7c43-4b0e-9a61-2f3c4d5e6f70",
    providerId: "ACoAAB8mYW5hLWdhcmNpYQ",
    note: "Hi María, enjoyed your post on pipeline reviews. Would be glad to connect.",
    status: "accepted",
    source: "svc",
    sentAt: "2026-11-18T09:30:00.000Z",
    resolvedAt: "2026-11-19T14:05:00.000Z"
  }]
})
export type Invitation = typeof Invitation.Type

/** The `status` filter: one status, or `all`. */
export const InvitationFilter = Schema.Literals([...invitationStatuses, "all"]).annotate({
  description: "Only invitations in this status (default `pending`), or `all`"
})

/** The most invitations one answer lists (spec, Constants). */
export const INVITATION_LIST_MAX = 200

/** The Daily brief (spec, Daily brief). */
export const Brief = Schema.Struct({
  account: Schema.Struct({ id: Uuid, label: Schema.String, health: HealthLevel, mode: Mode, warmupDay: Schema.Int }),
  date: Schema.String.annotate({ description: "The account's local date (YYYY-MM-DD)" }),
  replies: Schema.Array(Schema.Struct({
    chatId: Schema.String,
    from: Schema.NullOr(Schema.String).annotate({ description: "The person's name when known" }),
    class: TriageClass,
    text: Schema.NullOr(Schema.String),
    suggestedReply: Schema.NullOr(Schema.String),
    receivedAt: DateTimeString,
    confidence: Schema.NullOr(Confidence),
    unsure: Unsure
  })).annotate({ description: "Replies of the look-back window: meeting and interested first, out_of_office last; newest first within a class" }),
  readyForFirstMessage: Schema.Array(Schema.Struct({
    providerId: Schema.String,
    name: Schema.NullOr(Schema.String),
    acceptedAt: DateTimeString,
    suggestedOpener: Schema.String
  })).annotate({ description: "People who accepted an invitation and have not been written to or written yet, newest first" }),
  queue: Schema.Struct({
    queued: Schema.Int,
    scheduled: Schema.Int,
    awaitingApproval: Schema.Int,
    byKind: Schema.Record(Schema.String, Schema.Int).annotate({ description: "Unfinished jobs by command" })
  }),
  approvals: Schema.Int.annotate({ description: "Writes waiting for a person" }),
  budgets: Schema.NullOr(Budgets),
  workingHours: Schema.Struct({ openNow: Schema.Boolean, nextOpening: Schema.NullOr(DateTimeString) }),
  headline: Schema.String.annotate({ description: "One sentence, the most pressing first" }),
  tomorrow: Schema.String.annotate({
    description: "What the forecast (`GET /v1/accounts/{id}/forecast`) expects to go out on the account's next local day, per category"
  })
}).annotate({
  identifier: "Brief",
  examples: [{
    account: { id: "0b7c6a1e-3f4d-4e2a-9b8c-7d6e5f4a3b2c", label: "Ada Lovelace", health: "green", mode: "approve", warmupDay: 14 },
    date: "2026-11-22",
    replies: [{
      chatId: "2-QUNvQUFiV0Z5YVdFdFoyRnlZMmxoTFROaE9XWXdNbU14WWc",
      from: "María García",
      class: "meeting",
      text: "Sounds good, does Tuesday at 10am work for a call?",
      suggestedReply: "Tuesday at 10am works for me. I'll send an invite.",
      receivedAt: "2026-11-22T08:12:00.000Z",
      confidence: 0.95,
      unsure: false
    }],
    readyForFirstMessage: [{
      providerId: "ACoAAB8mYW5hLWdhcmNpYQ",
      name: "Jonas Weber",
      acceptedAt: "2026-11-21T16:40:00.000Z",
      suggestedOpener: "Hi Jonas, thanks for connecting! I'd be glad to hear what you're focused on at the moment."
    }],
    queue: { queued: 3, scheduled: 1, awaitingApproval: 2, byKind: { connect: 4, send_message: 2 } },
    approvals: 2,
    budgets: null,
    workingHours: { openNow: true, nextOpening: null },
    headline: "1 person is ready to talk (1 asks for a meeting): answer them first; 1 new connection is ready for a first message; 2 writes wait for your approval.",
    tomorrow: "Expected to go out on 2026-11-23: 20 invitations, 2 messages. The queue is expected to be empty 2026-11-24 09:05 UTC."
  }]
})

export type Brief = typeof Brief.Type

/** The Health report (spec, Health report). */
export const HealthReport = Schema.Struct({
  account: Account,
  network: Schema.Struct({
    connections: Schema.NullOr(Schema.Int),
    size: Schema.Literals(["small", "medium", "large", "unknown"]).annotate({
      description: "small: under 500 connections; medium: 500 to 2,999; large: 3,000 or more"
    }),
    note: Schema.String
  }),
  invitations: Schema.Struct({
    pending: Schema.Int,
    stale: Schema.Int.annotate({ description: "Pending more than 21 days" }),
    proposedCleanup: Schema.NullOr(Schema.String)
  }),
  ssi: Schema.NullOr(Ssi).annotate({ description: "The Social Selling Index, when Sales Navigator is on" }),
  warmup: Schema.NullOr(Schema.Struct({
    day: Schema.Int,
    of: Schema.Int,
    finishesOn: Schema.String.annotate({ description: "Local date (YYYY-MM-DD) the ramp reaches full budgets" }),
    todayInvites: Schema.Int.annotate({ description: "Invitations the account may still send today" }),
    note: Schema.String
  })).annotate({ description: "Null once the warm-up is over (or before the account is connected)" }),
  recommendations: Schema.Array(Schema.String).annotate({ description: "What to do, most urgent first, each following from a number above" })
}).annotate({ identifier: "HealthReport" })
export type HealthReport = typeof HealthReport.Type
