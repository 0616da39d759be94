/**
 * The one durable workflow type: it runs the steps of the workflow record
 * `workflowId` (see `Run.ts`). Its execution id follows from the record's id,
 * so starting it twice starts it once.
 */
import { Schema } from "effect"
import { Workflow } from "effect/workflow"

export const OutreachWorkflow = Workflow.make("outreach/Workflow", {
  payload: { workflowId: Schema.String },
  idempotencyKey: ({ workflowId }) => workflowId
})
