/**
 * Approvals: the writes waiting for a person in `assist` and `approve` mode,
 * showing the account, the target and the exact text;
 * `GET /v1/approvals`, `POST /v1/approvals/{id}/approve` (optionally with the
 * text to send instead) and `POST /v1/approvals/{id}/reject` (optionally with
 * a reason).
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { writeCommands } from "../domain/Commands.ts"
import { MESSAGE_MAX, NonBlankText } from "../domain/CommandInputs.ts"
import { ApprovalStatus } from "../domain/Job.ts"
import { DateTimeString, Ok, Uuid } from "./Envelope.ts"
import { ApprovalExpired, Conflict, NotAllowed, NotFound, Unprocessable } from "./Errors.ts"
import { Cursor, Job, ListLimit } from "./JobsApi.ts"
import { allowedTo, Authentication } from "./Security.ts"
import { Text } from "../domain/Text.ts"

/** The longest reason a rejection can carry. */
export const REASON_MAX = 500

const approvalExample = {
  id: "c4d5e6f7-a8b9-4c0d-9e1f-2a3b4c5d6e7f",
  accountId: "0b7c6a1e-3f4d-4e2a-9b8c-7d6e5f4a3b2c",
  jobId: "9a7e4c2b-1d3f-4e5a-8b6c-0d1e2f3a4b5c",
  kind: "connect",
  status: "pending",
  target: "https://www.linkedin.com/in/maria-garcia-3a9f02c1b",
  text: "Hi María, enjoyed your post on pipeline reviews. Would be glad to connect.",
  reason: null,
  createdAt: "2026-11-23T08:55:00.000Z",
  expiresAt: "2026-11-26T08:55:00.000Z",
  decidedAt: null
} as const

/** A write waiting for (or past) a person's decision. */
export const Approval = Schema.Struct({
  id: Uuid.annotate({ description: "The approval's id" }),
  accountId: Uuid.annotate({ description: "The account (seat) the write would go out from" }),
  jobId: Uuid.annotate({ description: "The job of the write; it waits in `awaiting_approval` until the decision" }),
  kind: Schema.Literals(writeCommands).annotate({ description: "The write command" }),
  status: ApprovalStatus.annotate({
    description: [
      "- `pending`: waiting for a decision, at most 72 hours;",
      "- `approved`: a person approved it; the write goes through the Governor (working hours, budgets, pacing);",
      "- `rejected`: a person rejected it, or its job was cancelled; the job failed with `approvalRejected` (or `cancelled`);",
      "- `expired`: nobody decided within 72 hours; the job failed with `approvalExpired` and the write must be created again."
    ].join("\n")
  }),
  target: Schema.NullOr(Schema.String).annotate({
    description: "The person, chat, post or invitation the write is aimed at, as given in its input; null when it has none (a new post)"
  }),
  text: Schema.NullOr(Schema.String).annotate({
    description: "The exact text that will be sent (the edited text once approved with `text`); null when the write sends none"
  }),
  reason: Schema.NullOr(Schema.String).annotate({ description: "Why it was rejected, when a reason was given; null otherwise" }),
  createdAt: DateTimeString.annotate({ description: "When the write asked for approval" }),
  expiresAt: DateTimeString.annotate({ description: "72 hours after `createdAt`: after this it cannot be approved" }),
  decidedAt: Schema.NullOr(DateTimeString).annotate({
    description: "When it was approved, rejected or expired; null while pending"
  })
}).annotate({
  identifier: "Approval",
  description: "A pending write showing the account, the target and the exact text. It expires after 72 hours.",
  examples: [
    approvalExample,
    {
      ...approvalExample,
      status: "rejected",
      reason: "Wrong person: she moved to another company.",
      decidedAt: "2026-11-23T10:02:00.000Z"
    }
  ]
})
export type Approval = typeof Approval.Type

/** Decodes an approval in its JSON form into an {@link Approval} (the kind is checked to be a write). */
export const decodeApproval = Schema.decodeUnknownEffect(Approval)

const ApproveBody = Schema.Struct({
  text: Schema.optionalKey(
    NonBlankText(MESSAGE_MAX, `The text to send instead, 1 to ${MESSAGE_MAX} characters; it must also fit the command (a connect note at most 300)`)
      .annotate({ examples: ["Hi María, loved your pipeline-review post. Would be glad to connect."] })
  )
}).annotate({
  identifier: "ApproveBody",
  description: "Optional: an empty body (or `{}`) approves the write as it is",
  examples: [{}, { text: "Hi María, loved your pipeline-review post. Would be glad to connect." }]
})

const RejectBody = Schema.Struct({
  reason: Schema.optionalKey(
    Text.check(Schema.isMaxLength(REASON_MAX)).annotate({
      description: `Why, at most ${REASON_MAX} characters; shown in the approval and in the job's error`,
      examples: ["Wrong person: she moved to another company."]
    })
  )
}).annotate({
  identifier: "RejectBody",
  description: "Optional: an empty body (or `{}`) rejects without a reason",
  examples: [{}, { reason: "Wrong person: she moved to another company." }]
})

/**
 * A body that may be left out. HttpApi decodes an empty body as `null` only
 * when one of the payload schemas is null in its JSON form (a union that
 * admits null is not enough), so `Undefined` is listed as a payload of its
 * own: its JSON form is null, and the handler sees `undefined`.
 */
const optionalBody = <S extends Schema.Top>(schema: S) => [schema, Schema.Undefined] as const

/** OpenAPI: HttpApi marks every declared body as required; these may be left out. */
const bodyNotRequired = (operation: Record<string, unknown>): Record<string, unknown> => {
  const body = operation["requestBody"]
  return typeof body === "object" && body !== null ? { ...operation, requestBody: { ...body, required: false } } : operation
}

const Decision = Ok({
  approval: Approval,
  // A key annotation: annotating the schema itself would make a second `Job` component.
  job: Job.annotateKey({ description: "The job of the write, after the decision" })
})

const approvalId = { id: Uuid.annotate({ description: "The approval's id" }) }

const ApprovalPage = Ok({
  approvals: Schema.Array(Approval).annotate({ description: "Newest first" }),
  nextCursor: Schema.NullOr(Schema.String).annotate({ description: "Pass as `cursor` for the next page; null on the last page" })
}).annotate({ examples: [{ ok: true, approvals: [approvalExample], nextCursor: null }] })

/** Approvals: list the writes waiting for a person, approve (optionally with new text) or reject them. */
/** The filters of `GET /v1/approvals` (and of the assistants' `list_approvals`). */
/** The approvals a list shows when it names no status. */
export const APPROVAL_STATUS_DEFAULT = "pending"

export const approvalListQuery = {
  status: Schema.optionalKey(ApprovalStatus.annotate({ description: "Only approvals in this status (default `pending`)" })),
  account: Schema.optionalKey(Uuid.annotate({ description: "Only this account's approvals", examples: ["0b7c6a1e-3f4d-4e2a-9b8c-7d6e5f4a3b2c"] })),
  cursor: Schema.optionalKey(Cursor),
  limit: ListLimit
}

export class ApprovalsApi extends HttpApiGroup.make("approvals")
  .add(
    HttpApiEndpoint.get("list", "/v1/approvals", {
      query: approvalListQuery,
      success: ApprovalPage,
      error: Unprocessable
    }).annotateMerge(allowedTo("read")).annotateMerge(OpenApi.annotations({
      summary: "List approvals",
      description:
        "The writes waiting for a person (by default only `pending` ones), oldest first (the next to expire first), with the account, the target and the exact text. A pending approval expires 72 hours after it was requested. API keys, people and assistants may all list."
    })),
    HttpApiEndpoint.post("approve", "/v1/approvals/:id/approve", {
      params: approvalId,
      payload: optionalBody(ApproveBody),
      success: Decision,
      error: [NotFound, Conflict, ApprovalExpired, Unprocessable, NotAllowed]
    }).annotateMerge(allowedTo("decideApprovals")).annotateMerge(OpenApi.annotations({
      summary: "Approve a write",
      description: [
        "Within 72 hours of the request. The body is optional; `text` replaces the text that will be sent (it must fit the command: 422 `unprocessable` otherwise, or when the write sends no text).",
        "The write then goes through the Governor: working hours, budgets and pacing still apply.",
        "409 `conflict`: already decided. 422 `approvalExpired`: past its 72 hours; create the write again.",
        "403 `notAllowed`: only a person or an API key may decide; an assistant may only list."
      ].join("\n"),
      transform: bodyNotRequired
    })),
    HttpApiEndpoint.post("reject", "/v1/approvals/:id/reject", {
      params: approvalId,
      payload: optionalBody(RejectBody),
      success: Decision,
      error: [NotFound, Conflict, ApprovalExpired, NotAllowed]
    }).annotateMerge(allowedTo("decideApprovals")).annotateMerge(OpenApi.annotations({
      summary: "Reject a write",
      description: [
        "The body is optional; `reason` says why. The job fails with `approvalRejected` and `job.failed` is emitted.",
        "409 `conflict`: already decided. 422 `approvalExpired`: past its 72 hours (it already failed).",
        "403 `notAllowed`: only a person or an API key may decide; an assistant may only list."
      ].join("\n"),
      transform: bodyNotRequired
    }))
  )
  .middleware(Authentication)
  .annotateMerge(OpenApi.annotations({ title: "Approvals" }))
{}
