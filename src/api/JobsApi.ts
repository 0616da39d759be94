/**
 * Commands and jobs: `POST /v1/accounts/{id}/{command}` for each of the 21
 * commands, `POST /v1/jobs`, `GET /v1/jobs/{id}` (long-poll), `GET /v1/jobs`
 * and `POST /v1/jobs/{id}/cancel`; and the job record, one schema per command,
 * built from the command catalogue so a new command gets its job, its endpoint
 * and its docs from its catalogue entry alone.
 */
import { Schema, SchemaTransformation } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { type CommandKind, type CommandName, CommandNameSchema, commands, type CommandSpec } from "../domain/Commands.ts"
import { Mode } from "../domain/Account.ts"
import { type JobErrorType, jobErrorTypes, JobStatus, MAX_WAIT_SECONDS, needsApproval, WaitReason } from "../domain/Job.ts"
import { isCountedPerRow } from "../domain/Limits.ts"
import { DateTimeString, Ok, Uuid } from "./Envelope.ts"
import { accepted, acceptedAnswer, idempotencyHeaders } from "./Idempotent.ts"
import { Conflict, NotFound, Unprocessable } from "./Errors.ts"
import { allowedTo, Authentication } from "./Security.ts"
import { decimalRange } from "../domain/Rules.ts"
import { Text } from "../domain/Text.ts"

// ---------------------------------------------------------------------------
// The job record

const jobErrorTypeDescriptions: { readonly [T in JobErrorType]: string } = {
  offHours: "the account was outside its working hours and its `offHoursPolicy` is `reject`",
  approvalRejected: "a person rejected the write (their reason, if any, is in `message`)",
  approvalExpired: "nobody decided within 72 hours; the write must be created again",
  cancelled: "the job was cancelled before it started (by `POST /v1/jobs/{id}/cancel`, or because its account was removed)",
  lowInviteQuality: "the person's invite-quality score (`score`) is below the account's `minInviteQuality`",
  guardrail:
    "one of the network's rules forbids it (already a connection, not a connection...), or another seat of the workspace holds the person (its invitation is pending, its cold message unanswered, or its write to them in flight; the message names that account; see People)",
  noteQuotaExhausted: "a free account's sixth invitation note this month; nothing was sent, `until` says when notes are possible again",
  cannotResendYet: "the person was invited within 3 weeks of a withdrawal; `until` says when a new invitation can go",
  invalidInput: "the network cannot use an address, id, cursor or value of the input (the message names it)",
  notFound: "nothing there on the network (an unknown invitation, a post not published yet...)",
  network: "the network failed or could not be reached; retrying later may work",
  notSupported: "the account's network cannot do this command at all (the account's `capabilities` lists what it can)",
  providerRateLimited: "the provider that reaches the network kept asking to slow down; retrying later will work",
  signedOut: "the network signed the account out or restricted it; reconnect it (`POST /v1/accounts/{id}/reconnect`)",
  interrupted:
    "the service stopped while the write was in flight; it may or may not have reached the network and is never tried twice",
  accountRemoved: "the account was removed before the job ran"
}

/** The error of a failed or cancelled job: the envelope's fields, and for some types a score or a date. */
export const JobError = Schema.Struct({
  type: Schema.Literals(jobErrorTypes).annotate({
    description: [
      "Why the job failed:",
      ...jobErrorTypes.map((type) => `- \`${type}\`: ${jobErrorTypeDescriptions[type]};`)
    ].join("\n")
  }),
  message: Schema.String.annotate({ description: "What went wrong, for a person" }),
  next: Schema.String.annotate({ description: "What to do about it" }),
  score: Schema.optionalKey(Schema.Number.annotate({ description: "`lowInviteQuality` only: the person's score (0-100)" })),
  until: Schema.optionalKey(DateTimeString.annotate({
    description: "`cannotResendYet` and `noteQuotaExhausted` only: when the action becomes possible again"
  }))
}).annotate({
  identifier: "JobError",
  examples: [
    {
      type: "cannotResendYet",
      message: "The invitation to this person was withdrawn less than 3 weeks ago; the network refuses a new one until then.",
      next: "Create the connect job again after the date in `until`.",
      until: "2027-01-02T10:00:00.000Z"
    },
    { type: "approvalRejected", message: "Rejected: wrong person.", next: "Create the write again if it should still go out." }
  ]
})
export type JobError = typeof JobError.Type

const WaitingFor = Schema.Struct({
  reason: WaitReason.annotate({
    description: [
      "Why the job is not running yet:",
      "- `approval`: a person must approve it;",
      "- `working_hours`: the account's working hours are closed;",
      "- `budget`: the category's budget is used up (daily, weekly or monthly);",
      "- `account_paused`: the account is paused, stopped or restricted (reads only);",
      "- `account_connecting`: the account has not finished connecting;",
      "- `reconnect`: the network signed the account out;",
      "- `pacing`: the randomised pause between two writes;",
      "- `queue`: other work of the account goes first."
    ].join("\n")
  }),
  until: Schema.NullOr(DateTimeString).annotate({ description: "When the wait ends, when that is known" })
}).annotate({ identifier: "JobWaitingFor" })

const statusDescription = [
  "- `queued`: accepted, next in line for its account;",
  "- `awaiting_approval`: a write waiting for a person (modes `approve` and `assist`);",
  "- `scheduled`: waiting for a time (`eta`): working hours, budget, pacing;",
  "- `running`: on the network now;",
  "- `completed`, `failed`, `cancelled`: finished (a cancelled job emits `job.failed`)."
].join("\n")

const exampleIds = {
  job: "9a7e4c2b-1d3f-4e5a-8b6c-0d1e2f3a4b5c",
  account: "0b7c6a1e-3f4d-4e2a-9b8c-7d6e5f4a3b2c",
  approval: "c4d5e6f7-a8b9-4c0d-9e1f-2a3b4c5d6e7f"
} as const

/** The first example a schema carries, if any. */
const exampleOf = <S extends Schema.Top>(schema: S): S["Type"] | undefined =>
  Schema.resolveAnnotations(schema)?.examples?.[0]

/**
 * The candidates that are valid values of `schema`. Examples assembled from
 * other schemas' examples are checked rather than trusted, so the document
 * never shows an example its own schema refuses (a test requires them all).
 */
const validExamples = <S extends Schema.Top>(schema: S, candidates: ReadonlyArray<unknown>): ReadonlyArray<S["Type"]> =>
  candidates.filter(Schema.is(schema))

const jobFields = <Name extends CommandName, I extends Schema.Top, R extends Schema.Top>(
  spec: CommandSpec<Name, CommandKind, I, R>
) => ({
  id: Uuid.annotate({ description: "The job's id" }),
  accountId: Uuid.annotate({ description: "The account (seat) the job runs on" }),
  kind: Schema.Literal(spec.name).annotate({ description: "The command" }),
  status: JobStatus.annotate({ description: statusDescription }),
  input: spec.input.annotateKey({ description: "The command's input, as given" }),
  result: Schema.NullOr(spec.result).annotate({ description: "What the command returned; null until the job completes" }),
  error: Schema.NullOr(JobError).annotate({ description: "Why the job failed or was cancelled; null otherwise" }),
  eta: Schema.NullOr(DateTimeString).annotate({
    description: "When a `scheduled` job is expected to run (for example the next working day when the budget is used up); null otherwise"
  }),
  waitingFor: Schema.NullOr(WaitingFor).annotate({
    description: "Why a job that has not finished is not running yet; null once it runs or has finished"
  }),
  approvalId: Schema.NullOr(Uuid).annotate({
    description: "The approval a write waits for (or waited for) in `assist` or `approve` mode; null when none is needed"
  }),
  createdAt: DateTimeString.annotate({ description: "When the job was created" }),
  startedAt: Schema.NullOr(DateTimeString).annotate({ description: "When it started on the network; null before" }),
  finishedAt: Schema.NullOr(DateTimeString).annotate({ description: "When it completed, failed or was cancelled; null before" })
})

const jobSchema = <Name extends CommandName, I extends Schema.Top, R extends Schema.Top>(
  spec: CommandSpec<Name, CommandKind, I, R>
) => {
  const schema = Schema.Struct(jobFields(spec))
  const finished = {
    id: exampleIds.job,
    accountId: exampleIds.account,
    kind: spec.name,
    status: "completed",
    input: exampleOf(spec.input),
    result: exampleOf(spec.result),
    error: null,
    eta: null,
    waitingFor: null,
    approvalId: spec.kind === "write" ? exampleIds.approval : null,
    createdAt: "2026-11-23T08:55:00.000Z",
    startedAt: "2026-11-23T09:00:12.000Z",
    finishedAt: "2026-11-23T09:00:14.000Z"
  }
  const waiting = {
    ...finished,
    status: spec.kind === "write" ? "awaiting_approval" : "queued",
    result: null,
    waitingFor: { reason: spec.kind === "write" ? "approval" : "queue", until: null },
    startedAt: null,
    finishedAt: null
  }
  return schema.annotate({
    identifier: `Job_${spec.name}`,
    description: `A \`${spec.name}\` job: ${spec.description}`,
    examples: validExamples(schema, [waiting, finished])
  })
}

// ---------------------------------------------------------------------------
// Per command: its job, its endpoint and its `POST /v1/jobs` body

/** The 202 answer carrying a new (or, on a replay, the first) job. */
const acceptedJobSchema = <S extends Schema.Top>(job: S) =>
  accepted({ job }, "Accepted: the job, to follow with `GET /v1/jobs/{id}?wait=60`")

const modes = Mode.literals

const list = (items: ReadonlyArray<string>) =>
  items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`

/** What the catalogue says about a command's approval and budget, in words for the docs. */
const commandNotes = (spec: CommandSpec<CommandName>): string => {
  const approval = spec.kind === "read"
    ? "A read: it never waits for approval or working hours."
    : `A write: it waits for a person's approval in ${
      list(modes.filter((mode) => needsApproval(mode, spec.name, true)).map((mode) => `\`${mode}\``))
    } mode, and runs one at a time within working hours, budgets and pacing.`
  const asInMail = spec.inMailCategory
  const budget = spec.category === null
    ? "It spends no budget."
    : `It spends the \`${spec.category}\` budget${isCountedPerRow(spec.category) ? " (one per row returned)" : ""}${
      asInMail !== null && asInMail !== spec.category ? ` (\`${asInMail}\` when it goes as an InMail)` : ""
    }; over budget it is scheduled, not refused.`
  return `${approval} ${budget}`
}

const commandDescription = (spec: CommandSpec<CommandName>): string =>
  [
    `${spec.description} ${commandNotes(spec)}`,
    "",
    "Answers 202 at once with the job; follow it with `GET /v1/jobs/{id}?wait=60` or the `job.completed` / `job.failed` webhook.",
    "With an `Idempotency-Key`, a repeat with the same body answers the first job again with `idempotent-replayed: true`.",
    "404 `notFound`: no such account. 409 `conflict`: a request with the same Idempotency-Key is still being handled.",
    "422 `unprocessable`: the Idempotency-Key was used with a different body, or the account cannot take jobs."
  ].join("\n")

const accountId = { id: Uuid.annotate({ description: "The account (seat) that runs the command" }) }

const commandContract = <Name extends CommandName, I extends Schema.Top, R extends Schema.Top>(
  spec: CommandSpec<Name, CommandKind, I, R>
) => {
  const job = jobSchema(spec)
  const request = Schema.Struct({
    account: Uuid.annotate({ description: "The account (seat) that runs the command" }),
    command: Schema.Literal(spec.name).annotate({ description: "The command" }),
    input: spec.input.annotateKey({ description: `The input of \`${spec.name}\`` })
  }).annotate({
    identifier: `CreateJob_${spec.name}`,
    description: `Run \`${spec.name}\`: ${spec.description}`
  })
  const endpoint = HttpApiEndpoint.post(`command_${spec.name}`, `/v1/accounts/:id/${spec.name}`, {
    params: accountId,
    headers: idempotencyHeaders,
    payload: spec.input,
    success: acceptedJobSchema(job),
    error: [NotFound, Conflict, Unprocessable]
  }).annotateMerge(allowedTo("runCommands")).annotateMerge(OpenApi.annotations({
    summary: `${spec.name}: ${spec.description}`,
    description: commandDescription(spec)
  }))
  return {
    job,
    request: request.annotate({
      examples: validExamples(request, [{ account: exampleIds.account, command: spec.name, input: exampleOf(spec.input) }])
    }),
    endpoint
  }
}

/**
 * Every command's job schema, endpoint and `POST /v1/jobs` body. The key
 * check (`satisfies`) makes the table list every command of the catalogue,
 * and each entry is typed from its own catalogue entry.
 */
const contracts = {
  get_profile: commandContract(commands.get_profile),
  get_company: commandContract(commands.get_company),
  search_people: commandContract(commands.search_people),
  search_companies: commandContract(commands.search_companies),
  get_posts: commandContract(commands.get_posts),
  get_post: commandContract(commands.get_post),
  list_chats: commandContract(commands.list_chats),
  get_conversation: commandContract(commands.get_conversation),
  list_invites: commandContract(commands.list_invites),
  profile_viewers: commandContract(commands.profile_viewers),
  ssi: commandContract(commands.ssi),
  connect: commandContract(commands.connect),
  withdraw_invite: commandContract(commands.withdraw_invite),
  send_message: commandContract(commands.send_message),
  accept_invite: commandContract(commands.accept_invite),
  decline_invite: commandContract(commands.decline_invite),
  endorse: commandContract(commands.endorse),
  save_lead: commandContract(commands.save_lead),
  react: commandContract(commands.react),
  comment: commandContract(commands.comment),
  create_post: commandContract(commands.create_post)
} satisfies { readonly [C in CommandName]: { readonly job: { readonly fields: { readonly kind: Schema.Literal<C> } } } }

type Contracts = typeof contracts

const entries = Object.values(contracts)

/** The job record of one command (`Job_<command>` in the OpenAPI document). */
export const jobSchemaOf = <C extends CommandName>(command: C): Contracts[C]["job"] => contracts[command].job

/** A job of the command `C`: its `input` and `result` are that command's. */
export type JobOf<C extends CommandName> = Contracts[C]["job"]["Type"]

/** A job record: the union of the 21 `Job_<command>` records, told apart by `kind`. */
export const Job = Schema.Union(entries.map((entry) => entry.job)).annotate({
  identifier: "Job",
  description: "A job: what a command became. `kind` names the command and fixes the shape of `input` and `result`."
})
export type Job = typeof Job.Type

/**
 * Decodes a job in its JSON form (as stored, or as a replayed response) into
 * a {@link Job}; the input and result are checked against the command's schemas.
 */
export const decodeJob = Schema.decodeUnknownEffect(Schema.toCodecJson(Job))

/** The answer of `GET /v1/jobs/{id}` and `POST /v1/jobs/{id}/cancel`: the job. */
export const JobAnswer = Ok({ job: Job })

/** Decodes a job in its JSON form that must be of the command `command`. */
export const decodeJobOf = <C extends CommandName>(command: C) =>
  Schema.decodeUnknownEffect(Schema.toCodecJson(jobSchemaOf(command)))

/**
 * The 202 answer of a job-creating endpoint, with `idempotent-replayed: true`
 * when it repeats the first response of the same Idempotency-Key.
 */
export const acceptedJob = <J>(job: J, replayed: boolean) => acceptedAnswer({ ok: true as const, job }, replayed)

/** The name of the endpoint `POST /v1/accounts/{id}/<command>` (for the handlers). */
export const commandEndpointName = <C extends CommandName>(command: C): `command_${C}` => `command_${command}`

/** `POST /v1/jobs` body: `{account, command, input}`, the input checked against the command's schema. */
export const CreateJob = Schema.Union(entries.map((entry) => entry.request)).annotate({
  identifier: "CreateJob",
  description: "A command to run on an account: `command` picks the schema `input` must match"
})
export type CreateJob = typeof CreateJob.Type

// ---------------------------------------------------------------------------
// Reading, listing and cancelling jobs

const LIST_LIMIT_MAX = 200
export const LIST_LIMIT_DEFAULT = 50

export const jobId = { id: Uuid.annotate({ description: "The job's id" }) }

/** What an integer parameter accepts and says about itself. */
export interface IntegerRange {
  readonly minimum: number
  readonly maximum: number
  readonly description: string
  readonly example: number
}

/** An integer argument in JSON (the assistants' tools take numbers as numbers). */
export const integerArgument = (options: IntegerRange) =>
  Schema.Int.check(Schema.isBetween({ minimum: options.minimum, maximum: options.maximum })).annotate({
    description: options.description,
    examples: [options.example]
  })

/**
 * An integer query parameter. Its OpenAPI form is the query string's (a
 * string of digits), so the description and range are put there.
 */
export const integerQuery = (options: IntegerRange) =>
  Schema.String.check(Schema.isPattern(new RegExp(decimalRange(options.minimum, options.maximum), "u"))).annotate({
    description: options.description,
    examples: [String(options.example)]
  }).pipe(Schema.decodeTo(
    Schema.Int.check(Schema.isBetween({ minimum: options.minimum, maximum: options.maximum })),
    SchemaTransformation.numberFromString
  ))

/** The page size of lists: 1 to 200, default 50. */
export const listLimitRange: IntegerRange = {
  minimum: 1,
  maximum: LIST_LIMIT_MAX,
  description: `Items per page, 1 to ${LIST_LIMIT_MAX} (default ${LIST_LIMIT_DEFAULT})`,
  example: LIST_LIMIT_DEFAULT
}

/**
 * The page size of the lists: 1 to 200; left out, the handler takes `LIST_LIMIT_DEFAULT`.
 * Optional on both sides, so a typed client may leave it out too.
 */
export const ListLimit = Schema.optionalKey(integerQuery(listLimitRange))

/** An opaque page cursor: the `nextCursor` of the previous page. */
export const Cursor = Text.check(Schema.isMinLength(1), Schema.isMaxLength(200)).annotate({
  description: "The `nextCursor` of the previous page; omit for the first page",
  examples: ["am9iOjQy"]
})

const NextCursor = Schema.NullOr(Schema.String).annotate({
  description: "Pass as `cursor` for the next page; null on the last page"
})

/** The long-poll of a job, in seconds. */
export const waitRange: IntegerRange = {
  minimum: 0,
  maximum: MAX_WAIT_SECONDS,
  description: `Long-poll: wait up to this many seconds (0 to ${MAX_WAIT_SECONDS}) for the job to finish; the answer comes as soon as it does, or with the job as it is when the time is up`,
  example: MAX_WAIT_SECONDS
}

const Wait = integerQuery(waitRange)

const JobPage = Ok({
  jobs: Schema.Array(Job).annotate({ description: "Newest first" }),
  nextCursor: NextCursor
})

const jobPageExample = { ok: true, jobs: [exampleOf(contracts.connect.job)], nextCursor: "am9iOjQy" }

/** Commands and jobs: the 21 command endpoints, `POST /v1/jobs`, and reading, listing and cancelling jobs. */
/** The filters of `GET /v1/jobs` (and of the assistants' `list_jobs`). */
export const jobListQuery = {
  account: Schema.optionalKey(Uuid.annotate({ description: "Only this account's jobs", examples: [exampleIds.account] })),
  status: Schema.optionalKey(JobStatus.annotate({ description: "Only jobs in this status" })),
  kind: Schema.optionalKey(CommandNameSchema.annotate({ description: "Only jobs of this command" })),
  cursor: Schema.optionalKey(Cursor),
  limit: ListLimit
}

/** The long-poll of `GET /v1/jobs/{id}` (and of the assistants' `get_job`). */
export const jobWaitQuery = { wait: Schema.optionalKey(Wait) }

export class JobsApi extends HttpApiGroup.make("jobs")
  .add(
    HttpApiEndpoint.post("create", "/v1/jobs", {
      headers: idempotencyHeaders,
      payload: CreateJob,
      success: acceptedJobSchema(Job),
      error: [NotFound, Conflict, Unprocessable]
    }).annotateMerge(allowedTo("runCommands")).annotateMerge(OpenApi.annotations({
      summary: "Run a command",
      description: [
        "The same as `POST /v1/accounts/{account}/{command}` with the input as body; `input` is checked against the command's schema and a bad field is named as `input.<field>`.",
        "",
        "Answers 202 at once with the job. With an `Idempotency-Key`, a repeat with the same body answers the first job again with `idempotent-replayed: true`.",
        "404 `notFound`: no such account. 409 `conflict`: a request with the same Idempotency-Key is still being handled.",
        "422 `unprocessable`: the Idempotency-Key was used with a different body, or the account cannot take jobs."
      ].join("\n")
    })),
    HttpApiEndpoint.get("get", "/v1/jobs/:id", {
      params: jobId,
      query: jobWaitQuery,
      success: JobAnswer,
      error: NotFound
    }).annotateMerge(allowedTo("read")).annotateMerge(OpenApi.annotations({
      summary: "Get a job (long-poll with ?wait=)",
      description: `With \`wait\` (up to ${MAX_WAIT_SECONDS} seconds) the answer comes as soon as the job finishes, or with the job as it is when the time is up. Prefer this to tight polling: every request counts towards the 600 a minute.`
    })),
    HttpApiEndpoint.get("list", "/v1/jobs", {
      query: jobListQuery,
      success: JobPage.annotate({ examples: validExamples(JobPage, [jobPageExample]) }),
      error: Unprocessable
    }).annotateMerge(allowedTo("read")).annotateMerge(OpenApi.annotations({
      summary: "List jobs",
      description: "The workspace's jobs, newest first, filtered by account, status and command; paged with `cursor` and `limit`."
    })),
    HttpApiEndpoint.post("cancel", "/v1/jobs/:id/cancel", {
      params: jobId,
      success: JobAnswer,
      error: [NotFound, Conflict]
    }).annotateMerge(allowedTo("runCommands")).annotateMerge(OpenApi.annotations({
      summary: "Cancel a job",
      description:
        "Only before it starts (`queued`, `awaiting_approval`, `scheduled`): the job becomes `cancelled` with error `cancelled`, its pending approval is rejected, and `job.failed` is emitted. 409 `conflict` once it has started or finished."
    })),
    ...entries.map((entry) => entry.endpoint)
  )
  .middleware(Authentication)
  .annotateMerge(OpenApi.annotations({ title: "Jobs" }))
{}
