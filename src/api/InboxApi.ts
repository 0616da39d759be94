/**
 * What syncing recorded for an account: the invitations it sent.
 *
 * @since 1.0.0
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { DateTimeString, Ok, Uuid } from "./Envelope.ts"
import { NotFound } from "./Errors.ts"
import { Authentication } from "./Security.ts"

/** An invitation's status (spec, Invitation). */
export const invitationStatuses = ["pending", "accepted", "withdrawn", "declined", "unknown"] as const

/** An invitation the account sent, as syncing recorded it (spec, Invitation record). */
export const Invitation = Schema.Struct({
  id: Schema.String.annotate({ description: "The invitation's id on the network (what `withdraw_invite` takes)" }),
  providerId: Schema.String.annotate({ description: "The invitee's identifier on the network" }),
  note: Schema.NullOr(Schema.String).annotate({ description: "The note sent with it, null when none" }),
  status: Schema.Literals(invitationStatuses),
  source: Schema.Literals(["svc", "external"]).annotate({
    description: "`svc`: sent through the service (a `connect` job); `external`: found only by syncing"
  }),
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

export class InboxApi extends HttpApiGroup.make("inbox")
  .add(
    HttpApiEndpoint.get("invitations", "/v1/accounts/:id/invitations", {
      params: { id: Uuid },
      query: { status: Schema.optionalKey(InvitationFilter) },
      success: Ok({ invitations: Schema.Array(Invitation) }),
      error: NotFound
    }).annotateMerge(OpenApi.annotations({
      summary: "Invitations the account sent",
      description:
        `As syncing recorded them (every 10 minutes inside the account's working hours), newest first, up to ${INVITATION_LIST_MAX}. An accepted one also emitted \`invitation.accepted\`.`
    }))
  )
  .middleware(Authentication)
  .annotateMerge(OpenApi.annotations({ title: "Inbox" }))
{}
