/**
 * The workflow endpoints.
 *
 * @since 1.0.0
 */
import { Effect, Schema } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { acceptedAnswer } from "../api/Idempotent.ts"
import { StartWorkflow, Workflow } from "../api/WorkflowsApi.ts"
import { CurrentPrincipal } from "../domain/Principal.ts"
import { Idempotency } from "../jobs/Idempotency.ts"
import { type WorkflowView, Workflows } from "../workflows/Workflows.ts"
import { idempotent } from "./Idempotent.ts"

/** A workflow in its API form. */
export const workflowRecord = ({ jobs, log, row, steps }: WorkflowView) => ({
  id: row.id,
  accountId: row.accountId,
  automationId: row.automationId,
  person: row.person,
  status: row.status,
  paused: row.paused,
  step: row.step,
  waitingFor: row.waitingFor === null ? null : { what: row.waitingFor, until: row.waitingUntil },
  outcome: row.outcome,
  error: row.error,
  steps,
  jobs,
  log,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  finishedAt: row.finishedAt
})

export const WorkflowsHandlers = HttpApiBuilder.group(
  Api,
  "workflows",
  Effect.fn(function*(handlers) {
    const workflows = yield* Workflows
    const idempotency = yield* Idempotency
    const one = (view: WorkflowView) => ({ ok: true as const, workflow: workflowRecord(view) })
    return handlers
      .handle("start", ({ headers, payload }) =>
        Effect.gen(function*() {
          const { workspaceId } = yield* CurrentPrincipal
          const start = Effect.map(
            workflows.start({ workspaceId, accountId: payload.account, person: payload.person, steps: payload.steps }),
            (view) => ({ status: 202, body: workflowRecord(view) })
          )
          const answer = yield* idempotent(idempotency, {
            workspaceId,
            endpoint: "POST /v1/workflows",
            key: headers["idempotency-key"],
            body: yield* Schema.encodeUnknownEffect(StartWorkflow)(payload).pipe(Effect.orDie)
          }, start)
          const workflow = yield* Schema.decodeUnknownEffect(Workflow)(answer.body).pipe(Effect.orDie)
          return acceptedAnswer({ ok: true as const, workflow }, answer.replayed)
        }))
      .handle("list", ({ query }) =>
        Effect.gen(function*() {
          const { workspaceId } = yield* CurrentPrincipal
          const page = yield* workflows.list(workspaceId, { automationId: query.automation, cursor: query.cursor, limit: query.limit })
          return { ok: true as const, workflows: page.workflows.map(workflowRecord), nextCursor: page.nextCursor }
        }))
      .handle("get", ({ params }) =>
        Effect.gen(function*() {
          const { workspaceId } = yield* CurrentPrincipal
          return one(yield* workflows.get(workspaceId, params.id))
        }))
      .handle("pause", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, ({ workspaceId }) => Effect.map(workflows.pause(workspaceId, params.id), one)))
      .handle("resume", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, ({ workspaceId }) => Effect.map(workflows.resume(workspaceId, params.id), one)))
      .handle("cancel", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, ({ workspaceId }) => Effect.map(workflows.cancel(workspaceId, params.id), one)))
  })
)
