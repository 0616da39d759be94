/**
 * The tools an AI assistant gets over MCP, derived from the REST contract's
 * own schemas: each command's input and job (`domain/Commands.ts`,
 * `api/JobsApi.ts`), and the filters and records of the read endpoints.
 * Nothing here restates a field; a change to the contract changes the tools.
 *
 * What an assistant may not do is a rule of this list: no tool decides an
 * approval (the spec: an assistant "may only list"), and no tool manages
 * keys, webhooks or seats. Every write goes in as a job through the Governor,
 * exactly as `POST /v1/accounts/{id}/<command>` does.
 *
 * Annotations: `readOnlyHint` on reads; `destructiveHint` on writes;
 * `idempotentHint` where the optional `idempotencyKey` gives
 * Idempotency-Key semantics; `openWorldHint` where the tool reaches the
 * professional network.
 *
 * @since 1.0.0
 */
import { Schema } from "effect"
import { Tool, Toolkit } from "effect/ai"
import { Account, Seats } from "../api/AccountsApi.ts"
import { Approval, approvalListQuery } from "../api/ApprovalsApi.ts"
import { Automation, StartAutomation } from "../api/AutomationsApi.ts"
import { Uuid } from "../api/Envelope.ts"
import { Forecast, forecastQuery } from "../api/ForecastApi.ts"
import { Brief, briefQuery, HealthReport, Invitation, invitationQuery } from "../api/InboxApi.ts"
import { Job, jobListQuery, jobWaitQuery } from "../api/JobsApi.ts"
import { PersonRecord, searchQuery, TimelineEntry } from "../api/PeopleApi.ts"
import { StartWorkflow, Workflow, workflowListQuery } from "../api/WorkflowsApi.ts"
import { catalogue, type CommandKind, type CommandSpec } from "../domain/Commands.ts"
import { CurrentPrincipal } from "../domain/Principal.ts"

/** A failed call: the REST API's envelope, so an assistant reads the same `type`, `message` and `next`. */
export const ToolError = Schema.Struct({
  ok: Schema.Literal(false),
  error: Schema.Struct({ type: Schema.String, message: Schema.String, next: Schema.String })
}).annotate({ identifier: "ToolError" })

/** The Idempotency-Key of REST, as an argument. */
const idempotencyKey = Schema.optionalKey(
  Schema.String.check(Schema.isPattern(/^[\x21-\x7E]{1,255}$/u)).annotate({
    description:
      "Optional, 1 to 255 visible ASCII characters: a repeat with the same key and arguments within 24 hours returns the first call's job and creates nothing (the REST Idempotency-Key, shared with it)."
  })
)

const accountId = Uuid.annotate({ description: "The account (seat) that runs it" })
const nextCursor = Schema.NullOr(Schema.String).annotate({ description: "Pass as `cursor` for the next page; null on the last page" })

/** How long a read's tool call waits for the read to finish before answering with the job as it is. */
export const READ_WAIT_SECONDS = 10

interface Hints {
  readonly readOnly: boolean
  readonly destructive: boolean
  readonly idempotent: boolean
  readonly openWorld: boolean
}

const hinted = <
  Name extends string,
  Config extends {
    readonly parameters: Schema.Constraint
    readonly success: Schema.Constraint
    readonly failure: Schema.Constraint
    readonly failureMode: Tool.FailureMode
  },
  R
>(
  tool: Tool.Tool<Name, Config, R>,
  hints: Hints
): Tool.Tool<Name, Config, R> =>
  tool
    .annotate(Tool.Readonly, hints.readOnly)
    .annotate(Tool.Destructive, hints.destructive)
    .annotate(Tool.Idempotent, hints.idempotent)
    .annotate(Tool.OpenWorld, hints.openWorld)

const read: Hints = { readOnly: true, destructive: false, idempotent: true, openWorld: false }

/** One tool per command, named as the command; its arguments are the account and the command's own input. */
const commandTool = (spec: CommandSpec<string, CommandKind, Schema.Codec<unknown, unknown>>) =>
  hinted(
    Tool.make(spec.name, {
      description: spec.kind === "read"
        ? `${spec.description} A read: it never waits for approval or working hours. Answers with the job, completed with its \`result\` when it finishes within ${READ_WAIT_SECONDS} seconds; otherwise follow it with get_job.`
        : `${spec.description} A write: it goes in as a job through the account's Governor (mode, approval, working hours, budgets, pacing). Answers at once with the job and its \`waitingFor\`; a person decides approvals, never the assistant. Follow it with get_job.`,
      parameters: Schema.Struct({ accountId, input: spec.input, idempotencyKey }),
      success: Schema.Struct({ job: Job }),
      failure: ToolError,
      failureMode: "return",
      dependencies: [CurrentPrincipal]
    }),
    spec.kind === "read"
      ? { readOnly: true, destructive: false, idempotent: true, openWorld: true }
      : { readOnly: false, destructive: true, idempotent: true, openWorld: true }
  )

/** The 21 command tools. */
export const CommandTools = Toolkit.make(...catalogue.map(commandTool))

const tool = <const Name extends string, P extends Schema.Constraint, S extends Schema.Struct.Fields>(
  name: Name,
  description: string,
  parameters: P,
  success: S,
  hints: Hints
) =>
  hinted(
    Tool.make(name, {
      description,
      parameters,
      success: Schema.Struct(success),
      failure: ToolError,
      failureMode: "return",
      dependencies: [CurrentPrincipal]
    }),
    hints
  )

/** Jobs, accounts, inbox, people, workflows, automations and approvals: reads, and starting workflows. */
export const ServiceTools = Toolkit.make(
  tool("get_job", "A job: its status, what it waits for, and its result or error. `wait` long-polls until it finishes.", Schema.Struct({ jobId: Uuid, ...jobWaitQuery }), { job: Job }, read),
  tool("list_jobs", "The workspace's jobs, newest first, by account, status and command; paged.", Schema.Struct(jobListQuery), {
    jobs: Schema.Array(Job),
    nextCursor
  }, read),
  tool(
    "cancel_job",
    "Cancel a job before it starts (queued, awaiting approval or scheduled); its pending approval is rejected.",
    Schema.Struct({ jobId: Uuid }),
    { job: Job },
    { readOnly: false, destructive: true, idempotent: false, openWorld: false }
  ),
  tool("list_accounts", "The workspace's accounts (seats) with their status, mode and limits.", Tool.EmptyParams, {
    accounts: Schema.Array(Account),
    seats: Seats
  }, read),
  tool("get_account", "One account: status, mode, working hours, limits and warm-up.", Schema.Struct({ accountId }), { account: Account }, read),
  tool(
    "get_brief",
    "What needs a person today on one account: replies with suggested answers, new connections, the queue, approvals and budgets.",
    Schema.Struct({ accountId, ...briefQuery }),
    { brief: Brief },
    read
  ),
  tool(
    "get_health_report",
    "One account's health: network size, stale invitations, SSI, warm-up and recommendations.",
    Schema.Struct({ accountId }),
    { report: HealthReport },
    read
  ),
  tool(
    "forecast_account",
    "When one account's queued writes are expected to go out, each with what it waits for first, and when its queue empties; `assume` (such as connect:300) asks what-if without creating anything.",
    Schema.Struct({ accountId, ...forecastQuery }),
    { forecast: Forecast },
    read
  ),
  tool("list_invitations", "The invitations one account sent, newest first.", Schema.Struct({ accountId, ...invitationQuery }), {
    invitations: Schema.Array(Invitation)
  }, read),
  tool("find_people", "The people the workspace's accounts have dealt with, latest activity first; paged.", Schema.Struct(searchQuery), {
    people: Schema.Array(PersonRecord),
    nextCursor
  }, read),
  tool("get_person", "A person and their timeline: jobs, invitations and messages both ways.", Schema.Struct({ personId: Uuid }), { person: PersonRecord, timeline: Schema.Array(TimelineEntry) }, read),
  tool(
    "start_workflow",
    "Start a workflow about one person: steps of commands, waits and conditions, each command a job through the Governor.",
    Schema.Struct({ ...StartWorkflow.fields, idempotencyKey }),
    { workflow: Workflow },
    { readOnly: false, destructive: true, idempotent: true, openWorld: true }
  ),
  tool("list_workflows", "Workflows, newest first; paged.", Schema.Struct(workflowListQuery), {
    workflows: Schema.Array(Workflow),
    nextCursor
  }, read),
  tool("get_workflow", "A workflow: its status, the step under way, what it waits for, its jobs and log.", Schema.Struct({ workflowId: Uuid }), { workflow: Workflow }, read),
  tool(
    "start_automation",
    "Start an automation: a connect and a message sequence for each of a list of people, all through the Governor.",
    Schema.Struct({ ...StartAutomation.fields, idempotencyKey }),
    { automation: Automation },
    { readOnly: false, destructive: true, idempotent: true, openWorld: true }
  ),
  tool("list_automations", "The workspace's automations.", Tool.EmptyParams, { automations: Schema.Array(Automation) }, read),
  tool("get_automation", "An automation and how far each person got.", Schema.Struct({ automationId: Uuid }), {
    automation: Automation
  }, read),
  tool(
    "list_approvals",
    "Writes waiting for a person, oldest first, with the exact text. An assistant may only list: a person decides them in the dashboard, or an integration with an API key.",
    Schema.Struct(approvalListQuery),
    { approvals: Schema.Array(Approval), nextCursor },
    read
  )
)

/** The names of every tool, commands first. */
export const toolNames: ReadonlyArray<string> = [...Object.keys(CommandTools.tools), ...Object.keys(ServiceTools.tools)]
