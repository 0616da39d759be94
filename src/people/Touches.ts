/**
 * Where a person enters the workspace's people: the one upsert every place
 * that deals with a person calls (the Executor before a write, a job's ending,
 * syncing), inside that place's own transaction. A person is one row per
 * workspace and network identifier (`providerId`), whatever address was used;
 * what is known of them (name, headline, company) only ever grows, and their
 * first and latest activity widen to include each touch.
 *
 * @since 1.0.0
 */
import { Effect, Option, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import { Endorsed, InvitationAnswered, InvitationSent, InvitationWithdrawn, LeadSaved, MessageSent } from "../domain/CommandResults.ts"
import { Person } from "../domain/NetworkModels.ts"

/** What a touch knows of a person; `profileUrl` null: only an existing person is touched (the identifier alone cannot add one). */
export interface PersonFacts {
  readonly providerId: string
  readonly profileUrl: string | null
  readonly name?: string | undefined
  readonly headline?: string | undefined
  readonly company?: string | undefined
}

const decodeIds = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ id: Schema.String })))

/**
 * Records that the workspace dealt with the person at `at` (ISO); returns the
 * person's id, or undefined when `profileUrl` is null and the person is not
 * known yet.
 */
export const touchPerson = (sql: SqlClient.SqlClient, workspaceId: string, person: PersonFacts, at: string) =>
  Effect.gen(function*() {
    const name = person.name ?? null
    const headline = person.headline ?? null
    const company = person.company ?? null
    const rows = person.profileUrl === null
      ? yield* sql`
        UPDATE people SET
          name = COALESCE(${name}, name), headline = COALESCE(${headline}, headline), company = COALESCE(${company}, company),
          first_seen_at = LEAST(first_seen_at, ${at}::timestamptz),
          last_activity_at = GREATEST(last_activity_at, ${at}::timestamptz)
        WHERE workspace_id = ${workspaceId} AND provider_id = ${person.providerId}
        RETURNING id::text AS id`
      : yield* sql`
        INSERT INTO people AS p (id, workspace_id, provider_id, profile_url, name, headline, company, first_seen_at,
          last_activity_at)
        VALUES (${crypto.randomUUID()}, ${workspaceId}, ${person.providerId}, ${person.profileUrl}, ${name}, ${headline},
          ${company}, ${at}::timestamptz, ${at}::timestamptz)
        ON CONFLICT (workspace_id, provider_id) DO UPDATE SET
          profile_url = EXCLUDED.profile_url,
          name = COALESCE(EXCLUDED.name, p.name), headline = COALESCE(EXCLUDED.headline, p.headline),
          company = COALESCE(EXCLUDED.company, p.company),
          first_seen_at = LEAST(p.first_seen_at, EXCLUDED.first_seen_at),
          last_activity_at = GREATEST(p.last_activity_at, EXCLUDED.last_activity_at)
        RETURNING id::text AS id`
    const decoded = yield* decodeIds(rows)
    return decoded[0]?.id
  })

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
