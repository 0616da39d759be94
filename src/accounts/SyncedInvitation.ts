/**
 * What the in-memory fakes keep of an invitation a sync reported, by the rule the stored
 * `Invitations.recordSynced` writes in SQL: a new one is `external`; a status only moves on from
 * pending; what is known of its acceptance and resolution is kept. The in-memory people
 * (`people/PeopleMemory.ts`) and inbox (`inbox/InboxMemory.ts`) both keep theirs by it.
 */
import * as Time from "../domain/Time.ts"
import type { SyncedInvitation } from "../network/Sync.ts"
import type { InvitationTo } from "./Invitations.ts"

/** An invitation as the fakes keep it (the stored one's `InvitationTo` row). */
export type KeptInvitation = typeof InvitationTo.Type

/** An instant as the table gives it back (a `timestamptz` read as ISO, to the millisecond). */
export const instant = (iso: string) => Time.toIso(Date.parse(iso))

/** The invitation after a sync reported `invitation`, from what was `known` of it (undefined: not recorded yet). */
export const afterSync = (known: KeptInvitation | undefined, accountId: string, invitation: SyncedInvitation): KeptInvitation => {
  const acceptedAt = invitation.acceptedAt === null ? null : instant(invitation.acceptedAt)
  const resolvedAt = invitation.resolvedAt === null ? null : instant(invitation.resolvedAt)
  return known === undefined
    ? {
      accountId,
      providerId: invitation.providerId,
      invitationId: invitation.invitationId,
      status: invitation.status,
      source: "external",
      note: invitation.note,
      sentAt: instant(invitation.sentAt),
      acceptedAt,
      resolvedAt
    }
    : {
      ...known,
      status: invitation.status === "pending" ? known.status : invitation.status,
      acceptedAt: acceptedAt ?? known.acceptedAt,
      resolvedAt: resolvedAt ?? known.resolvedAt
    }
}

/** Records in `kept` (one per account and invitation) what a sync reported of `invitation`. */
export const keepSynced = (kept: Array<KeptInvitation>, accountId: string, invitation: SyncedInvitation): void => {
  const index = kept.findIndex((known) => known.accountId === accountId && known.invitationId === invitation.invitationId)
  const after = afterSync(kept[index], accountId, invitation)
  if (index === -1) kept.push(after)
  else kept[index] = after
}
