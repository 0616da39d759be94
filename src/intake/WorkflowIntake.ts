/**
 * Starting a workflow and its API form, for every door it comes in by (REST's
 * `POST /v1/workflows`, an assistant's `start_workflow`).
 */
import { Effect, Schema } from "effect"
import { StartWorkflow, Workflow } from "../domain/WorkflowRecord.ts"
import { Idempotency } from "../idempotency/Idempotency.ts"
import { stepAt } from "../domain/Workflow.ts"
import { type WorkflowView, Workflows } from "../workflows/Workflows.ts"
import type { WorkflowWaitReason } from "../domain/Workflow.ts"
import { idempotent } from "./IdempotentStart.ts"

// Rows from before `waiting_reason` (migrations/0131) say it only in words.
const reasonFromWords = (what: string): WorkflowWaitReason =>
  what.startsWith("job ") ? "job" : what.startsWith("resume") ? "resume" : / s to pass/.test(what) ? "delay" : "condition"

/** A workflow in its API form. */
export const workflowRecord = ({ jobs, log, row, steps }: WorkflowView) => ({
  id: row.id,
  accountId: row.accountId,
  automationId: row.automationId,
  person: row.person,
  status: row.status,
  paused: row.paused,
  step: row.step,
  // The step's text starts with its path: `2.then.0: send_message`.
  stepAt: row.step === null ? null : stepAt(steps, row.step.split(": ")[0]) ?? null,
  waitingFor: row.waitingFor === null ? null : {
    reason: row.waitingReason ?? reasonFromWords(row.waitingFor),
    what: row.waitingFor,
    until: row.waitingUntil
  },
  outcome: row.outcome,
  error: row.error,
  steps,
  jobs,
  log,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  finishedAt: row.finishedAt
})

/**
 * Starts a workflow under its optional Idempotency-Key (for REST and assistants alike); needs
 * `Workflows` and `Idempotency`.
 */
export const starter = Effect.gen(function*() {
  const workflows = yield* Workflows
  const idempotency = yield* Idempotency
  return Effect.fn("Workflows.startRequest")(function*(workspaceId: string, payload: typeof StartWorkflow.Type, key: string | undefined) {
    const start = Effect.map(
      workflows.start({ workspaceId, accountId: payload.account, person: payload.person, steps: payload.steps }),
      (view) => ({ status: 202, body: workflowRecord(view) })
    )
    const answer = yield* idempotent(idempotency, {
      workspaceId,
      endpoint: "POST /v1/workflows",
      key,
      body: yield* Schema.encodeUnknownEffect(StartWorkflow)(payload).pipe(Effect.orDie)
    }, start)
    const workflow = yield* Schema.decodeUnknownEffect(Workflow)(answer.body).pipe(Effect.orDie)
    return { replayed: answer.replayed, workflow }
  })
})
