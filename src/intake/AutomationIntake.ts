/**
 * Starting an automation and its API form, for every door it comes in by (REST's
 * `POST /v1/automations`, an assistant's `start_automation`).
 */
import { Effect, Schema } from "effect"
import { Automation, StartAutomation } from "../domain/AutomationRecord.ts"
import { Idempotency } from "../idempotency/Idempotency.ts"
import { type AutomationView, Automations } from "../workflows/Automations.ts"
import { idempotent } from "./IdempotentStart.ts"

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
