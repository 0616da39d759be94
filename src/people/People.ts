/**
 * People: the workspace's shared history with one person across all its
 * accounts. A person is a row per workspace and network identifier, touched
 * (`PersonTouches`) whenever an account deals with them; their history is read
 * from the jobs, invitations and messages themselves (`History.ts`), so it
 * never disagrees with them.
 *
 * Writes consult it: this is the one place of the cross-seat rule. Two seats
 * of one workspace never invite or cold-message the same person at once: a
 * `connect`, or a cold `send_message` (to someone who is not a connection of
 * the account and has not written to it), is refused while another seat
 * - is inviting or messaging the person at this moment (its write is running),
 * - has an invitation to the person pending, or
 * - sent the person a cold message (an InMail) in the last
 *   {@link COLD_MESSAGE_HOLD_DAYS} days that they have not answered.
 * The check and the claim are one transaction that holds the person's row
 * (the write's own, which links its job to the person: `jobs/PersonClaim.ts`),
 * so two seats reaching the person at the same instant are told apart.
 *
 * The one module with SQL on `people` (issue #19): the jobs, invitations,
 * messages and accounts a person's history and the cross-seat rule read are
 * asked of their owners (`PersonJobs`, `accounts/Invitations.ts`,
 * `Messages.ts`, `AccountStore`), once for a whole page.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { AccountStore } from "../accounts/AccountStore.ts"
import { Invitations } from "../accounts/Invitations.ts"
import { foreignCursor } from "../domain/Cursor.ts"
import { Invalid, Missing, relayed } from "../domain/Failures.ts"
import { COLD_MESSAGE_HOLD_DAYS, type PersonRecord, TIMELINE_MAX, type TimelineEntry } from "../domain/PersonRecord.ts"
import type { JobFailure } from "../domain/Job.ts"
import * as Time from "../domain/Time.ts"
import type { Person } from "../domain/NetworkModels.ts"
import { driverOf, NetworkDriver } from "../network/NetworkDriver.ts"
import { Timestamp } from "../platform/Rows.ts"
import { accountsOf, type Facts, factsOf, type InvitationFact, type JobFact, type ReceivedFact, timelineOf } from "./History.ts"
import { Messages } from "./Messages.ts"
import { PersonJobs } from "./PersonJobs.ts"

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
 * Where a person enters the workspace's people: the one upsert every place
 * that deals with a person calls (the Executor before a write, a job's ending,
 * syncing), inside that place's own transaction. A person is one row per
 * workspace and network identifier (`providerId`), whatever address was used;
 * what is known of them (name, headline, company) only ever grows, and their
 * first and latest activity widen to include each touch.
 */
export class PersonTouches extends Context.Service<PersonTouches, {
  /**
   * Records that the workspace dealt with the person at `at` (ISO); returns the
   * person's id, or undefined when `profileUrl` is null and the person is not
   * known yet.
   */
  readonly touch: (workspaceId: string, person: PersonFacts, at: string) => Effect.Effect<
    string | undefined,
    SqlError.SqlError | Schema.SchemaError
  >
}>()("outreach/PersonTouches") {
  /** Needs the `SqlClient`. */
  static readonly layer = Layer.effect(
    PersonTouches,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return PersonTouches.of({
        touch: (workspaceId, person, at) =>
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
      })
    })
  )
}

/** `GET /v1/people` filters. */
export interface PeopleSearch {
  readonly q?: string | undefined
  readonly company?: string | undefined
  readonly profile?: string | undefined
  readonly cursor?: string | undefined
  readonly limit: number
}

/** Why another seat holds a person. */
export type HoldReason = "in_flight" | "pending_invitation" | "cold_message"

/** Another seat of the workspace that holds the person, and since when. */
export interface OtherSeat {
  readonly accountId: string
  readonly label: string
  readonly reason: HoldReason
  readonly since: string
}

/** What a write about to run is: an invitation, or a message (outreach only when it is cold). */
export type WriteAbout = "invitation" | "message"

/** What a claim found: the person (the job is linked to them in the claim's transaction), and another seat holding them. */
export interface Claim {
  readonly personId: string
  readonly other: OtherSeat | undefined
}

const DAY_MS = 86_400_000

/** Which hold is named when several seats hold the person: the strongest first. */
const holdRank: Record<HoldReason, number> = { in_flight: 1, pending_invitation: 2, cold_message: 3 }

/** A person as the `people` table keeps them (without their workspace). */
export const PersonRow = Schema.Struct({
  id: Schema.String,
  providerId: Schema.String,
  profileUrl: Schema.String,
  name: Schema.NullOr(Schema.String),
  headline: Schema.NullOr(Schema.String),
  company: Schema.NullOr(Schema.String),
  firstSeenAt: Timestamp,
  lastActivityAt: Timestamp
})
export type PersonRow = typeof PersonRow.Type
const decodePeople = Schema.decodeUnknownEffect(Schema.Array(PersonRow))

const badCursor = foreignCursor("the latest activity")

const encodeCursor = (row: PersonRow) => Buffer.from(`person:${row.lastActivityAt}:${row.id}`).toString("base64url")
const decodeCursor = (cursor: string) => {
  const match = /^person:(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z):([0-9a-f-]{36})$/.exec(
    Buffer.from(cursor, "base64url").toString("utf8")
  )
  return match === null || Number.isNaN(Date.parse(match[1])) ? undefined : { at: match[1], id: match[2] }
}

/** Where a page of `search` starts: after the cursor's person (latest activity, then id, both descending), or at the top. */
export const pageStart = (search: PeopleSearch): Effect.Effect<{ readonly at: string; readonly id: string } | undefined, Invalid> => {
  if (search.cursor === undefined) return Effect.succeed(undefined)
  const after = decodeCursor(search.cursor)
  return after === undefined ? Effect.fail(badCursor) : Effect.succeed(after)
}

/** The person `search.profile` names, by the workspace's network; text that names no one is 400 naming the field. */
export const searchedProfile = (network: NetworkDriver["Service"], workspaceId: string, search: PeopleSearch) =>
  search.profile === undefined ? Effect.succeed(undefined) : Effect.flatMap(driverOf(network, workspaceId), (driver) =>
    driver.identify(search.profile ?? "").pipe(
      Effect.mapError((error) =>
        // Well-formed text (as the document describes it) that names no one: 422, not 400.
        new Invalid(relayed({ message: `query.profile: ${error.message}`, next: error.next }))
      )
    ))

/** The words of `q`, each of which must be in the person's name, headline, company or profile address. */
export const searchWords = (search: PeopleSearch): ReadonlyArray<string> =>
  (search.q ?? "").split(/\s+/u).filter((word) => word.length > 0)

/** A page of `limit` people out of `rows` (up to `limit + 1` of them, in order), and the cursor of the next page. */
export const pageOf = (rows: ReadonlyArray<PersonRow>, limit: number) => {
  const page = rows.slice(0, limit)
  const last = page[page.length - 1]
  return { page, nextCursor: rows.length > limit && last !== undefined ? encodeCursor(last) : null }
}

/** The answer for a person that is not in the workspace. */
export const personNotFound = (id: string) =>
  new Missing({ message: `No person ${id} in this workspace.`, advice: { _tag: "SearchPeople" } })

/** What each owner recorded about some people, before it is sorted by workspace and named. */
export interface FoundFacts {
  readonly jobs: ReadonlyArray<Omit<JobFact, "accountLabel">>
  readonly invitations: ReadonlyArray<Omit<InvitationFact, "personId" | "accountLabel"> & { readonly providerId: string }>
  readonly received: ReadonlyArray<Omit<ReceivedFact, "personId" | "accountLabel"> & { readonly providerId: string }>
}

/**
 * The workspace's facts about these people: each named by its account's label; invitations and messages to the
 * person from accounts of other workspaces are not this workspace's.
 */
export const workspaceFacts = (
  workspaceId: string,
  people: ReadonlyArray<PersonRow>,
  found: FoundFacts,
  labels: ReadonlyMap<string, { readonly workspaceId: string; readonly label: string }>
): Facts => {
  const personOf = new Map(people.map((person) => [person.providerId, person.id]))
  const named = <F extends { readonly accountId: string; readonly providerId: string }>(fact: F) => {
    const account = labels.get(fact.accountId)
    const personId = personOf.get(fact.providerId)
    return account === undefined || account.workspaceId !== workspaceId || personId === undefined
      ? []
      : [{ ...fact, personId, accountLabel: account.label }]
  }
  return {
    jobs: found.jobs.flatMap((job) => {
      const account = labels.get(job.accountId)
      return account === undefined ? [] : [{ ...job, accountLabel: account.label }]
    }),
    invitations: found.invitations.flatMap(named),
    received: found.received.flatMap(named)
  }
}

/** The person as the contract shows them, with how each account stands with them. */
export const recordOf = (row: PersonRow, facts: Facts): PersonRecord => ({
  id: row.id,
  providerId: row.providerId,
  profileUrl: row.profileUrl,
  name: row.name,
  headline: row.headline,
  company: row.company,
  firstSeenAt: row.firstSeenAt,
  lastActivityAt: row.lastActivityAt,
  accounts: accountsOf(factsOf(facts, row.id))
})

/** The person and their timeline, newest first, as `GET /v1/people/{id}` answers. */
export const withTimeline = (row: PersonRow, facts: Facts) => ({
  person: recordOf(row, facts),
  timeline: timelineOf(facts).slice(0, TIMELINE_MAX)
})

/** The refusal of a write that would reach a person another seat holds, naming that seat. */
export const otherSeatRefusal = (name: string, other: OtherSeat): JobFailure => {
  const seat = `${other.label} (account ${other.accountId})`
  switch (other.reason) {
    case "in_flight":
      return {
        type: "guardrail",
        message: `Another seat of this workspace, ${seat}, is inviting or messaging ${name} at this moment.`,
        next: "Look at the person with GET /v1/people before trying again: that seat's write may leave an invitation or a message that holds them."
      }
    case "pending_invitation":
      return {
        type: "guardrail",
        message: `${name} already has a pending invitation from another seat of this workspace, ${seat}, sent ${other.since}.`,
        next: "Let that invitation run its course, or withdraw it from that account first."
      }
    case "cold_message": {
      const until = Time.toIso(Date.parse(other.since) + COLD_MESSAGE_HOLD_DAYS * DAY_MS)
      return {
        type: "guardrail",
        message: `Another seat of this workspace, ${seat}, sent ${name} a cold message on ${other.since} that has not been answered.`,
        next: `Leave the person to that seat until they answer, or until ${until}.`
      }
    }
  }
}

export class People extends Context.Service<People, {
  /** The workspace's people, latest activity first, filtered, one page at a time. */
  readonly list: (workspaceId: string, search: PeopleSearch) => Effect.Effect<
    { readonly people: ReadonlyArray<PersonRecord>; readonly nextCursor: string | null },
    Invalid
  >
  /** One person with their timeline, newest first. */
  readonly get: (workspaceId: string, id: string) => Effect.Effect<
    { readonly person: PersonRecord; readonly timeline: ReadonlyArray<TimelineEntry> },
    Missing
  >
  /**
   * Before a write about a person runs, inside the caller's transaction (the
   * job's, `jobs/PersonClaim.ts`, which links the job to the person in it):
   * records the person (from the profile just read), whose row it then holds
   * to the end of that transaction; for an invitation, or a message that is
   * cold, answers the other seat that holds the person, if any (the job,
   * running and linked, then holds them).
   */
  readonly claim: (input: {
    readonly job: { readonly workspaceId: string; readonly accountId: string }
    readonly profile: Person
    readonly about: WriteAbout
  }) => Effect.Effect<Claim>
}>()("outreach/People") {
  /** Needs `PersonJobs` (`JobStore.personJobs`), the network driver and the `SqlClient`. */
  static readonly layer = Layer.effect(
    People,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const network = yield* NetworkDriver

      const accounts = yield* AccountStore
      const personJobs = yield* PersonJobs
      const touches = yield* PersonTouches
      const invitationStore = yield* Invitations
      const messages = yield* Messages

      /**
       * Everything recorded about these people of the workspace: their jobs, the invitations and messages of
       * the workspace's accounts with them, each account named by its label. One query per table for them all.
       */
      const factsAbout = (workspaceId: string, people: ReadonlyArray<PersonRow>) =>
        Effect.gen(function*() {
          if (people.length === 0) {
            const none: Facts = { jobs: [], invitations: [], received: [] }
            return none
          }
          const providerIds = people.map((person) => person.providerId)
          const jobs = yield* personJobs.about(workspaceId, people.map((person) => person.id))
          const invitations = yield* invitationStore.sentTo(providerIds)
          const received = yield* messages.receivedFrom(providerIds)
          const labels = yield* accounts.labelsOf([
            ...new Set([...jobs, ...invitations, ...received].map((fact) => fact.accountId))
          ])
          return workspaceFacts(workspaceId, people, { jobs, invitations, received }, labels)
        })

      const list = Effect.fn("People.list")(function*(workspaceId: string, search: PeopleSearch) {
        const after = yield* pageStart(search)
        const profile = yield* searchedProfile(network, workspaceId, search)
        const words = searchWords(search)
        const rows = yield* sql`
          SELECT p.id::text AS id, p.provider_id AS "providerId", p.profile_url AS "profileUrl", p.name, p.headline,
            p.company, p.first_seen_at AS "firstSeenAt", p.last_activity_at AS "lastActivityAt"
          FROM people p
          WHERE p.workspace_id = ${workspaceId}
            ${
          words.length === 0 ? sql`` : sql`AND ${
            sql.and(words.map((word) =>
              sql`strpos(lower(concat_ws(' ', p.name, p.headline, p.company, p.profile_url)), lower(${word})) > 0`
            ))
          }`
        }
            ${
          search.company === undefined ? sql`` : sql`AND strpos(lower(p.company), lower(${search.company})) > 0`
        }
            ${profile === undefined ? sql`` : sql`AND p.provider_id = ${profile.providerId}`}
            ${
          after === undefined ? sql`` : sql`AND (p.last_activity_at, p.id) < (${after.at}::timestamptz, ${after.id}::uuid)`
        }
          ORDER BY p.last_activity_at DESC, p.id DESC LIMIT ${search.limit + 1}`.pipe(
          Effect.flatMap(decodePeople),
          Effect.orDie
        )
        const { page, nextCursor } = pageOf(rows, search.limit)
        const facts = yield* factsAbout(workspaceId, page)
        return { people: page.map((row) => recordOf(row, facts)), nextCursor }
      })

      const get = Effect.fn("People.get")(function*(workspaceId: string, id: string) {
        const rows = yield* sql`
          SELECT p.id::text AS id, p.provider_id AS "providerId", p.profile_url AS "profileUrl", p.name, p.headline,
            p.company, p.first_seen_at AS "firstSeenAt", p.last_activity_at AS "lastActivityAt"
          FROM people p WHERE p.workspace_id = ${workspaceId} AND p.id = ${id}`.pipe(
          Effect.flatMap(decodePeople),
          Effect.orDie
        )
        const row = rows[0]
        if (row === undefined) return yield* Effect.fail(personNotFound(id))
        const facts = yield* factsAbout(workspaceId, [row])
        return withTimeline(row, facts)
      })

      /**
       * The other seat holding the person, by the rule of this module's header; the strongest hold first.
       * Each owner is asked in the claim's transaction, after the person's row was locked: a seat claiming
       * the person at the same instant waits for that lock, so every read here already sees its job running
       * and linked, as the one statement this was before did.
       */
      const otherSeatHolding = (workspaceId: string, accountId: string, personId: string, providerId: string, nowMs: number) =>
        Effect.gen(function*() {
          const jobs = yield* personJobs.holding(personId, Time.toIso(nowMs - COLD_MESSAGE_HOLD_DAYS * DAY_MS))
          const coldSent = jobs.filter((hold) => hold.reason === "cold_message")
          // A cold message holds the person until they answer that account.
          const answers = yield* messages.messagesFrom(coldSent.map((hold) => ({ accountId: hold.accountId, providerId, sinceIso: hold.since })))
          const answered = (hold: { readonly accountId: string; readonly since: string }) =>
            answers.some((message) => message.accountId === hold.accountId && Date.parse(message.sentAt) >= Date.parse(hold.since))
          const pending = yield* invitationStore.pendingTo(providerId)
          const holds: ReadonlyArray<{ readonly accountId: string; readonly reason: HoldReason; readonly since: string }> = [
            ...jobs.filter((hold) => hold.reason === "in_flight"),
            ...pending.map((invitation) => ({ accountId: invitation.accountId, reason: "pending_invitation" as const, since: invitation.sentAt })),
            ...coldSent.filter((hold) => !answered(hold))
          ]
          const labels = yield* accounts.labelsOf([...new Set(holds.map((hold) => hold.accountId))])
          const others = holds.flatMap((hold): Array<OtherSeat> => {
            const account = labels.get(hold.accountId)
            return account === undefined || account.workspaceId !== workspaceId || account.id === accountId || account.removed
              ? []
              : [{ accountId: hold.accountId, label: account.label, reason: hold.reason, since: hold.since }]
          })
          return others.sort((a, b) => holdRank[a.reason] - holdRank[b.reason] || Date.parse(b.since) - Date.parse(a.since))[0]
        })

      const claim = Effect.fn("People.claim")(function*(input: {
        readonly job: { readonly workspaceId: string; readonly accountId: string }
        readonly profile: Person
        readonly about: WriteAbout
      }) {
        const { job, profile, about } = input
        const now = yield* Time.now
        return yield* Effect.gen(function*() {
          // The upsert holds the person's row to the end of the caller's transaction: one claim of a person at a time.
          const personId = yield* touches.touch(job.workspaceId, {
            providerId: profile.providerId,
            profileUrl: profile.profileUrl,
            name: profile.name,
            headline: profile.headline,
            company: profile.company.name
          }, now.iso)
          if (personId === undefined) return yield* Effect.die(new Error(`person ${profile.providerId} not recorded`))
          const outreach = about === "invitation" ||
            // Someone who has written to the account is answered, not approached.
            (profile.connectionDegree !== 1 && !(yield* messages.hasWritten(job.accountId, profile.providerId)))
          const other = outreach ? yield* otherSeatHolding(job.workspaceId, job.accountId, personId, profile.providerId, now.ms) : undefined
          return { personId, other }
        }).pipe(Effect.orDie)
      })

      return People.of({ list, get, claim })
    })
  ).pipe(Layer.provide([AccountStore.layer, Invitations.layer, Messages.layer, PersonTouches.layer]))
}
