/**
 * Workflows and automations paused, resumed or stopped by a person or a key,
 * each recorded in the activity log with who did it: the one place REST's
 * handlers, the MCP tools and the dashboard's pages go through, so every
 * surface leaves the same trace.
 */
import { Effect } from "effect"
import { ActivityLog } from "../activity/ActivityLog.ts"
import type { ActivityAction } from "../domain/Activity.ts"
import { Automations, type AutomationView } from "../workflows/Automations.ts"
import { Workflows, type WorkflowView } from "../workflows/Workflows.ts"

/** The operations with their record; built once (for a handler group) or per request. */
export const make = Effect.gen(function*() {
  const workflows = yield* Workflows
  const automations = yield* Automations
  const log = yield* ActivityLog

  /** `change`, then its entry: what was done (`action`) to which (`type`), in words (`summary`). */
  const recorded = <V, E>(
    type: "workflow" | "automation",
    action: Extract<ActivityAction, `workflow.${string}` | `automation.${string}`>,
    summary: (view: V) => string,
    change: (workspaceId: string, id: string) => Effect.Effect<V, E>
  ) =>
  (workspaceId: string, id: string, actor: string) =>
    Effect.tap(change(workspaceId, id), (view) =>
      log.record({ workspaceId, actor, action, resource: { type, id }, summary: summary(view) }))

  const onWorkflow = <E>(action: Extract<ActivityAction, `workflow.${string}`>, verb: string, change: (workspaceId: string, id: string) => Effect.Effect<WorkflowView, E>) =>
    recorded("workflow", action, (view: WorkflowView) => `${verb} the workflow about ${view.row.person.replace(/^https:\/\/(www\.)?/, "")}`, change)

  const onAutomation = <E>(action: Extract<ActivityAction, `automation.${string}`>, verb: string, change: (workspaceId: string, id: string) => Effect.Effect<AutomationView, E>) =>
    recorded(
      "automation",
      action,
      (view: AutomationView) => `${verb} the automation "${view.row.name}" (${view.runs.length} ${view.runs.length === 1 ? "person" : "people"})`,
      change
    )

  return {
    pauseWorkflow: onWorkflow("workflow.paused", "paused", workflows.pause),
    resumeWorkflow: onWorkflow("workflow.resumed", "resumed", workflows.resume),
    stopWorkflow: onWorkflow("workflow.stopped", "stopped", workflows.cancel),
    pauseAutomation: onAutomation("automation.paused", "paused", automations.pause),
    resumeAutomation: onAutomation("automation.resumed", "resumed", automations.resume),
    stopAutomation: onAutomation("automation.stopped", "stopped", automations.stop)
  }
})
