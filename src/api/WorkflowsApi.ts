/**
 * Workflows: a tree of steps about one person, run for one account as one
 * durable unit (decisions in docs/people-and-workflows.md).
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Ok, Uuid } from "./Envelope.ts"
import { BadRequest, Conflict, NotFound, Unprocessable } from "./Errors.ts"
import { accepted, idempotencyHeaders } from "./Idempotent.ts"
import { Cursor, ListLimit } from "./JobsApi.ts"
import { allowedTo, Authentication } from "./Security.ts"
import { StartWorkflow, Workflow } from "../domain/WorkflowRecord.ts"
export { StartWorkflow, Workflow } from "../domain/WorkflowRecord.ts"

const workflowId = { id: Uuid.annotate({ description: "The workflow's id" }) }
const OneWorkflow = Ok({ workflow: Workflow })

const change = (name: "pause" | "resume" | "cancel", summary: string, description: string) =>
  HttpApiEndpoint.post(name, `/v1/workflows/:id/${name}`, {
    params: workflowId,
    success: OneWorkflow,
    error: [NotFound, Conflict]
  }).annotateMerge(allowedTo("startWorkflows")).annotateMerge(OpenApi.annotations({ summary, description }))

/** The filters of `GET /v1/workflows` (and of the assistants' `list_workflows`). */
export const workflowListQuery = {
  automation: Schema.optionalKey(Uuid.annotate({ description: "Only the runs of this automation", examples: ["3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a98"] })),
  cursor: Schema.optionalKey(Cursor),
  limit: ListLimit
}

export class WorkflowsApi extends HttpApiGroup.make("workflows")
  .add(
    HttpApiEndpoint.post("start", "/v1/workflows", {
      headers: idempotencyHeaders,
      payload: StartWorkflow,
      success: accepted({ workflow: Workflow }, "Accepted: the workflow, to follow with `GET /v1/workflows/{id}`"),
      error: [BadRequest, NotFound, Conflict, Unprocessable]
    }).annotateMerge(allowedTo("startWorkflows")).annotateMerge(OpenApi.annotations({
      summary: "Start a workflow",
      description: [
        "A tree of steps about one person, run for one account as one durable unit: `command` (a job through the Governor: the account's mode, approvals, budgets, working hours, pacing and guardrails apply as to any job), `wait` (a fixed pause), `waitFor` (until a condition holds, `then`, or the time limit passes, `else`) and `if` (a branch now).",
        "Conditions: `accepted` (the invitation to the person was accepted, as syncing recorded it), `replied` (optionally of some triage classes), `elapsed`.",
        "A command step's input is the command's own; `person` defaults to the workflow's person. Every input is checked before anything runs: a bad one answers 400 naming `body.steps[i].input.<field>`.",
        "A job that fails ends the workflow as `failed` with that job's error. The workflow survives restarts: it resumes where it stopped and never creates a step's job twice.",
        "Answers 202 with the workflow; follow it with GET /v1/workflows/{id}, and its jobs' events by webhook. With an `Idempotency-Key`, a repeat with the same body answers the first workflow again (`idempotent-replayed: true`) and starts nothing."
      ].join("\n")
    })),
    HttpApiEndpoint.get("list", "/v1/workflows", {
      query: workflowListQuery,
      success: Ok({
        workflows: Schema.Array(Workflow).annotate({ description: "Newest first" }),
        nextCursor: Schema.NullOr(Schema.String).annotate({ description: "Pass as `cursor` for the next page; null on the last page" })
      }),
      error: Unprocessable
    }).annotateMerge(allowedTo("read")).annotateMerge(OpenApi.annotations({ summary: "List workflows", description: "Newest first, paged with `cursor` and `limit`." })),
    HttpApiEndpoint.get("get", "/v1/workflows/:id", {
      params: workflowId,
      success: OneWorkflow,
      error: NotFound
    }).annotateMerge(allowedTo("read")).annotateMerge(OpenApi.annotations({
      summary: "Get a workflow",
      description: "Its status, the step under way, what it waits for and until when, its jobs and its log."
    })),
    change("pause", "Pause a workflow", "The next command step waits until the workflow is resumed; waits already under way go on. 409 once it has ended."),
    change("resume", "Resume a workflow", "A paused workflow goes on with its next command step. 409 once it has ended."),
    change(
      "cancel",
      "Cancel a workflow",
      "It runs no further step, and its jobs that have not started are cancelled (job.failed for each). 409 once it has ended."
    )
  )
  .middleware(Authentication)
  .annotateMerge(OpenApi.annotations({ title: "Workflows" }))
{}
