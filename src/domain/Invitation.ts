/**
 * An invitation the account sent: its statuses and where the service learnt
 * of it (spec: Invitation record). One place for each list.
 */
import { Schema } from "effect"

/** Every status of a sent invitation (spec: Invitation). */
export const invitationStatuses = ["pending", "accepted", "withdrawn", "declined", "unknown"] as const
export const InvitationStatus = Schema.Literals(invitationStatuses)
export type InvitationStatus = typeof InvitationStatus.Type

/**
 * `svc`: sent through the service (a `connect` job); `external`: sent
 * elsewhere (on the network itself), known only because syncing found it.
 */
export const InvitationSource = Schema.Literals(["svc", "external"]).annotate({
  description: "`svc`: sent through the service (a `connect` job); `external`: sent elsewhere, found by syncing"
})
export type InvitationSource = typeof InvitationSource.Type
