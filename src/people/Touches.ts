/**
 * The person a finished job was about: read from its result, touched
 * (`touchPerson`, in `People.ts`, the one owner of the `people` table) and
 * linked to the job, inside the job's ending transaction.
 *
 * @since 1.0.0
 */
import { Effect, Option, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import { Endorsed, InvitationAnswered, InvitationSent, InvitationWithdrawn, LeadSaved, MessageSent } from "../domain/CommandResults.ts"
import { Person } from "../domain/NetworkModels.ts"
import { type PersonFacts, touchPerson } from "./People.ts"

const summary = (person: { providerId: string; profileUrl: string; name: string; headline: string }): PersonFacts => ({
  providerId: person.providerId,
  profileUrl: person.profileUrl,
  name: person.name,
  headline: person.headline
})

const decodeProfile = Schema.decodeUnknownOption(Person)
const decodeSent = Schema.decodeUnknownOption(InvitationSent)
const decodeWithdrawn = Schema.decodeUnknownOption(InvitationWithdrawn)
const decodeMessage = Schema.decodeUnknownOption(MessageSent)
const decodeAnswered = Schema.decodeUnknownOption(InvitationAnswered)
const decodeEndorsed = Schema.decodeUnknownOption(Endorsed)
const decodeLead = Schema.decodeUnknownOption(LeadSaved)

/** Per command, the person its completed result names (commands about no one person are absent). */
const peopleOfResults: Readonly<Record<string, (result: unknown) => Option.Option<PersonFacts>>> = {
  get_profile: (result) => Option.map(decodeProfile(result), (person) => ({ ...summary(person), company: person.company.name })),
  connect: (result) => Option.map(decodeSent(result), (sent) => summary(sent.person)),
  withdraw_invite: (result) =>
    Option.map(decodeWithdrawn(result), (withdrawn) => ({ providerId: withdrawn.providerId, profileUrl: null })),
  send_message: (result) => Option.map(decodeMessage(result), (sent) => ({ providerId: sent.recipientProviderId, profileUrl: null })),
  accept_invite: (result) => Option.map(decodeAnswered(result), (answered) => summary(answered.from)),
  decline_invite: (result) => Option.map(decodeAnswered(result), (answered) => summary(answered.from)),
  endorse: (result) => Option.map(decodeEndorsed(result), (endorsed) => summary(endorsed.person)),
  save_lead: (result) => Option.map(decodeLead(result), (saved) => summary(saved.person))
}

/** The person a completed job of `kind` was about, from its (encoded) result; none for commands about no one person. */
export const personOfResult = (kind: string, result: unknown): Option.Option<PersonFacts> => {
  const pick = peopleOfResults[kind]
  return pick === undefined ? Option.none() : pick(result)
}

/**
 * Links a finished job to the person its result names and touches them (in
 * the job's ending transaction). A job the Executor linked before it ran
 * keeps that link.
 */
export const linkJobResult = (
  sql: SqlClient.SqlClient,
  job: { readonly id: string; readonly workspaceId: string; readonly kind: string },
  result: unknown,
  at: string
) =>
  Effect.gen(function*() {
    const person = personOfResult(job.kind, result)
    if (Option.isNone(person)) return
    const personId = yield* touchPerson(sql, job.workspaceId, person.value, at)
    if (personId === undefined) return
    yield* sql`UPDATE jobs SET person_id = COALESCE(person_id, ${personId}) WHERE id = ${job.id}`
  })
