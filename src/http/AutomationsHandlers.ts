/**
 * The automation endpoints.
 */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { acceptedAnswer } from "../api/Idempotent.ts"
import { actorOf, CurrentPrincipal } from "../domain/Principal.ts"
import { type AutomationView, Automations } from "../workflows/Automations.ts"
import { automationRecord, starter } from "../intake/AutomationIntake.ts"
import * as HandlerGroup from "./HandlerGroup.ts"
import { spoken, spokenFn } from "./ServiceErrors.ts"
import * as WorkflowActivity from "../intake/WorkflowActivity.ts"

export const AutomationsHandlers = Layer.unwrap(Effect.gen(function*() {
  const automations = spoken(yield* Automations)
  const start = spokenFn(yield* starter)
  const recorded = spoken(yield* WorkflowActivity.make)
  const one = (view: AutomationView) => ({ ok: true as const, automation: automationRecord(view) })
  return HandlerGroup.onMiddlewares(HttpApiBuilder.group(Api, "automations", (handlers) =>
    handlers
      .handle("start", ({ headers, payload }) =>
        Effect.gen(function*() {
          const { workspaceId } = yield* CurrentPrincipal
          const answer = yield* start(workspaceId, payload, headers["idempotency-key"])
          return acceptedAnswer({ ok: true as const, automation: answer.automation }, answer.replayed)
        }))
      .handle("list", () =>
        Effect.gen(function*() {
          const { workspaceId } = yield* CurrentPrincipal
          return { ok: true as const, automations: (yield* automations.list(workspaceId)).map(automationRecord) }
        }))
      .handle("get", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, ({ workspaceId }) => Effect.map(automations.get(workspaceId, params.id), one)))
      .handle("pause", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => Effect.map(recorded.pauseAutomation(principal.workspaceId, params.id, actorOf(principal)), one)))
      .handle("resume", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => Effect.map(recorded.resumeAutomation(principal.workspaceId, params.id, actorOf(principal)), one)))
      .handle("stop", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => Effect.map(recorded.stopAutomation(principal.workspaceId, params.id, actorOf(principal)), one)))
  ))
}))
