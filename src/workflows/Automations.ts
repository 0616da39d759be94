/**
 * Automations: one follow-up sequence (a message, then follow-ups each a
 * number of days after the one before) sent by one account to a list of
 * people. Each person's run is a workflow that stops by itself the moment the
 * person replies (any class), also while a message waits for approval or for
 * its time. Pausing holds every run's next message; stopping cancels them.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { type AutomationStatus, MAX_PEOPLE, Sequence, type SequenceMessage, stepsOf } from "../domain/Automation.ts"
import { Invalid, Missing, WrongState } from "../domain/Failures.ts"
import * as Time from "../domain/Time.ts"
import { NetworkDriver } from "../network/NetworkDriver.ts"
import { Timestamp } from "../platform/Rows.ts"
import { finishedWorkflowStatuses } from "../domain/Workflow.ts"
import { Workflows } from "./Workflows.ts"
import { type WorkflowRow, WorkflowStore } from "./WorkflowStore.ts"

// What an automation is lives in the domain; the library's `Automations` namespace keeps offering it.
export { MAX_MESSAGES, MAX_PEOPLE, Sequence, SequenceMessage, stepsOf } from "../domain/Automation.ts"
export type { AutomationStatus } from "../domain/Automation.ts"

const AutomationRow = Schema.Struct({
  id: Schema.String,
  accountId: Schema.String,
  name: Schema.String,
  sequence: Schema.Unknown,
  status: Schema.Literals(["active", "paused", "stopped", "finished"]),
  createdAt: Timestamp,
  updatedAt: Timestamp
})
type AutomationRow = typeof AutomationRow.Type
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(AutomationRow))
const decodeSequence = Schema.decodeUnknownEffect(Sequence)

/** An automation with its runs, as the API shows it. */
export interface AutomationView {
  readonly row: AutomationRow
  readonly status: AutomationStatus
  readonly messages: ReadonlyArray<SequenceMessage>
  readonly runs: ReadonlyArray<WorkflowRow>
}

const columns = `a.id::text AS id, a.account_id::text AS "accountId", a.name, a.sequence, a.status,
  a.created_at AS "createdAt", a.updated_at AS "updatedAt"`

export const automationNotFound = (id: string) =>
  new Missing({ message: `No automation ${id} in this workspace.`, advice: { _tag: "ListAutomations" } })

/** An automation to start. */
export interface AutomationRequest {
  readonly workspaceId: string
  readonly accountId: string
  readonly name: string
  readonly people: ReadonlyArray<string>
  readonly messages: ReadonlyArray<SequenceMessage>
}

/** What an automation shows: `finished` once every run has ended, unless it was stopped. */
export const statusOf = (stored: AutomationStatus, runs: ReadonlyArray<WorkflowRow>): AutomationStatus =>
  stored !== "stopped" && runs.every((run) => finishedWorkflowStatuses.has(run.status)) ? "finished" : stored

/** A pause, resume or stop the automation's status refuses. */
export const refusedChange = (id: string, status: AutomationStatus) =>
  new WrongState({
    message: `Automation ${id} is ${status}.`,
    advice: { _tag: status === "paused" ? "ResumeAutomation" : "StartNewAutomation" }
  })

/** Each person's run checked, before anything is stored (`people[i]` named in a refusal); the runs to launch. */
export const checkedRuns = Effect.fn("Automations.checkedRuns")(function*(
  workflows: Workflows["Service"],
  network: NetworkDriver["Service"],
  request: AutomationRequest
) {
  const steps = stepsOf(request.messages)
  // Every person is checked before anything is stored, so a bad address leaves nothing behind.
  const prepared = yield* Effect.forEach(request.people, (person, i) =>
    workflows.prepare({
      workspaceId: request.workspaceId,
      accountId: request.accountId,
      person,
      steps,
      stopOnReply: true
    }).pipe(Effect.mapError((error) =>
      error._tag === "Invalid"
        ? new Invalid({ message: error.message.replace("body.person", `body.people[${i}]`), advice: error.advice })
        : error
    )))
  // Messages without inmail reach only connections and people who wrote to the account:
  // anyone else is refused now, rather than failing their run at the first message.
  if (!request.messages.every((message) => message.inmail === true) && network.messageReaches !== undefined) {
    const reaches = network.messageReaches
    for (const [i, run] of prepared.entries()) {
      if (yield* reaches(request.accountId, run.providerId)) continue
      return yield* new Invalid({
        message: `body.people[${i}]: ${run.person} is not a connection of the account and has not written to it; the network delivers messages only to connections.`,
        advice: { _tag: "ConnectOrInMail" }
      })
    }
  }
  return prepared
})

export class Automations extends Context.Service<Automations, {
  readonly start: (request: AutomationRequest) => Effect.Effect<AutomationView, Missing | Invalid>
  readonly get: (workspaceId: string, id: string) => Effect.Effect<AutomationView, Missing>
  readonly list: (workspaceId: string) => Effect.Effect<ReadonlyArray<AutomationView>>
  readonly pause: (workspaceId: string, id: string) => Effect.Effect<AutomationView, Missing | WrongState>
  readonly resume: (workspaceId: string, id: string) => Effect.Effect<AutomationView, Missing | WrongState>
  readonly stop: (workspaceId: string, id: string) => Effect.Effect<AutomationView, Missing | WrongState>
}>()("outreach/Automations") {
  static readonly layerNoDeps = Layer.effect(
    Automations,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const workflows = yield* Workflows
      const network = yield* NetworkDriver
      const store = yield* WorkflowStore

      // The runs' records alone, in the order the people were given: an automation shows each run's
      // status and step, not its jobs and log (those are on GET /v1/workflows/{id}).
      const runsOf = (workspaceId: string, id: string) =>
        Effect.map(store.list(workspaceId, { automationId: id, limit: MAX_PEOPLE }), (rows) => [...rows].reverse())

      const view = (workspaceId: string, row: AutomationRow) =>
        Effect.gen(function*() {
          const runs = yield* runsOf(workspaceId, row.id)
          return {
            row,
            status: statusOf(row.status, runs),
            messages: yield* decodeSequence(row.sequence).pipe(Effect.orDie),
            runs
          } satisfies AutomationView
        })

      const rowOf = (workspaceId: string, id: string) =>
        sql`SELECT ${sql.literal(columns)} FROM automations a WHERE a.id = ${id} AND a.workspace_id = ${workspaceId}`.pipe(
          Effect.flatMap(decodeRows),
          Effect.orDie,
          Effect.flatMap((rows) => rows.length === 0 ? Effect.fail(automationNotFound(id)) : Effect.succeed(rows[0]))
        )

      const change = (to: "active" | "paused" | "stopped", allowedFrom: ReadonlyArray<AutomationStatus>) =>
        Effect.fn(`Automations.${to}`)(function*(workspaceId: string, id: string) {
          const current = yield* view(workspaceId, yield* rowOf(workspaceId, id))
          if (!allowedFrom.includes(current.status)) return yield* Effect.fail(refusedChange(id, current.status))
          const running = current.runs.filter((run) => !finishedWorkflowStatuses.has(run.status))
          if (to === "stopped") {
            for (const run of running) yield* Effect.ignore(workflows.cancel(workspaceId, run.id))
          } else {
            yield* store.setPaused(running.map((run) => run.id), to === "paused")
          }
          const now = yield* Time.now
          yield* sql`UPDATE automations SET status = ${to}, updated_at = ${now.iso}::timestamptz WHERE id = ${id}`.pipe(
            Effect.orDie
          )
          return yield* view(workspaceId, yield* rowOf(workspaceId, id))
        })

      return Automations.of({
        start: Effect.fn("Automations.start")(function*(request: AutomationRequest) {
          const prepared = yield* checkedRuns(workflows, network, request)
          const id = crypto.randomUUID()
          const now = yield* Time.now
          yield* sql`
            INSERT INTO automations (id, workspace_id, account_id, name, sequence, status, created_at, updated_at)
            VALUES (${id}, ${request.workspaceId}, ${request.accountId}, ${request.name},
              ${JSON.stringify(request.messages)}::jsonb, 'active', ${now.iso}::timestamptz, ${now.iso}::timestamptz)`
            .pipe(Effect.orDie)
          for (const run of prepared) yield* workflows.launch({ ...run, automationId: id })
          return yield* view(request.workspaceId, yield* rowOf(request.workspaceId, id))
        }),
        get: (workspaceId, id) => Effect.flatMap(rowOf(workspaceId, id), (row) => view(workspaceId, row)),
        list: (workspaceId) =>
          sql`SELECT ${sql.literal(columns)} FROM automations a WHERE a.workspace_id = ${workspaceId}
            ORDER BY a.created_at DESC, a.id DESC LIMIT 200`.pipe(
            Effect.flatMap(decodeRows),
            Effect.orDie,
            Effect.flatMap((rows) => Effect.forEach(rows, (row) => view(workspaceId, row)))
          ),
        pause: change("paused", ["active"]),
        resume: change("active", ["paused"]),
        stop: change("stopped", ["active", "paused"])
      })
    })
  )

  /** `layerNoDeps` with its services' layers. */
  static readonly layer = Automations.layerNoDeps.pipe(Layer.provide([WorkflowStore.layer, Workflows.layer]))
}
