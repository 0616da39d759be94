/**
 * `Automations` in memory, for fast tests of the automation routes without a database: the rules
 * of the stored automations (`Automations.ts`), on the `Workflows` it is given (the in-memory ones,
 * `WorkflowsMemory.ts`, in the fast tests). Every person's run is checked before anything is kept
 * (`checkedRuns`: the account, each address, each message's reach when the network says), then
 * launched as a workflow of the automation; an automation shows its runs in the order the people
 * were given and `finished` once they have all ended (`statusOf`); it is listed newest first (then
 * by the greater id, as the table orders it), up to 200; pausing and resuming hold and free its
 * running runs, stopping cancels them, by the same status rules (`refusedChange`). The runs' steps
 * run only on the engine, so here an automation ends only by being stopped.
 */
import { Effect, Layer } from "effect"
import type { AutomationStatus } from "../domain/Automation.ts"
import { MAX_PEOPLE } from "../domain/Automation.ts"
import { finishedWorkflowStatuses } from "../domain/Workflow.ts"
import * as Time from "../domain/Time.ts"
import { NetworkDriver } from "../network/NetworkDriver.ts"
import {
  type AutomationRequest,
  Automations,
  type AutomationView,
  automationNotFound,
  checkedRuns,
  refusedChange,
  statusOf
} from "./Automations.ts"
import { Workflows } from "./Workflows.ts"

interface Stored {
  readonly workspaceId: string
  readonly row: AutomationView["row"]
  readonly messages: AutomationView["messages"]
}

/** Newest first, then the greater id (as the table's `ORDER BY created_at DESC, id DESC`). */
const newestFirst = (a: Stored, b: Stored) =>
  Date.parse(b.row.createdAt) - Date.parse(a.row.createdAt) || (a.row.id < b.row.id ? 1 : a.row.id > b.row.id ? -1 : 0)

/** The in-memory `Automations`; needs `Workflows` and the `NetworkDriver` that identifies each person. */
export const layer = Layer.effect(
  Automations,
  Effect.gen(function*() {
    const workflows = yield* Workflows
    const network = yield* NetworkDriver
    const automations: Array<Stored> = []

    const runsOf = (workspaceId: string, id: string) =>
      Effect.map(
        Effect.orDie(workflows.list(workspaceId, { automationId: id, limit: MAX_PEOPLE })),
        (page) => page.workflows.map((view) => view.row).reverse()
      )

    const view = ({ messages, row, workspaceId }: Stored) =>
      Effect.map(runsOf(workspaceId, row.id), (runs): AutomationView => ({ row, status: statusOf(row.status, runs), messages, runs }))

    // A uuid, whatever the case of its letters (as the table's uuid column compares).
    const indexOf = (workspaceId: string, id: string) =>
      automations.findIndex((stored) => stored.workspaceId === workspaceId && stored.row.id === id.toLowerCase())

    const found = (workspaceId: string, id: string) => {
      const index = indexOf(workspaceId, id)
      return index === -1 ? Effect.fail(automationNotFound(id)) : Effect.succeed(index)
    }

    const change = (to: "active" | "paused" | "stopped", allowedFrom: ReadonlyArray<AutomationStatus>) =>
      Effect.fn(`AutomationsMemory.${to}`)(function*(workspaceId: string, id: string) {
        const index = yield* found(workspaceId, id)
        const current = yield* view(automations[index])
        if (!allowedFrom.includes(current.status)) return yield* Effect.fail(refusedChange(id, current.status))
        for (const run of current.runs.filter((run) => !finishedWorkflowStatuses.has(run.status))) {
          const changed = to === "stopped"
            ? workflows.cancel(workspaceId, run.id)
            : to === "paused"
            ? workflows.pause(workspaceId, run.id)
            : workflows.resume(workspaceId, run.id)
          yield* Effect.ignore(changed)
        }
        const now = yield* Time.now
        automations[index] = { ...automations[index], row: { ...automations[index].row, status: to, updatedAt: now.iso } }
        return yield* view(automations[index])
      })

    return Automations.of({
      start: Effect.fn("AutomationsMemory.start")(function*(request: AutomationRequest) {
        const prepared = yield* checkedRuns(workflows, network, request)
        const now = yield* Time.now
        const stored: Stored = {
          workspaceId: request.workspaceId,
          row: {
            id: crypto.randomUUID(),
            accountId: request.accountId.toLowerCase(),
            name: request.name,
            sequence: request.messages,
            status: "active",
            createdAt: now.iso,
            updatedAt: now.iso
          },
          messages: request.messages
        }
        automations.push(stored)
        for (const run of prepared) yield* workflows.launch({ ...run, automationId: stored.row.id })
        return yield* view(stored)
      }),
      get: (workspaceId, id) => Effect.flatMap(found(workspaceId, id), (index) => view(automations[index])),
      list: (workspaceId) =>
        Effect.forEach(
          automations.filter((stored) => stored.workspaceId === workspaceId).sort(newestFirst).slice(0, 200),
          view
        ),
      pause: change("paused", ["active"]),
      resume: change("active", ["paused"]),
      stop: change("stopped", ["active", "paused"])
    })
  })
)
