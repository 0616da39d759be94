/**
 * What the assistant's tools do: each calls the same services, with the same
 * rules, as its REST endpoint, for the workspace of the credential that
 * authenticated the request (`CurrentPrincipal`), and answers what the REST
 * endpoint answers, encoded by the REST schema.
 */
import { Effect, Layer, Schema } from "effect"
import { Accounts } from "../accounts/Accounts.ts"
import { Account, Seats } from "../api/AccountsApi.ts"
import { Approval, APPROVAL_STATUS_DEFAULT, decodeApproval } from "../api/ApprovalsApi.ts"
import { Automation } from "../api/AutomationsApi.ts"
import { Forecast } from "../api/ForecastApi.ts"
import { Brief, HealthReport, Invitation } from "../api/InboxApi.ts"
import { decodeJob, Job } from "../api/JobsApi.ts"
import { PersonRecord, TimelineEntry } from "../api/PeopleApi.ts"
import { Workflow } from "../api/WorkflowsApi.ts"
import { type CommandName, commands, isCommandName } from "../domain/Commands.ts"
import { actorOf, CurrentPrincipal } from "../domain/Principal.ts"
import { automationRecord, starter as automationStarter } from "../intake/AutomationIntake.ts"
import { Draining } from "../http/Draining.ts"
import { wordsOf } from "../http/ServiceErrors.ts"
import * as JobIntake from "../intake/JobIntake.ts"
import { starter as workflowStarter, workflowRecord } from "../intake/WorkflowIntake.ts"
import { Inbox } from "../inbox/Inbox.ts"
import { Reports } from "../inbox/Reports.ts"
import { Approvals } from "../approvals/Approvals.ts"
import { Forecasts } from "../jobs/Forecasts.ts"
import type { JobRecord } from "../jobs/JobRow.ts"
import { Jobs } from "../jobs/Jobs.ts"
import { notSupported } from "../network/NetworkDriver.ts"
import { People } from "../people/People.ts"
import { Automations } from "../workflows/Automations.ts"
import { Workflows } from "../workflows/Workflows.ts"
import * as WorkflowActivity from "../intake/WorkflowActivity.ts"
import { CommandTools, OpenAnswer, READ_WAIT_SECONDS, ServiceTools, type ToolError } from "./Tools.ts"

/** A service's failure as the tool's: the envelope of the REST API, unchanged. */
const asToolError = (failure: Parameters<typeof wordsOf>[0]): typeof ToolError.Type => ({ ok: false, error: wordsOf(failure) })

const workspace = CurrentPrincipal.use((principal) => Effect.succeed(principal.workspaceId))

/** A job as the contract shows it. */
const jobOf = (record: unknown) => decodeJob(record).pipe(Effect.orDie)

/**
 * The JSON a tool answers: `value` encoded by the REST answer's schema
 * (`fields`), as `GET /v1/...` would send it, without its `ok`.
 */
const answer = <F extends Schema.Struct.Fields>(fields: F) => {
  const encode = Schema.encodeEffect(Schema.toCodecJson(Schema.Struct(fields)))
  const asObject = Schema.decodeUnknownEffect(OpenAnswer)
  return (value: Schema.Struct<F>["Type"]) => Effect.orDie(Effect.flatMap(encode(value), asObject))
}

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

/**
 * The handlers of the 21 command tools. A command the account's network cannot run (its
 * `capabilities.notSupported`, as `get_account` shows) answers at once the `notSupported` error its
 * job would fail with, and makes no job: an assistant learns it now, not when it follows the job.
 */
export const commandHandlers = CommandTools.toLayer(Effect.gen(function*() {
  const accept = yield* JobIntake.make
  const accounts = yield* Accounts
  const { watch } = yield* jobs
  const run = (name: CommandName) =>
  (params: { readonly accountId: string; readonly input: unknown; readonly idempotencyKey?: string | undefined }) =>
    Effect.gen(function*() {
      const workspaceId = yield* workspace
      const { capabilities } = yield* accounts.get(workspaceId, params.accountId)
      if (capabilities.notSupported.includes(name)) return yield* Effect.fail({ error: notSupported(capabilities.network, name) })
      const accepted = yield* accept({
        workspaceId,
        endpoint: JobIntake.commandEndpoint(params.accountId, name),
        accountId: params.accountId,
        command: name,
        input: params.input,
        key: params.idempotencyKey
      })
      const created = yield* jobOf(accepted.job)
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
  const oneJob = answer({ job: Job })
  const oneWorkflow = answer({ workflow: Workflow })
  const oneAutomation = answer({ automation: Automation })
  const jobPage = answer({ jobs: Schema.Array(Job), nextCursor: Schema.NullOr(Schema.String) })
  const accountList = answer({ accounts: Schema.Array(Account), seats: Seats })
  const oneAccount = answer({ account: Account })
  const oneBrief = answer({ brief: Brief })
  const oneReport = answer({ report: HealthReport })
  const oneForecast = answer({ forecast: Forecast })
  const invitationList = answer({ invitations: Schema.Array(Invitation) })
  const peoplePage = answer({ people: Schema.Array(PersonRecord), nextCursor: Schema.NullOr(Schema.String) })
  const personAnswer = answer({ person: PersonRecord, timeline: Schema.Array(TimelineEntry) })
  const workflowPage = answer({ workflows: Schema.Array(Workflow), nextCursor: Schema.NullOr(Schema.String) })
  const automationList = answer({ automations: Schema.Array(Automation) })
  const approvalPage = answer({ approvals: Schema.Array(Approval), nextCursor: Schema.NullOr(Schema.String) })
  const recorded = yield* WorkflowActivity.make
  /** Who the activity log names: the key, or the person whose assistant it is. */
  const actor = CurrentPrincipal.use((principal) => Effect.succeed(actorOf(principal)))
  const workflowChange = (change: typeof recorded.pauseWorkflow) => ({ workflowId }: { readonly workflowId: string }) =>
    inWorkspace((id) =>
      Effect.flatMap(Effect.flatMap(actor, (by) => change(id, workflowId, by)), (view) => oneWorkflow({ workflow: workflowRecord(view) }))
    )
  const automationChange = (change: typeof recorded.pauseAutomation) => ({ automationId }: { readonly automationId: string }) =>
    inWorkspace((id) =>
      Effect.flatMap(Effect.flatMap(actor, (by) => change(id, automationId, by)), (view) => oneAutomation({ automation: automationRecord(view) }))
    )

  return {
    get_job: ({ jobId, wait }) => inWorkspace((id) => Effect.flatMap(Effect.flatMap(watch(id, jobId, wait), jobOf), (job) => oneJob({ job }))),
    list_jobs: (query) =>
      inWorkspace((id) =>
        Effect.gen(function*() {
          const page = yield* jobService.list(id, {
            accountId: query.accountId,
            status: query.status,
            kind: query.kind,
            cursor: query.cursor,
            limit: query.limit
          })
          return yield* jobPage({ jobs: yield* jobsOf(page.jobs), nextCursor: page.nextCursor })
        })
      ),
    cancel_job: ({ jobId }) =>
      inWorkspace((id) => Effect.flatMap(Effect.flatMap(jobService.cancel(id, jobId), jobOf), (job) => oneJob({ job }))),
    list_accounts: () => inWorkspace((id) => Effect.flatMap(accounts.list(id), accountList)),
    get_account: ({ accountId }) => inWorkspace((id) => Effect.flatMap(accounts.get(id, accountId), (account) => oneAccount({ account }))),
    get_brief: ({ accountId, hours }) =>
      inWorkspace((id) => Effect.flatMap(reports.brief(id, accountId, hours ?? 24), (brief) => oneBrief({ brief }))),
    get_health_report: ({ accountId }) =>
      inWorkspace((id) => Effect.flatMap(reports.healthReport(id, accountId), (report) => oneReport({ report }))),
    forecast_account: ({ accountId, ...query }) =>
      inWorkspace((id) => Effect.flatMap(forecasts.forecast(id, accountId, query), (forecast) => oneForecast({ forecast }))),
    list_invitations: ({ accountId, status }) =>
      inWorkspace((id) =>
        Effect.flatMap(inbox.invitations(id, accountId, status ?? "pending"), (invitations) => invitationList({ invitations }))
      ),
    find_people: (query) => inWorkspace((id) => Effect.flatMap(people.list(id, query), peoplePage)),
    get_person: ({ personId }) => inWorkspace((id) => Effect.flatMap(people.get(id, personId), personAnswer)),
    start_workflow: ({ accountId, idempotencyKey, ...payload }) =>
      inWorkspace((id) =>
        Effect.flatMap(startWorkflow(id, { account: accountId, ...payload }, idempotencyKey), ({ workflow }) => oneWorkflow({ workflow }))
      ),
    list_workflows: (query) =>
      inWorkspace((id) =>
        Effect.flatMap(
          workflows.list(id, { automationId: query.automationId, cursor: query.cursor, limit: query.limit }),
          (page) => workflowPage({ workflows: page.workflows.map(workflowRecord), nextCursor: page.nextCursor })
        )
      ),
    get_workflow: ({ workflowId }) =>
      inWorkspace((id) => Effect.flatMap(workflows.get(id, workflowId), (view) => oneWorkflow({ workflow: workflowRecord(view) }))),
    pause_workflow: workflowChange(recorded.pauseWorkflow),
    resume_workflow: workflowChange(recorded.resumeWorkflow),
    stop_workflow: workflowChange(recorded.stopWorkflow),
    start_automation: ({ accountId, idempotencyKey, ...payload }) =>
      inWorkspace((id) =>
        Effect.flatMap(
          startAutomation(id, { account: accountId, ...payload }, idempotencyKey),
          ({ automation }) => oneAutomation({ automation })
        )
      ),
    list_automations: () =>
      inWorkspace((id) => Effect.flatMap(automations.list(id), (all) => automationList({ automations: all.map(automationRecord) }))),
    get_automation: ({ automationId }) =>
      inWorkspace((id) =>
        Effect.flatMap(automations.get(id, automationId), (view) => oneAutomation({ automation: automationRecord(view) }))
      ),
    pause_automation: automationChange(recorded.pauseAutomation),
    resume_automation: automationChange(recorded.resumeAutomation),
    stop_automation: automationChange(recorded.stopAutomation),
    list_approvals: (query) =>
      inWorkspace((id) =>
        Effect.gen(function*() {
          const page = yield* approvals.list(id, {
            status: query.status ?? APPROVAL_STATUS_DEFAULT,
            accountId: query.accountId,
            cursor: query.cursor,
            limit: query.limit
          })
          const decoded = yield* Effect.forEach(page.approvals, (approval) => decodeApproval(approval)).pipe(Effect.orDie)
          return yield* approvalPage({ approvals: decoded, nextCursor: page.nextCursor })
        })
      )
  }
}))

/** Every tool's handler; needs the core services. */
export const layer = Layer.mergeAll(commandHandlers, serviceHandlers)
