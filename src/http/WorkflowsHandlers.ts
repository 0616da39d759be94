/**
 * The workflow endpoints.
 */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { LIST_LIMIT_DEFAULT } from "../api/JobsApi.ts"
import { acceptedAnswer } from "../api/Idempotent.ts"
import { actorOf, CurrentPrincipal } from "../domain/Principal.ts"
import { type WorkflowView, Workflows } from "../workflows/Workflows.ts"
import { starter, workflowRecord } from "../intake/WorkflowIntake.ts"
import * as HandlerGroup from "./HandlerGroup.ts"
import { spoken, spokenFn } from "./ServiceErrors.ts"
import * as WorkflowActivity from "../intake/WorkflowActivity.ts"

export const WorkflowsHandlers = Layer.unwrap(Effect.gen(function*() {
  const workflows = spoken(yield* Workflows)
  const start = spokenFn(yield* starter)
  const recorded = spoken(yield* WorkflowActivity.make)
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
