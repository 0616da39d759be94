/**
 * Automations: a follow-up sequence sent by one account to a list of people,
 * each person's run a workflow that stops the moment the person replies.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { MAX_MESSAGES } from "../domain/Automation.ts"
import { Ok, Uuid } from "./Envelope.ts"
import { BadRequest, Conflict, NotFound, Unprocessable } from "./Errors.ts"
import { accepted, idempotencyHeaders } from "./Idempotent.ts"
import { allowedTo, Authentication } from "./Security.ts"
import { Automation, StartAutomation } from "../domain/AutomationRecord.ts"
export { Automation, StartAutomation } from "../domain/AutomationRecord.ts"

const automationId = { id: Uuid.annotate({ description: "The automation's id" }) }
const OneAutomation = Ok({ automation: Automation })

const change = (name: "pause" | "resume" | "stop", summary: string, description: string) =>
  HttpApiEndpoint.post(name, `/v1/automations/:id/${name}`, {
    params: automationId,
    success: OneAutomation,
    error: [NotFound, Conflict]
  }).annotateMerge(allowedTo("startWorkflows")).annotateMerge(OpenApi.annotations({ summary, description }))

export class AutomationsApi extends HttpApiGroup.make("automations")
  .add(
    HttpApiEndpoint.post("start", "/v1/automations", {
      headers: idempotencyHeaders,
      payload: StartAutomation,
      success: accepted({ automation: Automation }, "Accepted: the automation, to follow with `GET /v1/automations/{id}`"),
      error: [BadRequest, NotFound, Conflict, Unprocessable]
    }).annotateMerge(allowedTo("startWorkflows")).annotateMerge(OpenApi.annotations({
      summary: "Start an automation",
      description: [
        `A message and up to ${MAX_MESSAGES - 1} follow-ups, each \`afterDays\` after the one before, sent by one account to each person.`,
        "Each person's run stops by itself the moment the person replies (any class), also while a message waits for approval, working hours or budget (that job is cancelled).",
        "Every message is an ordinary `send_message` job: the account's mode, approvals, budgets, working hours and the cross-seat rule apply.",
        "Every address is checked first: one that names nobody answers 400 naming `body.people[i]` and nothing is started.",
        "With an `Idempotency-Key`, a repeat with the same body answers the first automation again (`idempotent-replayed: true`) and starts nothing."
      ].join("\n")
    })),
    HttpApiEndpoint.get("list", "/v1/automations", {
      success: Ok({ automations: Schema.Array(Automation).annotate({ description: "Newest first, up to 200" }) })
    }).annotateMerge(allowedTo("read")).annotateMerge(OpenApi.annotations({ summary: "List automations" })),
    HttpApiEndpoint.get("get", "/v1/automations/:id", {
      params: automationId,
      success: OneAutomation,
      error: NotFound
    }).annotateMerge(allowedTo("read")).annotateMerge(OpenApi.annotations({ summary: "Get an automation", description: "Its status and every person's run." })),
    change("pause", "Pause an automation", "Every run holds its next message until resumed; waits go on. 409 unless active."),
    change("resume", "Resume an automation", "Every run goes on with its next message. 409 unless paused."),
    change("stop", "Stop an automation", "Every run is cancelled with its unstarted jobs. 409 once stopped or finished.")
  )
  .middleware(Authentication)
  .annotateMerge(OpenApi.annotations({ title: "Automations" }))
{}
