/**
 * `Inbox` in memory, for fast tests of the invitations route without a database: the stored
 * inbox's rules for one process. An account of another workspace, or none, is not found
 * (`accountNotFound`); the list is the account's invitations of one status (or all), newest first
 * by `sentAt` then by id, up to `INVITATION_LIST_MAX`, as `Invitations.listOf` reads them.
 *
 * What the list shows comes from elsewhere in the stored service (accounts connecting, syncing,
 * `connect` jobs ending); here it enters through {@link InboxSeeds}: the workspace's accounts,
 * invitations as syncing records them (by the stored rule, `accounts/SyncedInvitation.ts`), and
 * invitations as a `connect` job's ending records them (`Invitations.recordSent`: `svc`, with the
 * person's name). The in-memory reports and messages read them as the stored ones read the
 * `Invitations` (the new connections, the names of the people written to).
 * Syncing itself (`syncAccount`, `syncDue`: the network, the Governor's budgets, the outbox, in
 * one transaction) needs the database: it is tested there (`test/inbox/Inbox.test.ts`), and here
 * it dies.
 */
import { Context, Effect, Layer } from "effect"
import { accountNotFound } from "../accounts/Accounts.ts"
import type { AcceptedRow, Invitations } from "../accounts/Invitations.ts"
import { instant, keepSynced, type KeptInvitation } from "../accounts/SyncedInvitation.ts"
import type { InvitationSent } from "../domain/CommandResults.ts"
import { INVITATION_LIST_MAX } from "../domain/InboxRecords.ts"
import type { SyncedInvitation } from "../network/Sync.ts"
import { InvitationNamesMemory } from "../people/MessagesMemory.ts"
import { Inbox } from "./Inbox.ts"

/** What the in-memory inbox knows of the other owners the stored inbox asks. */
export class InboxSeeds extends Context.Service<InboxSeeds, {
  /** A new account of the workspace; its id. */
  readonly account: (workspaceId: string) => Effect.Effect<string>
  /** An invitation the account sent, as syncing records it. */
  readonly synced: (accountId: string, invitation: SyncedInvitation) => Effect.Effect<void>
  /** The invitation a completed `connect` of the account sent, as its ending records it. */
  readonly sent: (accountId: string, sent: InvitationSent) => Effect.Effect<void>
}>()("outreach/InboxSeeds") {}

/** The in-memory inbox's invitations as the in-memory reports read them (as `Invitations` answers the stored ones). */
export class InboxInvitationsMemory extends Context.Service<InboxInvitationsMemory, {
  /** The account's pending invitations, with when each was sent (epoch ms). */
  readonly pendingSentAt: (accountId: string) => Effect.Effect<ReadonlyArray<{ readonly sentAtMs: number }>>
  /** How many invitations the account sent since `sinceIso`, and how many of them were accepted. */
  readonly acceptanceSince: (accountId: string, sinceIso: string) => Effect.Effect<{ readonly sent: number; readonly accepted: number }>
  /** The account's accepted invitations, the latest accepted first, a page at a time (as `Invitations.acceptedOf`). */
  readonly acceptedOf: Invitations["Service"]["acceptedOf"]
}>()("outreach/InboxInvitationsMemory") {}

/** Newest first, then the smaller id (as the table's `ORDER BY sent_at DESC, id`). */
const newestFirst = (a: KeptInvitation, b: KeptInvitation) =>
  Date.parse(b.sentAt) - Date.parse(a.sentAt) || (a.invitationId < b.invitationId ? -1 : a.invitationId > b.invitationId ? 1 : 0)

/** The latest accepted first, then the greater id (as the table's `ORDER BY accepted_at DESC, id DESC`). */
const latestAcceptedFirst = (a: AcceptedRow, b: AcceptedRow) =>
  Date.parse(b.acceptedAt) - Date.parse(a.acceptedAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)

const syncing = () => Effect.die(new Error("Syncing records through the network, budgets and outbox in one transaction: the stored inbox only"))

/**
 * The in-memory `Inbox`, {@link InboxSeeds}, {@link InboxInvitationsMemory} and the names its invitations
 * recorded for the in-memory messages (`InvitationNamesMemory`); needs nothing.
 */
export const layer = Layer.effectContext(Effect.sync(() => {
  const accounts = new Map<string, string>()
  const invitations: Array<KeptInvitation> = []
  /** The person's name a `connect` recorded, by account and invitation. */
  const names = new Map<string, string>()
  const nameKey = (accountId: string, invitationId: string) => `${accountId} ${invitationId}`

  const list = Effect.fn("InboxMemory.invitations")(function*(workspaceId: string, accountId: string, status: string) {
    // A uuid, whatever the case of its letters (as the table's uuid column compares).
    const id = accountId.toLowerCase()
    if (accounts.get(id) !== workspaceId) return yield* Effect.fail(accountNotFound(accountId))
    return invitations
      .filter((kept) => kept.accountId === id && (status === "all" || kept.status === status))
      .toSorted(newestFirst)
      .slice(0, INVITATION_LIST_MAX)
      .map((kept) => ({
        id: kept.invitationId,
        providerId: kept.providerId,
        note: kept.note,
        status: kept.status,
        source: kept.source,
        sentAt: kept.sentAt,
        resolvedAt: kept.resolvedAt
      }))
  })

  const account = (workspaceId: string) =>
    Effect.sync(() => {
      const id = crypto.randomUUID()
      accounts.set(id, workspaceId)
      return id
    })

  const synced = (accountId: string, invitation: SyncedInvitation) => Effect.sync(() => keepSynced(invitations, accountId, invitation))

  // As `Invitations.recordSent`: a new one is pending; one recorded before becomes `svc`, with the note sent.
  const sent = (accountId: string, invitation: InvitationSent) =>
    Effect.sync(() => {
      const account = accountId.toLowerCase()
      const index = invitations.findIndex((kept) => kept.accountId === account && kept.invitationId === invitation.invitationId)
      const known = invitations[index]
      names.set(nameKey(account, invitation.invitationId), invitation.person.name)
      if (known !== undefined) {
        invitations[index] = { ...known, source: "svc", note: invitation.note }
        return
      }
      invitations.push({
        accountId: account,
        providerId: invitation.person.providerId,
        invitationId: invitation.invitationId,
        status: "pending",
        source: "svc",
        note: invitation.note,
        sentAt: instant(invitation.sentAt),
        acceptedAt: null,
        resolvedAt: null
      })
    })

  const ofAccount = (accountId: string) => invitations.filter((kept) => kept.accountId === accountId.toLowerCase())
  const nameOf = (kept: KeptInvitation) => names.get(nameKey(kept.accountId, kept.invitationId)) ?? null

  const acceptedOf = (accountId: string, limit: number, before?: AcceptedRow) =>
    Effect.sync(() =>
      ofAccount(accountId)
        .flatMap((kept): Array<AcceptedRow> =>
          kept.status === "accepted" && kept.acceptedAt !== null
            ? [{ id: kept.invitationId, providerId: kept.providerId, name: nameOf(kept), note: kept.note, acceptedAt: kept.acceptedAt }]
            : []
        )
        .filter((row) => before === undefined || latestAcceptedFirst(before, row) < 0)
        .toSorted(latestAcceptedFirst)
        .slice(0, limit)
    )

  // As `Invitations.namesOf`: each person's name from the latest invitation sent them that recorded one.
  const namesOf = (accountId: string, providerIds: ReadonlyArray<string>) =>
    Effect.sync(() => {
      const found = new Map<string, string>()
      const named = ofAccount(accountId)
        .filter((kept) => providerIds.includes(kept.providerId) && nameOf(kept) !== null)
        .toSorted((a, b) => Date.parse(b.sentAt) - Date.parse(a.sentAt))
      for (const kept of named) {
        const name = nameOf(kept)
        if (name !== null && !found.has(kept.providerId)) found.set(kept.providerId, name)
      }
      return found
    })

  const pendingSentAt = (accountId: string) =>
    Effect.sync(() => ofAccount(accountId).filter((kept) => kept.status === "pending").map((kept) => ({ sentAtMs: Date.parse(kept.sentAt) })))

  const acceptanceSince = (accountId: string, sinceIso: string) =>
    Effect.sync(() => {
      const sent = ofAccount(accountId).filter((kept) => Date.parse(kept.sentAt) >= Date.parse(sinceIso))
      return { sent: sent.length, accepted: sent.filter((kept) => kept.status === "accepted").length }
    })

  return Context.make(Inbox, Inbox.of({ syncAccount: syncing, syncDue: Effect.suspend(syncing), invitations: list })).pipe(
    Context.add(InboxSeeds, InboxSeeds.of({ account, synced, sent })),
    Context.add(InboxInvitationsMemory, InboxInvitationsMemory.of({ pendingSentAt, acceptanceSince, acceptedOf })),
    Context.add(InvitationNamesMemory, InvitationNamesMemory.of({ namesOf }))
  )
}))
