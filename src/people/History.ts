/**
 * A person's history, from the records themselves: the jobs about them, the
 * invitations the accounts sent them and the messages both ways. Pure: the
 * timeline (newest first) and how each account stands with the person both
 * follow from the same facts.
 */
import { Option, Schema } from "effect"
import type { PersonAccount, Relationship, TimelineEntry } from "../domain/PersonRecord.ts"
import { MessageSent } from "../domain/CommandResults.ts"
import type { InvitationSource, InvitationStatus } from "../domain/Invitation.ts"
import type { JobStatus } from "../domain/Job.ts"
import { isUnsure, type TriageClass } from "../domain/TriageClass.ts"

interface Fact {
  readonly personId: string
  readonly accountId: string
  readonly accountLabel: string
}

/** A job linked to the person. */
export interface JobFact extends Fact {
  readonly jobId: string
  readonly kind: string
  readonly status: JobStatus
  readonly error: unknown
  readonly result: unknown
  readonly createdAt: string
  readonly startedAt: string | null
  readonly finishedAt: string | null
}

/** An invitation an account sent the person. */
export interface InvitationFact extends Fact {
  readonly invitationId: string
  readonly status: InvitationStatus
  readonly source: InvitationSource
  readonly note: string | null
  readonly sentAt: string
  readonly acceptedAt: string | null
  readonly resolvedAt: string | null
}

/** A message the person sent an account. */
export interface ReceivedFact extends Fact {
  readonly chatId: string
  readonly messageId: string
  readonly text: string
  readonly sentAt: string
  readonly triageClass: TriageClass | null
  readonly suggestedReply: string | null
  readonly triageConfidence: number | null
}

/** Everything recorded about some people. */
export interface Facts {
  readonly jobs: ReadonlyArray<JobFact>
  readonly invitations: ReadonlyArray<InvitationFact>
  readonly received: ReadonlyArray<ReceivedFact>
}

const JobErrorFields = Schema.Struct({ type: Schema.String, message: Schema.String })
const decodeJobError = Schema.decodeUnknownOption(JobErrorFields)
const decodeMessageSent = Schema.decodeUnknownOption(MessageSent)

const account = (fact: Fact) => ({ accountId: fact.accountId, accountLabel: fact.accountLabel })

const jobEntry = (job: JobFact): TimelineEntry => ({
  kind: "job",
  at: job.finishedAt ?? job.startedAt ?? job.createdAt,
  ...account(job),
  jobId: job.jobId,
  command: job.kind,
  status: job.status,
  error: Option.getOrNull(Option.map(decodeJobError(job.error), ({ type, message }) => ({ type, message })))
})

/** The message a completed `send_message` job sent. */
const sentMessage = (job: JobFact): Option.Option<TimelineEntry> =>
  job.kind === "send_message" && job.status === "completed"
    ? Option.map(decodeMessageSent(job.result), (sent) => ({
      kind: "message_sent",
      at: sent.sentAt,
      ...account(job),
      jobId: job.jobId,
      chatId: sent.chatId,
      messageId: sent.messageId,
      text: sent.text,
      inmail: sent.inmail
    }))
    : Option.none()

const invitationEntries = (invitation: InvitationFact): ReadonlyArray<TimelineEntry> => {
  const sent: TimelineEntry = {
    kind: "invitation",
    at: invitation.sentAt,
    ...account(invitation),
    invitationId: invitation.invitationId,
    status: invitation.status,
    source: invitation.source,
    note: invitation.note,
    resolvedAt: invitation.resolvedAt
  }
  const acceptedAt = invitation.status === "accepted" ? invitation.acceptedAt ?? invitation.resolvedAt : null
  return acceptedAt === null
    ? [sent]
    : [sent, { kind: "invitation_accepted", at: acceptedAt, ...account(invitation), invitationId: invitation.invitationId }]
}

const receivedEntry = (message: ReceivedFact): TimelineEntry => ({
  kind: "message_received",
  at: message.sentAt,
  ...account(message),
  chatId: message.chatId,
  messageId: message.messageId,
  text: message.text,
  triage: message.triageClass === null ? null : {
    class: message.triageClass,
    suggestedReply: message.suggestedReply,
    confidence: message.triageConfidence,
    unsure: isUnsure(message.triageConfidence)
  }
})

// Within one instant, what happened later in a story comes first (newest first).
const kindOrder: Record<TimelineEntry["kind"], number> = {
  message_received: 0,
  message_sent: 1,
  invitation_accepted: 2,
  job: 3,
  invitation: 4
}

const newestFirst = (a: TimelineEntry, b: TimelineEntry) =>
  Date.parse(b.at) - Date.parse(a.at) || kindOrder[a.kind] - kindOrder[b.kind]

/** Every entry of the facts, newest first. */
export const timelineOf = (facts: Facts): ReadonlyArray<TimelineEntry> =>
  [
    ...facts.jobs.map(jobEntry),
    ...facts.jobs.flatMap((job) => Option.toArray(sentMessage(job))),
    ...facts.invitations.flatMap(invitationEntries),
    ...facts.received.map(receivedEntry)
  ].sort(newestFirst)

/** How an account stands with the person: the first rule that holds. */
const relationshipOf = (latestInvitation: InvitationStatus | null, messages: number): Relationship => {
  if (latestInvitation === "accepted") return "connected"
  if (latestInvitation === "pending") return "invited"
  return messages > 0 ? "messaged" : "none"
}

/** Every account that dealt with the person, latest first, from the facts of that one person. */
export const accountsOf = (facts: Facts): ReadonlyArray<PersonAccount> => {
  const timeline = timelineOf(facts)
  const accountIds = [...new Set(timeline.map((entry) => entry.accountId))]
  return accountIds.map((accountId) => {
    const entries = timeline.filter((entry) => entry.accountId === accountId)
    const latestInvitation = facts.invitations
      .filter((invitation) => invitation.accountId === accountId)
      .sort((a, b) => Date.parse(b.sentAt) - Date.parse(a.sentAt))[0]?.status ?? null
    const messagesSent = entries.filter((entry) => entry.kind === "message_sent").length
    const messagesReceived = entries.filter((entry) => entry.kind === "message_received").length
    return {
      accountId,
      label: entries[0].accountLabel,
      relationship: relationshipOf(latestInvitation, messagesSent + messagesReceived),
      invitation: latestInvitation,
      messagesSent,
      messagesReceived,
      lastActivityAt: entries[0].at
    }
  })
}

/** The facts of one person. */
export const factsOf = (facts: Facts, personId: string): Facts => ({
  jobs: facts.jobs.filter((fact) => fact.personId === personId),
  invitations: facts.invitations.filter((fact) => fact.personId === personId),
  received: facts.received.filter((fact) => fact.personId === personId)
})
