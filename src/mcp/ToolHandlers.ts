/**
 * What the assistant's tools do: each calls the same services, with the same
 * rules, as its REST endpoint, for the workspace of the credential that
 * authenticated the request (`CurrentPrincipal`).
 *
 * @since 1.0.0
 */
import { Effect, Layer } from "effect"
import { Accounts } from "../accounts/Accounts.ts"
import { decodeApproval } from "../api/ApprovalsApi.ts"
import { decodeJob } from "../api/JobsApi.ts"
import { type CommandName, commands, isCommandName } from "../domain/Commands.ts"
import { CurrentPrincipal } from "../domain/Principal.ts"
import { automationRecord, starter as automationStarter } from "../http/AutomationsHandlers.ts"
import { Draining } from "../http/Draining.ts"
import * as JobIntake from "../http/JobIntake.ts"
import { starter as workflowStarter, workflowRecord } from "../http/WorkflowsHandlers.ts"
import { Inbox } from "../inbox/Inbox.ts"
import { Reports } from "../inbox/Reports.ts"
import { Approvals } from "../jobs/Approvals.ts"
import { Forecasts } from "../jobs/Forecasts.ts"
import type { JobRecord } from "../jobs/JobRow.ts"
import { Jobs } from "../jobs/Jobs.ts"
import { People } from "../people/People.ts"
import { Automations } from "../workflows/Automations.ts"
import { Workflows } from "../workflows/Workflows.ts"
import { CommandTools, READ_WAIT_SECONDS, ServiceTools, type ToolError } from "./Tools.ts"

/** A service's failure as the tool's: the envelope of the REST API, unchanged. */
const asToolError = (failure: {
  readonly error: { readonly type: string; readonly message: string; readonly next: string }
}): typeof ToolError.Type => ({ ok: false, error: { type: failure.error.type, message: failure.error.message, next: failure.error.next } })

const workspace = CurrentPrincipal.use((principal) => Effect.succeed(principal.workspaceId))

/** A job as the contract shows it. */
const jobOf = (record: unknown) => decodeJob(record).pipe(Effect.orDie)

const jobs = Effect.gen(function*() {
  const service = yield* Jobs
  const draining = yield* Draining
  /** Long-polls a job, ending at once when the service begins to stop (as REST's `?wait=`). */
  const watch = (workspaceId: string, id: string, waitSeconds: number | undefined) =>
    Effect.raceFirst(
      service.get(workspaceId, id, waitSeconds),
      Effect.andThen(draining.started, service.get(workspaceId, id))
    )
  return { service, watch }
})

/** The handlers of the 21 command tools. */
export const commandHandlers = CommandTools.toLayer(Effect.gen(function*() {
  const accept = yield* JobIntake.make
  const { watch } = yield* jobs
  const run = (name: CommandName) =>
  (params: { readonly accountId: string; readonly input: unknown; readonly idempotencyKey?: string | undefined }) =>
    Effect.gen(function*() {
      const workspaceId = yield* workspace
      const answer = yield* accept({
        workspaceId,
        endpoint: JobIntake.commandEndpoint(params.accountId, name),
        accountId: params.accountId,
        command: name,
        input: params.input,
        key: params.idempotencyKey
      })
      const created = yield* jobOf(answer.job)
      const record: unknown = commands[name].kind === "read" ? yield* watch(workspaceId, created.id, READ_WAIT_SECONDS) : created
      return { job: yield* jobOf(record) }
    }).pipe(Effect.mapError(asToolError))
  return Object.fromEntries(Object.keys(CommandTools.tools).filter(isCommandName).map((name) => [name, run(name)]))
}))

/** The handlers of the other tools. */
export const serviceHandlers = ServiceTools.toLayer(Effect.gen(function*() {
  const { service: jobService, watch } = yield* jobs
  const accounts = yield* Accounts
  const inbox = yield* Inbox
  const reports = yield* Reports
  const forecasts = yield* Forecasts
  const people = yield* People
  const workflows = yield* Workflows
  const automations = yield* Automations
  const approvals = yield* Approvals
  const startWorkflow = yield* workflowStarter
  const startAutomation = yield* automationStarter
  const inWorkspace = <A, E extends Parameters<typeof asToolError>[0], R>(f: (workspaceId: string) => Effect.Effect<A, E, R>) =>
    Effect.flatMap(workspace, f).pipe(Effect.mapError(asToolError))
  const jobsOf = (records: ReadonlyArray<JobRecord>) => Effect.forEach(records, jobOf)

  return {
    get_job: ({ jobId, wait }) => inWorkspace((id) => Effect.map(Effect.flatMap(watch(id, jobId, wait), jobOf), (job) => ({ job }))),
    list_jobs: (query) =>
      inWorkspace((id) =>
        Effect.gen(function*() {
          const page = yield* jobService.list(id, {
            accountId: query.account,
            status: query.status,
            kind: query.kind,
            cursor: query.cursor,
            limit: query.limit
          })
          return { jobs: yield* jobsOf(page.jobs), nextCursor: page.nextCursor }
        })
      ),
    cancel_job: ({ jobId }) => inWorkspace((id) => Effect.map(Effect.flatMap(jobService.cancel(id, jobId), jobOf), (job) => ({ job }))),
    list_accounts: () => inWorkspace((id) => accounts.list(id)),
    get_account: ({ accountId }) => inWorkspace((id) => Effect.map(accounts.get(id, accountId), (account) => ({ account }))),
    get_brief: ({ accountId, hours }) =>
      inWorkspace((id) => Effect.map(reports.brief(id, accountId, hours ?? 24), (brief) => ({ brief }))),
    get_health_report: ({ accountId }) =>
      inWorkspace((id) => Effect.map(reports.healthReport(id, accountId), (report) => ({ report }))),
    forecast_account: ({ accountId, ...query }) =>
      inWorkspace((id) => Effect.map(forecasts.forecast(id, accountId, query), (forecast) => ({ forecast }))),
    list_invitations: ({ accountId, status }) =>
      inWorkspace((id) => Effect.map(inbox.invitations(id, accountId, status ?? "pending"), (invitations) => ({ invitations }))),
    find_people: (query) => inWorkspace((id) => people.list(id, query)),
    get_person: ({ personId }) => inWorkspace((id) => people.get(id, personId)),
    start_workflow: ({ idempotencyKey, ...payload }) =>
      inWorkspace((id) => Effect.map(startWorkflow(id, payload, idempotencyKey), ({ workflow }) => ({ workflow }))),
    list_workflows: (query) =>
      inWorkspace((id) =>
        Effect.map(
          workflows.list(id, { automationId: query.automation, cursor: query.cursor, limit: query.limit }),
          (page) => ({ workflows: page.workflows.map(workflowRecord), nextCursor: page.nextCursor })
        )
      ),
    get_workflow: ({ workflowId }) =>
      inWorkspace((id) => Effect.map(workflows.get(id, workflowId), (view) => ({ workflow: workflowRecord(view) }))),
    start_automation: ({ idempotencyKey, ...payload }) =>
      inWorkspace((id) => Effect.map(startAutomation(id, payload, idempotencyKey), ({ automation }) => ({ automation }))),
    list_automations: () =>
      inWorkspace((id) => Effect.map(automations.list(id), (all) => ({ automations: all.map(automationRecord) }))),
    get_automation: ({ automationId }) =>
      inWorkspace((id) => Effect.map(automations.get(id, automationId), (view) => ({ automation: automationRecord(view) }))),
    list_approvals: (query) =>
      inWorkspace((id) =>
        Effect.gen(function*() {
          const page = yield* approvals.list(id, {
            status: query.status,
            accountId: query.account,
            cursor: query.cursor,
            limit: query.limit
          })
          const decoded = yield* Effect.forEach(page.approvals, (approval) => decodeApproval(approval)).pipe(Effect.orDie)
          return { approvals: decoded, nextCursor: page.nextCursor }
        })
      )
  }
}))

/** Every tool's handler; needs the core services. */
export const layer = Layer.mergeAll(commandHandlers, serviceHandlers)
