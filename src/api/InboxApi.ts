/**
 * What syncing recorded for an account: the invitations it sent.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Ok, Uuid } from "./Envelope.ts"
import { type IntegerRange, integerQuery } from "./JobsApi.ts"
import { NotFound } from "./Errors.ts"
import { allowedTo, Authentication } from "./Security.ts"
import { Brief, HealthReport, Invitation, INVITATION_LIST_MAX, InvitationFilter } from "../domain/InboxRecords.ts"
export { Brief, HealthReport, Invitation } from "../domain/InboxRecords.ts"

/** The filter of `GET /v1/accounts/{id}/invitations` (and of the assistants' `list_invitations`). */
export const invitationQuery = { status: Schema.optionalKey(InvitationFilter) }

/** The look-back of `GET /v1/accounts/{id}/brief` (and of the assistants' `get_brief`). */
export const briefHoursRange: IntegerRange = {
  minimum: 1,
  maximum: 168,
  description: "Look-back for replies, 1 to 168 hours (default 24)",
  example: 24
}

/** The look-back of `GET /v1/accounts/{id}/brief`. */
export const briefQuery = { hours: Schema.optionalKey(integerQuery(briefHoursRange)) }

export class InboxApi extends HttpApiGroup.make("inbox")
  .add(
    HttpApiEndpoint.get("invitations", "/v1/accounts/:id/invitations", {
      params: { id: Uuid },
      query: invitationQuery,
      success: Ok({ invitations: Schema.Array(Invitation) }),
      error: NotFound
    }).annotateMerge(allowedTo("read")).annotateMerge(OpenApi.annotations({
      summary: "Invitations the account sent",
      description:
        `As the service recorded them, newest first (by \`sentAt\`), up to ${INVITATION_LIST_MAX}: those its \`connect\` jobs sent (\`svc\`, from the moment the job completes) and those syncing found (\`external\`); syncing brings every change of status, every 10 minutes inside the account's working hours. An accepted one also emitted \`invitation.accepted\`; pending ones older than the account's \`autoWithdrawDays\` are withdrawn by the service.`
    })),
    HttpApiEndpoint.get("brief", "/v1/accounts/:id/brief", {
      params: { id: Uuid },
      query: briefQuery,
      success: Ok({ brief: Brief }),
      error: NotFound
    }).annotateMerge(allowedTo("read")).annotateMerge(OpenApi.annotations({
      summary: "Daily brief",
      description: "What needs a person today: replies in priority order with suggested answers, new connections to write to, the queue, approvals, budgets and a one-line headline."
    })),
    HttpApiEndpoint.get("healthReport", "/v1/accounts/:id/health-report", {
      params: { id: Uuid },
      success: Ok({ report: HealthReport }),
      error: NotFound
    }).annotateMerge(allowedTo("read")).annotateMerge(OpenApi.annotations({
      summary: "Health report",
      description: "Network size, stale invitations with a proposed cleanup, SSI (Sales Navigator), warm-up progress and recommendations that follow from the numbers."
    }))
  )
  .middleware(Authentication)
  .annotateMerge(OpenApi.annotations({ title: "Inbox" }))
{}
