/**
 * The role check of every MCP tool call, at the one place the server
 * dispatches one (a global middleware): the tool's action, from the table of
 * `domain/Permissions.ts`, against the role of the credential. A refused call
 * answers a JSON-RPC error whose `data` is the REST API's envelope
 * (`notAllowed`), so an assistant reads the same words as an integrator.
 */
import { Effect, Schema } from "effect"
import { McpSchema, McpServer } from "effect/ai"
import { isCommandName } from "../domain/Commands.ts"
import { type Action, permits, refusal } from "../domain/Permissions.ts"
import { CurrentPrincipal, roleOf } from "../domain/Principal.ts"
import { type ServiceTools } from "./Tools.ts"

/** What each tool that is not a command does; a new tool does not compile without its rule. */
const serviceToolActions: { readonly [Name in keyof typeof ServiceTools.tools]: Action } = {
  get_job: "read",
  list_jobs: "read",
  cancel_job: "runCommands",
  list_accounts: "read",
  get_account: "read",
  get_brief: "read",
  get_health_report: "read",
  list_invitations: "read",
  forecast_account: "read",
  find_people: "read",
  get_person: "read",
  start_workflow: "startWorkflows",
  list_workflows: "read",
  get_workflow: "read",
  pause_workflow: "startWorkflows",
  resume_workflow: "startWorkflows",
  stop_workflow: "startWorkflows",
  start_automation: "startWorkflows",
  list_automations: "read",
  get_automation: "read",
  pause_automation: "startWorkflows",
  resume_automation: "startWorkflows",
  stop_automation: "startWorkflows",
  list_approvals: "read"
}

const isServiceTool = (name: string): name is keyof typeof serviceToolActions => Object.hasOwn(serviceToolActions, name)

/**
 * The action of a tool: every command (read or write) runs a job; the rest as listed. A name
 * that is neither (a tool added elsewhere without a rule) is treated as the strictest.
 */
export const toolAction = (name: string): Action =>
  isCommandName(name) ? "runCommands" : isServiceTool(name) ? serviceToolActions[name] : "workspaceSettings"

/** JSON-RPC's implementation-defined range: the call was refused for the caller's role. */
export const notAllowedCode = -32003

export class ToolNotAllowed extends Schema.Error<ToolNotAllowed>("outreach/ToolNotAllowed")({
  ...McpSchema.McpErrorBase.fields,
  _tag: Schema.tag("ToolNotAllowed"),
  code: Schema.tag(notAllowedCode)
}) {}

/** Refuses a tool call the caller's role may not make; everything else passes untouched. */
export const layer = McpServer.middleware((effect, { method, target }) =>
  method !== "tools/call" ? effect : CurrentPrincipal.use((principal) => {
    const action = toolAction(target)
    const role = roleOf(principal)
    if (permits(role, action)) return effect
    const message = refusal(role, action)
    return Effect.fail(
      new ToolNotAllowed({
        message,
        data: {
          ok: false,
          error: {
            type: "notAllowed",
            message,
            next: "Use a tool your key's role allows (tools/list names them all), or ask an owner or admin for a key with a stronger role."
          }
        }
      })
    )
  }), { global: true })
