/**
 * The tools an AI assistant gets over MCP, derived from the REST contract's
 * own schemas (`domain/Commands.ts`, `api/*Api.ts`) in the one argument
 * vocabulary of `Arguments.ts`.
 *
 * Strict and small:
 * - every tool is `Tool.Strict`: its input schema is closed
 *   (`additionalProperties: false`, nested objects too) and an unknown
 *   argument is a tool error naming it, as REST refuses an unknown body field;
 * - output schemas are per tool and small: a command tool's is its own job
 *   with its own command's `result` (not the union of every command's job);
 *   the other tools answer an open object (the REST answer, encoded by its REST
 *   schema in `ToolHandlers.ts`) and say what it holds in their description.
 *
 * What an assistant may not do is a rule of this list: no tool decides an
 * approval (the spec: an assistant "may only list"), and no tool manages
 * keys, webhooks or seats. Every write goes in as a job through the Governor,
 * exactly as `POST /v1/accounts/{id}/<command>` does.
 *
 * Annotations tell the truth: `readOnlyHint` on reads; `destructiveHint` on
 * what changes the network or stops work; `idempotentHint` only where a repeat
 * has no further effect whatever the arguments (reads, pause, resume, stop,
 * cancel); writes are idempotent only with their `idempotencyKey`, so they do
 * not claim it; `openWorldHint` where the tool reaches the network.
 *
 * Adding a tool: one `tool(...)` entry in `ServiceTools` (name, title,
 * description, parameter fields from `Arguments.ts`, hints), its handler in
 * `ToolHandlers.ts` (the compiler asks for it), and its name in the MCP
 * paragraph of `api/Api.ts` (test/mcp/Document.test.ts asks for it).
 */
import { Schema } from "effect"
import { Tool, Toolkit } from "effect/ai"
import { approvalListQuery } from "../api/ApprovalsApi.ts"
import { forecastQuery } from "../api/ForecastApi.ts"
import { StartAutomation } from "../api/AutomationsApi.ts"
import { invitationQuery } from "../api/InboxApi.ts"
import { jobListQuery } from "../api/JobsApi.ts"
import { searchQuery } from "../api/PeopleApi.ts"
import { StartWorkflow } from "../api/WorkflowsApi.ts"
import { catalogue, type CommandKind, type CommandName, type CommandSpec, isCommandName } from "../domain/Commands.ts"
import { JobStatus } from "../domain/Job.ts"
import { CurrentPrincipal } from "../domain/Principal.ts"
import * as Arguments from "./Arguments.ts"

/** A failed call: the REST API's envelope, so an assistant reads the same `type`, `message` and `next`. */
export const ToolError = Schema.Struct({
  ok: Schema.Literal(false),
  error: Schema.Struct({ type: Schema.String, message: Schema.String, next: Schema.String })
}).annotate({ identifier: "ToolError" })

/** An answer whose shape the tool's description gives: any JSON object (the REST answer's fields). */
export const OpenAnswer = Schema.Record(Schema.String, Schema.Unknown)

/** How long a read's tool call waits for the read to finish before answering with the job as it is. */
export const READ_WAIT_SECONDS = 10

interface Hints {
  readonly readOnly: boolean
  readonly destructive: boolean
  readonly idempotent: boolean
  readonly openWorld: boolean
}

const read: Hints = { readOnly: true, destructive: false, idempotent: true, openWorld: false }
/** A write to the network: a repeat without `idempotencyKey` is a second write. */
const networkWrite: Hints = { readOnly: false, destructive: true, idempotent: false, openWorld: true }
/** A change of state that a repeat leaves as it is (pause, resume). */
const stateChange: Hints = { readOnly: false, destructive: false, idempotent: true, openWorld: false }
/** Stops work for good; a repeat changes nothing more. */
const stop: Hints = { readOnly: false, destructive: true, idempotent: true, openWorld: false }

const annotated = <
  Name extends string,
  Config extends {
    readonly parameters: Schema.Constraint
    readonly success: Schema.Constraint
    readonly failure: Schema.Constraint
    readonly failureMode: Tool.FailureMode
  },
  R
>(tool: Tool.Tool<Name, Config, R>, title: string, hints: Hints): Tool.Tool<Name, Config, R> =>
  tool
    .annotate(Tool.Title, title)
    .annotate(Tool.Strict, true)
    .annotate(Tool.Readonly, hints.readOnly)
    .annotate(Tool.Destructive, hints.destructive)
    .annotate(Tool.Idempotent, hints.idempotent)
    .annotate(Tool.OpenWorld, hints.openWorld)

// ---------------------------------------------------------------------------
// One tool per command

/** The title of each command's tool; a new command fails to compile until it has one. */
const commandTitles: { readonly [C in CommandName]: string } = {
  get_profile: "Read a person's profile",
  get_company: "Read a company page",
  search_people: "Search people",
  search_companies: "Search companies",
  get_posts: "Read recent posts",
  get_post: "Read a post",
  list_chats: "List conversations",
  get_conversation: "Read a conversation",
  list_invites: "List invitations",
  profile_viewers: "Who viewed the profile",
  ssi: "Social Selling Index",
  connect: "Invite a person to connect",
  withdraw_invite: "Withdraw an invitation",
  send_message: "Send a message",
  accept_invite: "Accept an invitation",
  decline_invite: "Decline an invitation",
  endorse: "Endorse a skill",
  save_lead: "Save a lead",
  react: "React to a post",
  comment: "Comment on a post",
  create_post: "Publish a post"
}

/**
 * A command's job as its tool answers it: the fields an assistant acts on, with
 * this command's own `result`; the job's other fields (as `get_job` shows them) come along.
 */
const commandJob = (spec: CommandSpec<string, CommandKind, Schema.Codec<unknown, unknown>, Schema.Codec<unknown, unknown>>) =>
  Schema.StructWithRest(
    Schema.Struct({
      id: Schema.String.annotate({ description: "The job's id" }),
      kind: Schema.Literal(spec.name),
      status: JobStatus,
      result: Schema.NullOr(OpenAnswer)
    }),
    [OpenAnswer]
  ).annotate({
    description: `The ${spec.name} job: also input, error, waitingFor (why it is not running yet), approvalId, eta and times`
  })

/** One tool per command, named as the command; its arguments are the account and the command's own input. */
const commandTool = (spec: CommandSpec<string, CommandKind, Schema.Codec<unknown, unknown>, Schema.Codec<unknown, unknown>>) =>
  annotated(
    Tool.make(spec.name, {
      description: (spec.kind === "read"
        ? `${spec.description} A read: it never waits for approval or working hours. Answers with the job, completed with its \`result\` when it finishes within ${READ_WAIT_SECONDS} seconds; otherwise follow it with get_job.`
        : `${spec.description} A write: it goes in as a job through the account's Governor (mode, approval, working hours, budgets, pacing). Answers at once with the job and its \`waitingFor\`; a person decides approvals, never the assistant. Follow it with get_job. Give \`idempotencyKey\` to make a retry safe.`) +
        " An account whose network cannot run it (get_account: `capabilities.notSupported`) answers at once a `notSupported` error, and no job is made.",
      parameters: Schema.Struct({ accountId: Arguments.accountId, input: spec.input, idempotencyKey: Arguments.idempotencyKey }),
      success: Schema.Struct({ job: commandJob(spec) }),
      failure: ToolError,
      failureMode: "return",
      dependencies: [CurrentPrincipal]
    }),
    isCommandName(spec.name) ? commandTitles[spec.name] : spec.name,
    spec.kind === "read" ? { ...read, openWorld: true } : networkWrite
  )

/** The 21 command tools. */
export const CommandTools = Toolkit.make(...catalogue.map(commandTool))

// ---------------------------------------------------------------------------
// The other tools

const tool = <const Name extends string, P extends Schema.Constraint>(
  name: Name,
  options: { readonly title: string; readonly description: string; readonly parameters: P; readonly hints: Hints }
) =>
  annotated(
    Tool.make(name, {
      description: options.description,
      parameters: options.parameters,
      success: OpenAnswer,
      failure: ToolError,
      failureMode: "return",
      dependencies: [CurrentPrincipal]
    }),
    options.title,
    options.hints
  )

/** Reading, pausing, resuming and stopping a thing an assistant started; each answers `{<thing>}`. */
const lifecycle = <const Thing extends string, P extends Schema.Constraint>(
  thing: Thing,
  named: string,
  parameters: P,
  says: { readonly get: string; readonly pause: string; readonly resume: string; readonly stop: string }
) =>
  [
    tool(`get_${thing}`, { title: `Get ${named}`, description: `Answers {${thing}}: ${says.get}`, parameters, hints: read }),
    tool(`pause_${thing}`, { title: `Pause ${named}`, description: `${says.pause} Answers {${thing}}.`, parameters, hints: stateChange }),
    tool(`resume_${thing}`, { title: `Resume ${named}`, description: `${says.resume} Answers {${thing}}.`, parameters, hints: stateChange }),
    tool(`stop_${thing}`, { title: `Stop ${named}`, description: `${says.stop} Answers {${thing}}.`, parameters, hints: stop })
  ] as const

const { account: _jobAccount, limit: _jobLimit, ...jobFilters } = jobListQuery
const { account: _approvalAccount, limit: _approvalLimit, ...approvalFilters } = approvalListQuery
const { limit: _peopleLimit, ...peopleFilters } = searchQuery
const { account: _workflowAccount, ...workflowStart } = StartWorkflow.fields
const { account: _automationAccount, ...automationStart } = StartAutomation.fields

/** Jobs, accounts, inbox, people, workflows, automations and approvals. */
export const ServiceTools = Toolkit.make(
  tool("get_job", {
    title: "Get a job",
    description:
      "Answers {job}: its status, what it waits for (`waitingFor`), and its `result` or `error`. `wait` (seconds, up to 60) long-polls until it finishes.",
    parameters: Schema.Struct({ jobId: Arguments.jobId, wait: Arguments.wait }),
    hints: read
  }),
  tool("list_jobs", {
    title: "List jobs",
    description: "Answers {jobs, nextCursor}: the workspace's jobs, newest first, by account, status and command; paged.",
    parameters: Schema.Struct({ accountId: Arguments.accountFilter, ...jobFilters, limit: Arguments.limit }),
    hints: read
  }),
  tool("cancel_job", {
    title: "Cancel a job",
    description:
      "Cancel a job before it starts (queued, awaiting approval or scheduled); its pending approval is rejected. Answers {job}.",
    parameters: Schema.Struct({ jobId: Arguments.jobId }),
    hints: stop
  }),
  tool("list_accounts", {
    title: "List accounts",
    description: "Answers {accounts, seats}: the workspace's accounts (seats) with their status, mode and limits.",
    parameters: Tool.EmptyParams,
    hints: read
  }),
  tool("get_account", {
    title: "Get an account",
    description:
      "Answers {account}: status, mode, working hours, limits, budgets left, warm-up, and `capabilities`: its network and the commands it can run (`commands`) and cannot (`notSupported`).",
    parameters: Schema.Struct({ accountId: Arguments.accountId }),
    hints: read
  }),
  tool("get_brief", {
    title: "Today's brief",
    description:
      "Answers {brief}: what needs a person today on one account: replies with suggested answers, new connections, the queue, approvals and budgets.",
    parameters: Schema.Struct({ accountId: Arguments.accountId, hours: Arguments.hours }),
    hints: read
  }),
  tool("get_health_report", {
    title: "Account health report",
    description: "Answers {report}: one account's network size, stale invitations, SSI, warm-up and recommendations.",
    parameters: Schema.Struct({ accountId: Arguments.accountId }),
    hints: read
  }),
  tool("forecast_account", {
    title: "Forecast an account's queue",
    description:
      "Answers {forecast}: when one account's queued writes are expected to go out, each with what it waits for first, and when its queue empties; `assume` (such as connect:300) asks what-if without creating anything.",
    parameters: Schema.Struct({ accountId: Arguments.accountId, assume: forecastQuery.assume, cursor: forecastQuery.cursor, limit: Arguments.forecastLimit }),
    hints: read
  }),
  tool("list_invitations", {
    title: "List sent invitations",
    description: "Answers {invitations}: the invitations one account sent, newest first.",
    parameters: Schema.Struct({ accountId: Arguments.accountId, ...invitationQuery }),
    hints: read
  }),
  tool("find_people", {
    title: "Find people",
    description:
      "Answers {people, nextCursor}: the people the workspace's accounts have dealt with, latest activity first; paged.",
    parameters: Schema.Struct({ ...peopleFilters, limit: Arguments.limit }),
    hints: read
  }),
  tool("get_person", {
    title: "Get a person",
    description: "Answers {person, timeline}: a person and their jobs, invitations and messages both ways.",
    parameters: Schema.Struct({ personId: Arguments.personId }),
    hints: read
  }),
  tool("start_workflow", {
    title: "Start a workflow",
    description:
      "Start a workflow about one person: steps of commands, waits and conditions, each command a job through the Governor. Answers {workflow}. Give `idempotencyKey` to make a retry safe.",
    parameters: Schema.Struct({ accountId: Arguments.accountId, ...workflowStart, idempotencyKey: Arguments.idempotencyKey }),
    hints: networkWrite
  }),
  tool("list_workflows", {
    title: "List workflows",
    description: "Answers {workflows, nextCursor}: workflows, newest first; paged.",
    parameters: Schema.Struct({
      automationId: Schema.optionalKey(Arguments.automationId.annotate({ description: "Only the runs of this automation" })),
      cursor: jobFilters.cursor,
      limit: Arguments.limit
    }),
    hints: read
  }),
  ...lifecycle("workflow", "a workflow", Schema.Struct({ workflowId: Arguments.workflowId }), {
    get: "Its status, the step under way, what it waits for, its jobs and log.",
    pause: "Pause a running workflow: no further step starts until resume_workflow.",
    resume: "Resume a paused workflow where it stopped.",
    stop: "Stop a workflow for good (cancel it): no further step starts."
  }),
  tool("start_automation", {
    title: "Start an automation",
    description:
      "Start an automation: a connect and a message sequence for each of a list of people, all through the Governor. Answers {automation}. Give `idempotencyKey` to make a retry safe.",
    parameters: Schema.Struct({ accountId: Arguments.accountId, ...automationStart, idempotencyKey: Arguments.idempotencyKey }),
    hints: networkWrite
  }),
  tool("list_automations", {
    title: "List automations",
    description: "Answers {automations}: the workspace's automations.",
    parameters: Tool.EmptyParams,
    hints: read
  }),
  ...lifecycle("automation", "an automation", Schema.Struct({ automationId: Arguments.automationId }), {
    get: "The automation and how far each person got.",
    pause: "Pause an automation: none of its people's next steps start until resume_automation.",
    resume: "Resume a paused automation.",
    stop: "Stop an automation for good: none of its people's next steps start."
  }),
  tool("list_approvals", {
    title: "List approvals",
    description:
      "Answers {approvals, nextCursor}: writes waiting for a person, oldest first, with the exact text. An assistant may only list: a person decides them in the dashboard, or an integration with an API key.",
    parameters: Schema.Struct({ accountId: Arguments.accountFilter, ...approvalFilters, limit: Arguments.limit }),
    hints: read
  })
)

/** The names of every tool, commands first. */
export const toolNames: ReadonlyArray<string> = [...Object.keys(CommandTools.tools), ...Object.keys(ServiceTools.tools)]
