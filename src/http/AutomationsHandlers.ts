/**
 * The automation endpoints.
 *
 * @since 1.0.0
 */
import { Effect, Layer, Schema } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { Automation, StartAutomation } from "../api/AutomationsApi.ts"
import { acceptedAnswer } from "../api/Idempotent.ts"
import { actorOf, CurrentPrincipal } from "../domain/Principal.ts"
import { Idempotency } from "../jobs/Idempotency.ts"
import { type AutomationView, Automations } from "../workflows/Automations.ts"
import { idempotent } from "./Idempotent.ts"
import * as HandlerGroup from "./HandlerGroup.ts"
import * as WorkflowActivity from "./WorkflowActivity.ts"

/** An automation in its API form. */
export const automationRecord = ({ messages, row, runs, status }: AutomationView) => ({
  id: row.id,
  accountId: row.accountId,
  name: row.name,
  status,
  messages,
  runs: runs.map((run) => ({
    person: run.person,
    workflowId: run.id,
    status: run.status,
    step: run.step,
    outcome: run.outcome
  })),
  createdAt: row.createdAt,
  updatedAt: row.updatedAt
})

/**
 * Starts an automation under its optional Idempotency-Key (for REST and assistants alike); needs
 * `Automations` and `Idempotency`.
 */
export const starter = Effect.gen(function*() {
  const automations = yield* Automations
  const idempotency = yield* Idempotency
  return Effect.fn("Automations.startRequest")(function*(workspaceId: string, payload: typeof StartAutomation.Type, key: string | undefined) {
    const start = Effect.map(
      automations.start({
        workspaceId,
        accountId: payload.account,
        name: payload.name,
        people: payload.people,
        messages: payload.messages
      }),
      (view) => ({ status: 202, body: automationRecord(view) })
    )
    const answer = yield* idempotent(idempotency, {
      workspaceId,
      endpoint: "POST /v1/automations",
      key,
      body: yield* Schema.encodeUnknownEffect(StartAutomation)(payload).pipe(Effect.orDie)
    }, start)
    const automation = yield* Schema.decodeUnknownEffect(Automation)(answer.body).pipe(Effect.orDie)
    return { replayed: answer.replayed, automation }
  })
})

export const AutomationsHandlers = Layer.unwrap(Effect.gen(function*() {
  const automations = yield* Automations
  const start = yield* starter
  const recorded = yield* WorkflowActivity.make
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
