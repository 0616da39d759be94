/**
 * The workflow endpoints.
 *
 * @since 1.0.0
 */
import { Effect, Layer, Schema } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { LIST_LIMIT_DEFAULT } from "../api/JobsApi.ts"
import { acceptedAnswer } from "../api/Idempotent.ts"
import { StartWorkflow, Workflow } from "../api/WorkflowsApi.ts"
import { actorOf, CurrentPrincipal } from "../domain/Principal.ts"
import { Idempotency } from "../jobs/Idempotency.ts"
import { stepAt } from "../domain/Workflow.ts"
import { type WorkflowView, Workflows } from "../workflows/Workflows.ts"
import type { WorkflowWaitReason } from "../domain/Workflow.ts"
import { idempotent } from "./Idempotent.ts"
import * as HandlerGroup from "./HandlerGroup.ts"
import * as WorkflowActivity from "./WorkflowActivity.ts"

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

export const WorkflowsHandlers = Layer.unwrap(Effect.gen(function*() {
  const workflows = yield* Workflows
  const start = yield* starter
  const recorded = yield* WorkflowActivity.make
  const one = (view: WorkflowView) => ({ ok: true as const, workflow: workflowRecord(view) })
  return HandlerGroup.onMiddlewares(HttpApiBuilder.group(Api, "workflows", (handlers) =>
    handlers
      .handle("start", ({ headers, payload }) =>
        Effect.gen(function*() {
          const { workspaceId } = yield* CurrentPrincipal
          const answer = yield* start(workspaceId, payload, headers["idempotency-key"])
          return acceptedAnswer({ ok: true as const, workflow: answer.workflow }, answer.replayed)
        }))
      .handle("list", ({ query }) =>
        Effect.gen(function*() {
          const { workspaceId } = yield* CurrentPrincipal
          const page = yield* workflows.list(workspaceId, { automationId: query.automation, cursor: query.cursor, limit: query.limit ?? LIST_LIMIT_DEFAULT })
          return { ok: true as const, workflows: page.workflows.map(workflowRecord), nextCursor: page.nextCursor }
        }))
      .handle("get", ({ params }) =>
        Effect.gen(function*() {
          const { workspaceId } = yield* CurrentPrincipal
          return one(yield* workflows.get(workspaceId, params.id))
        }))
      .handle("pause", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => Effect.map(recorded.pauseWorkflow(principal.workspaceId, params.id, actorOf(principal)), one)))
      .handle("resume", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => Effect.map(recorded.resumeWorkflow(principal.workspaceId, params.id, actorOf(principal)), one)))
      .handle("cancel", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => Effect.map(recorded.stopWorkflow(principal.workspaceId, params.id, actorOf(principal)), one)))
  ))
}))
