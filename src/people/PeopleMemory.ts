/**
 * `People` in memory, for fast tests of the people routes without a database: the rules of the
 * stored people (`People.ts`), for one process, with the same page, cursor, search and not-found
 * rules it exports and the same history (`History.ts`). A person enters through the in-memory
 * `PersonTouches` (one per workspace and network identifier; what is known of them only grows;
 * their first and latest activity widen to each touch), as the Executor, a job's ending and
 * syncing touch them in the stored service.
 *
 * The stored people read their history from the other owners (accounts, jobs, invitations,
 * messages); here those stand in through {@link PeopleSeeds}: the workspace's accounts (their
 * label), and what syncing recorded: the messages people sent (a timeline's `message_received`,
 * an account's `messagesReceived`) and the invitations the accounts sent (`invitation`,
 * `invitation_accepted`, an account's `invited` or `connected`). The jobs of a timeline (and the
 * messages and invitations they sent), and the cross-seat rule of `claim` (one transaction with
 * the job's own, `jobs/PersonClaim.ts`), need the job store: they are tested on the database
 * (`test/people/People.test.ts`), and `claim` here dies.
 */
import { Context, Effect, Layer } from "effect"
import { keepSynced, instant, type KeptInvitation } from "../accounts/SyncedInvitation.ts"
import type { TriageResult } from "../domain/TriageClass.ts"
import { NetworkDriver } from "../network/NetworkDriver.ts"
import type { InboundMessage, SyncedInvitation } from "../network/Sync.ts"
import type { FoundFacts } from "./People.ts"
import {
  pageOf,
  pageStart,
  People,
  type PeopleSearch,
  type PersonFacts,
  personNotFound,
  type PersonRow,
  PersonTouches,
  recordOf,
  searchedProfile,
  searchWords,
  withTimeline,
  workspaceFacts
} from "./People.ts"

/** What the in-memory people know of the other owners the stored people ask. */
export class PeopleSeeds extends Context.Service<PeopleSeeds, {
  /** A new account of the workspace, with its label; its id. */
  readonly account: (workspaceId: string, label: string) => Effect.Effect<string>
  /** A message a person sent the account, as syncing records it; false when it was recorded before. */
  readonly received: (accountId: string, message: InboundMessage, triaged: TriageResult) => Effect.Effect<boolean>
  /**
   * An invitation the account sent, as syncing records it (`external` when new): a status only moves on
   * from pending, and what is known of its acceptance and resolution is kept.
   */
  readonly synced: (accountId: string, invitation: SyncedInvitation) => Effect.Effect<void>
}>()("outreach/PeopleSeeds") {}

interface Stored extends PersonRow {
  readonly workspaceId: string
}

type Received = FoundFacts["received"][number]

/** Latest activity first, then the greater id (as the table's `ORDER BY last_activity_at DESC, id DESC`). */
const latestFirst = (a: PersonRow, b: PersonRow) =>
  Date.parse(b.lastActivityAt) - Date.parse(a.lastActivityAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)

const contains = (text: string | null, part: string) => text !== null && text.toLowerCase().includes(part.toLowerCase())

/** The in-memory `People`, `PersonTouches` and {@link PeopleSeeds}; needs the `NetworkDriver` that reads a `profile` filter. */
export const layer = Layer.effectContext(Effect.gen(function*() {
  const network = yield* NetworkDriver
  const people: Array<Stored> = []
  const accounts = new Map<string, { readonly workspaceId: string; readonly label: string }>()
  const received: Array<Received> = []
  const invitations: Array<KeptInvitation> = []

  const touch = (workspaceId: string, person: PersonFacts, at: string) =>
    Effect.sync(() => {
      const index = people.findIndex((row) => row.workspaceId === workspaceId && row.providerId === person.providerId)
      const known = people[index]
      if (known === undefined && person.profileUrl === null) return undefined
      const now = instant(at)
      const row: Stored = known === undefined
        ? {
          id: crypto.randomUUID(),
          workspaceId,
          providerId: person.providerId,
          profileUrl: person.profileUrl ?? "",
          name: person.name ?? null,
          headline: person.headline ?? null,
          company: person.company ?? null,
          firstSeenAt: now,
          lastActivityAt: now
        }
        : {
          ...known,
          profileUrl: person.profileUrl ?? known.profileUrl,
          name: person.name ?? known.name,
          headline: person.headline ?? known.headline,
          company: person.company ?? known.company,
          firstSeenAt: Date.parse(now) < Date.parse(known.firstSeenAt) ? now : known.firstSeenAt,
          lastActivityAt: Date.parse(now) > Date.parse(known.lastActivityAt) ? now : known.lastActivityAt
        }
      if (known === undefined) people.push(row)
      else people[index] = row
      return row.id
    })

  /** The workspace's facts about these people, as the stored people gather them from their owners. */
  const factsAbout = (workspaceId: string, rows: ReadonlyArray<PersonRow>) => {
    const providerIds = new Set(rows.map((row) => row.providerId))
    return workspaceFacts(workspaceId, rows, {
      jobs: [],
      invitations: invitations.filter((invitation) => providerIds.has(invitation.providerId)),
      received: received.filter((message) => providerIds.has(message.providerId))
    }, accounts)
  }

  const list = Effect.fn("PeopleMemory.list")(function*(workspaceId: string, search: PeopleSearch) {
    const after = yield* pageStart(search)
    const profile = yield* searchedProfile(network, workspaceId, search)
    const words = searchWords(search)
    const rows = people
      .filter((row) =>
        row.workspaceId === workspaceId &&
        words.every((word) => contains([row.name, row.headline, row.company, row.profileUrl].filter((part) => part !== null).join(" "), word)) &&
        (search.company === undefined || contains(row.company, search.company)) &&
        (profile === undefined || row.providerId === profile.providerId) &&
        (after === undefined || latestFirst(row, { ...row, lastActivityAt: after.at, id: after.id }) > 0)
      )
      .sort(latestFirst)
      .slice(0, search.limit + 1)
    const { page, nextCursor } = pageOf(rows, search.limit)
    const facts = factsAbout(workspaceId, page)
    return { people: page.map((row) => recordOf(row, facts)), nextCursor }
  })

  const get = Effect.fn("PeopleMemory.get")(function*(workspaceId: string, id: string) {
    // A uuid, whatever the case of its letters (as the table's uuid column compares).
    const row = people.find((candidate) => candidate.workspaceId === workspaceId && candidate.id === id.toLowerCase())
    if (row === undefined) return yield* Effect.fail(personNotFound(id))
    return withTimeline(row, factsAbout(workspaceId, [row]))
  })

  const account = (workspaceId: string, label: string) =>
    Effect.sync(() => {
      const id = crypto.randomUUID()
      accounts.set(id, { workspaceId, label })
      return id
    })

  const receive = (accountId: string, message: InboundMessage, triaged: TriageResult) =>
    Effect.sync(() => {
      if (received.some((known) => known.accountId === accountId && known.messageId === message.messageId)) return false
      received.push({
        accountId,
        providerId: message.senderProviderId,
        chatId: message.chatId,
        messageId: message.messageId,
        text: message.text,
        sentAt: instant(message.sentAt),
        triageClass: triaged.class,
        suggestedReply: triaged.suggestedReply,
        triageConfidence: triaged.confidence
      })
      return true
    })

  const synced = (accountId: string, invitation: SyncedInvitation) => Effect.sync(() => keepSynced(invitations, accountId, invitation))

  return Context.make(
    People,
    People.of({
      list,
      get,
      claim: () => Effect.die(new Error("People.claim holds the person in the job's transaction: the stored people only"))
    })
  ).pipe(
    Context.add(PersonTouches, PersonTouches.of({ touch })),
    Context.add(PeopleSeeds, PeopleSeeds.of({ account, received: receive, synced }))
  )
}))
