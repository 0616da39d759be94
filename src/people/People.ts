/**
 * People: the workspace's shared history with one person across all its
 * accounts. A person is a row per workspace and network identifier, touched
 * (`touchPerson`) whenever an account deals with them; their history is read
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
 * The check and the claim are one transaction that holds the person's row,
 * so two seats reaching the person at the same instant are told apart.
 *
 * The one module with SQL on `people` (issue #19).
 *
 * @since 1.0.0
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { foreignCursor } from "../api/Cursor.ts"
import { NotFound, Unprocessable } from "../api/Errors.ts"
import { COLD_MESSAGE_HOLD_DAYS, type PersonRecord, TIMELINE_MAX, type TimelineEntry } from "../api/PeopleApi.ts"
import { InvitationSource, InvitationStatus } from "../domain/Invitation.ts"
import { type JobFailure, JobStatus } from "../domain/Job.ts"
import * as Time from "../domain/Time.ts"
import type { Person } from "../domain/NetworkModels.ts"
import { NetworkDriver } from "../network/NetworkDriver.ts"
import { NullableTimestamp, Timestamp } from "../platform/Rows.ts"
import { TriageClass } from "../domain/TriageClass.ts"
import { accountsOf, type Facts, factsOf, timelineOf } from "./History.ts"
import { hasWritten } from "./Messages.ts"

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
 *
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

const DAY_MS = 86_400_000

const PersonRow = Schema.Struct({
  id: Schema.String,
  providerId: Schema.String,
  profileUrl: Schema.String,
  name: Schema.NullOr(Schema.String),
  headline: Schema.NullOr(Schema.String),
  company: Schema.NullOr(Schema.String),
  firstSeenAt: Timestamp,
  lastActivityAt: Timestamp
})
type PersonRow = typeof PersonRow.Type
const decodePeople = Schema.decodeUnknownEffect(Schema.Array(PersonRow))

const account = { personId: Schema.String, accountId: Schema.String, accountLabel: Schema.String }
const decodeJobFacts = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({
  ...account,
  jobId: Schema.String,
  kind: Schema.String,
  status: JobStatus,
  error: Schema.Unknown,
  result: Schema.Unknown,
  createdAt: Timestamp,
  startedAt: NullableTimestamp,
  finishedAt: NullableTimestamp
})))
const decodeInvitationFacts = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({
  ...account,
  invitationId: Schema.String,
  status: InvitationStatus,
  source: InvitationSource,
  note: Schema.NullOr(Schema.String),
  sentAt: Timestamp,
  acceptedAt: NullableTimestamp,
  resolvedAt: NullableTimestamp
})))
const decodeReceivedFacts = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({
  ...account,
  chatId: Schema.String,
  messageId: Schema.String,
  text: Schema.String,
  sentAt: Timestamp,
  triageClass: Schema.NullOr(TriageClass),
  suggestedReply: Schema.NullOr(Schema.String)
})))
const decodeHolds = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({
  accountId: Schema.String,
  label: Schema.String,
  reason: Schema.Literals(["in_flight", "pending_invitation", "cold_message"]),
  since: Timestamp
})))

const badCursor = foreignCursor("the latest activity")

const encodeCursor = (row: PersonRow) => Buffer.from(`person:${row.lastActivityAt}:${row.id}`).toString("base64url")
const decodeCursor = (cursor: string) => {
  const match = /^person:(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z):([0-9a-f-]{36})$/.exec(
    Buffer.from(cursor, "base64url").toString("utf8")
  )
  return match === null || Number.isNaN(Date.parse(match[1])) ? undefined : { at: match[1], id: match[2] }
}

const personNotFound = (id: string) =>
  new NotFound({
    error: { message: `No person ${id} in this workspace.`, next: "Search the workspace's people with GET /v1/people." }
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
    Unprocessable
  >
  /** One person with their timeline, newest first. */
  readonly get: (workspaceId: string, id: string) => Effect.Effect<
    { readonly person: PersonRecord; readonly timeline: ReadonlyArray<TimelineEntry> },
    NotFound
  >
  /**
   * Before a write about a person runs: records the person (from the profile
   * just read) and links the job to them; for an invitation, or a message
   * that is cold, answers the other seat that holds the person, if any, in
   * the same transaction (the job, running and linked, then holds them).
   */
  readonly claim: (input: {
    readonly job: { readonly id: string; readonly workspaceId: string; readonly accountId: string }
    readonly profile: Person
    readonly about: WriteAbout
    /** Links the job to the person, in the claim's transaction: the job's store does it (jobs/ is above people/). */
    readonly link: (personId: string) => Effect.Effect<void>
  }) => Effect.Effect<OtherSeat | undefined>
}>()("outreach/People") {
  static readonly layer = Layer.effect(
    People,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const network = yield* NetworkDriver

      /** Everything recorded about these people of the workspace. */
      const factsAbout = (workspaceId: string, personIds: ReadonlyArray<string>) =>
        Effect.gen(function*() {
          if (personIds.length === 0) {
            const none: Facts = { jobs: [], invitations: [], received: [] }
            return none
          }
          const jobs = yield* sql`
            SELECT j.person_id::text AS "personId", j.account_id::text AS "accountId", a.label AS "accountLabel",
              j.id::text AS "jobId", j.kind, j.status, j.error, j.result, j.created_at AS "createdAt",
              j.started_at AS "startedAt", j.finished_at AS "finishedAt"
            FROM jobs j JOIN accounts a ON a.id = j.account_id
            WHERE j.workspace_id = ${workspaceId} AND ${sql.in("j.person_id", [...personIds])}`.pipe(
            Effect.flatMap(decodeJobFacts)
          )
          const invitations = yield* sql`
            SELECT p.id::text AS "personId", i.account_id::text AS "accountId", a.label AS "accountLabel",
              i.id AS "invitationId", i.status, i.source, i.note, i.sent_at AS "sentAt", i.accepted_at AS "acceptedAt",
              i.resolved_at AS "resolvedAt"
            FROM people p JOIN invitations i ON i.provider_id = p.provider_id
              JOIN accounts a ON a.id = i.account_id AND a.workspace_id = p.workspace_id
            WHERE p.workspace_id = ${workspaceId} AND ${sql.in("p.id", [...personIds])}`.pipe(
            Effect.flatMap(decodeInvitationFacts)
          )
          const received = yield* sql`
            SELECT p.id::text AS "personId", m.account_id::text AS "accountId", a.label AS "accountLabel",
              m.chat_id AS "chatId", m.id AS "messageId", m.text, m.sent_at AS "sentAt", m.triage_class AS "triageClass",
              m.suggested_reply AS "suggestedReply"
            FROM people p JOIN inbox_messages m ON m.sender_provider_id = p.provider_id
              JOIN accounts a ON a.id = m.account_id AND a.workspace_id = p.workspace_id
            WHERE p.workspace_id = ${workspaceId} AND ${sql.in("p.id", [...personIds])}`.pipe(
            Effect.flatMap(decodeReceivedFacts)
          )
          const facts: Facts = { jobs, invitations, received }
          return facts
        }).pipe(Effect.orDie)

      const recordOf = (row: PersonRow, facts: Facts): PersonRecord => ({
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

      const list = Effect.fn("People.list")(function*(workspaceId: string, search: PeopleSearch) {
        const after = search.cursor === undefined ? undefined : decodeCursor(search.cursor)
        if (search.cursor !== undefined && after === undefined) return yield* Effect.fail(badCursor)
        const profile = search.profile === undefined ? undefined : yield* network.identify(search.profile).pipe(
          Effect.mapError((error) =>
            // Well-formed text (as the document describes it) that names no one: 422, not 400.
            new Unprocessable({ error: { message: `query.profile: ${error.message}`, next: error.next } })
          )
        )
        const words = (search.q ?? "").split(/\s+/u).filter((word) => word.length > 0)
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
        const page = rows.slice(0, search.limit)
        const facts = yield* factsAbout(workspaceId, page.map((row) => row.id))
        const last = page[page.length - 1]
        return {
          people: page.map((row) => recordOf(row, facts)),
          nextCursor: rows.length > search.limit && last !== undefined ? encodeCursor(last) : null
        }
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
        const facts = yield* factsAbout(workspaceId, [row.id])
        return { person: recordOf(row, facts), timeline: timelineOf(facts).slice(0, TIMELINE_MAX) }
      })

      /** The other seat holding the person, by the rule of this module's header; the strongest hold first. */
      const otherSeatHolding = (workspaceId: string, accountId: string, personId: string, nowMs: number) =>
        sql`
          SELECT h."accountId", a.label, h.reason, h.since FROM (
            SELECT j.account_id AS "accountId", 'in_flight' AS reason, COALESCE(j.started_at, j.created_at) AS since, 1 AS rank
            FROM jobs j
            WHERE j.person_id = ${personId} AND j.status = 'running' AND j.kind IN ('connect', 'send_message')
            UNION ALL
            SELECT i.account_id, 'pending_invitation', i.sent_at, 2
            FROM people p JOIN invitations i ON i.provider_id = p.provider_id
            WHERE p.id = ${personId} AND i.status = 'pending'
            UNION ALL
            SELECT j.account_id, 'cold_message', (j.result ->> 'sentAt')::timestamptz, 3
            FROM jobs j JOIN people p ON p.id = j.person_id
            WHERE j.person_id = ${personId} AND j.kind = 'send_message' AND j.status = 'completed'
              AND j.result ->> 'inmail' = 'true'
              AND (j.result ->> 'sentAt')::timestamptz > ${Time.toIso(nowMs - COLD_MESSAGE_HOLD_DAYS * DAY_MS)}::timestamptz
              AND NOT EXISTS (
                SELECT 1 FROM inbox_messages m WHERE m.account_id = j.account_id
                  AND m.sender_provider_id = p.provider_id AND m.sent_at >= (j.result ->> 'sentAt')::timestamptz)
          ) h JOIN accounts a ON a.id = h."accountId"
          WHERE a.workspace_id = ${workspaceId} AND a.id <> ${accountId} AND a.removed_at IS NULL
          ORDER BY h.rank, h.since DESC LIMIT 1`.pipe(Effect.flatMap(decodeHolds), Effect.map((found) => found[0]))

      const claim = Effect.fn("People.claim")(function*(input: {
        readonly job: { readonly id: string; readonly workspaceId: string; readonly accountId: string }
        readonly profile: Person
        readonly about: WriteAbout
        readonly link: (personId: string) => Effect.Effect<void>
      }) {
        const { job, profile, about } = input
        const now = yield* Time.now
        return yield* sql.withTransaction(Effect.gen(function*() {
          // The upsert holds the person's row to the end of the transaction: one claim of a person at a time.
          const personId = yield* touchPerson(sql, job.workspaceId, {
            providerId: profile.providerId,
            profileUrl: profile.profileUrl,
            name: profile.name,
            headline: profile.headline,
            company: profile.company.name
          }, now.iso)
          if (personId === undefined) return yield* Effect.die(new Error(`person ${profile.providerId} not recorded`))
          yield* input.link(personId)
          const outreach = about === "invitation" ||
            // Someone who has written to the account is answered, not approached.
            (profile.connectionDegree !== 1 && !(yield* hasWritten(sql, job.accountId, profile.providerId)))
          if (!outreach) return undefined
          return yield* otherSeatHolding(job.workspaceId, job.accountId, personId, now.ms)
        })).pipe(Effect.orDie)
      })

      return People.of({ list, get, claim })
    })
  )
}
