/**
 * A workflow as the service shows it (where it is, its jobs and its log), and
 * what starting one takes: the records of `/v1/workflows`, for REST and
 * assistants alike.
 */
import { Schema } from "effect"
import { DateTimeString, Uuid } from "./Formats.ts"
import { JobStatus } from "./Job.ts"
import { Text } from "./Text.ts"
import { Steps, WorkflowStatus, WorkflowWaitReason } from "./Workflow.ts"

const exampleSteps = [
  { type: "command", command: "get_profile" },
  { type: "command", command: "connect", input: { note: "Hi María, enjoyed your post on pipeline reviews." } },
  {
    type: "waitFor",
    condition: { type: "accepted" },
    timeoutSeconds: 1_209_600,
    then: [{ type: "command", command: "send_message", input: { text: "Thanks for connecting, María!" } }],
    else: [{ type: "command", command: "withdraw_invite" }]
  }
] as const

/** A workflow as the API shows it: where it is, its jobs and its log. */
export const Workflow = Schema.Struct({
  id: Uuid,
  accountId: Uuid,
  automationId: Schema.NullOr(Uuid).annotate({ description: "The automation this run belongs to, or null" }),
  person: Schema.String.annotate({ description: "The profile address of the person the workflow is about" }),
  status: WorkflowStatus,
  paused: Schema.Boolean.annotate({ description: "Paused: the next command step waits until it is resumed" }),
  step: Schema.NullOr(Schema.String).annotate({
    description: "The step under way or last started, in words: its path (`2.then.0`) and what it does; null before the first. `stepAt` has the same in fields."
  }),
  stepAt: Schema.NullOr(Schema.Struct({
    path: Schema.String.annotate({ description: "Where the step is in `steps`: indexes and branches, `2.then.0`" }),
    index: Schema.Int.annotate({ description: "Its position in the list that holds it, from 0" }),
    depth: Schema.Int.annotate({ description: "1 for the workflow's own list, 2 inside a branch, ..." }),
    type: Schema.Literals(["command", "wait", "waitFor", "if"]),
    command: Schema.NullOr(Schema.String).annotate({ description: "The command of a command step; null for other steps" })
  })).annotate({ description: "The step under way or last started, as fields; null before the first" }),
  waitingFor: Schema.NullOr(Schema.Struct({
    reason: WorkflowWaitReason,
    what: Schema.String.annotate({
      description: "Deprecated (kept for one release; use `reason`): what it waits for, in words",
      deprecated: true
    }),
    until: Schema.NullOr(DateTimeString).annotate({ description: "When the wait ends at the latest; null: no limit" })
  })).annotate({ description: "What the workflow waits for while `waiting`: `{reason, until}` like a job's" }),
  outcome: Schema.NullOr(Schema.String).annotate({ description: "How it ended, in words; null while it runs" }),
  error: Schema.Unknown.annotate({ description: "When `failed`: the error of the job that failed; else null" }),
  steps: Steps,
  jobs: Schema.Array(Schema.Struct({
    path: Schema.String.annotate({ description: "The step that created the job" }),
    jobId: Uuid,
    kind: Schema.String,
    status: JobStatus
  })).annotate({ description: "The jobs its command steps created, oldest first (each also on GET /v1/jobs/{id})" }),
  log: Schema.Array(Schema.Struct({
    at: DateTimeString,
    path: Schema.NullOr(Schema.String),
    entry: Schema.String
  })).annotate({ description: "What happened, oldest first: steps started, jobs created, branches taken, the end" }),
  createdAt: DateTimeString,
  updatedAt: DateTimeString,
  finishedAt: Schema.NullOr(DateTimeString)
}).annotate({
  identifier: "Workflow",
  examples: [{
    id: "3b0f7c1e-2d4a-4e5f-8a6b-7c8d9e0f1a2b",
    accountId: "7f0c2f6e-5a7b-4d1c-9a44-1d2b3c4d5e6f",
    automationId: null,
    person: "https://www.linkedin.com/in/maria-garcia-3a9f02c1b",
    status: "waiting",
    paused: false,
    step: "2: wait up to 1209600 s for the invitation to be accepted",
    stepAt: { path: "2", index: 2, depth: 1, type: "waitFor", command: null },
    waitingFor: { reason: "condition", what: "the invitation to be accepted", until: "2026-12-05T09:30:00.000Z" },
    outcome: null,
    error: null,
    steps: exampleSteps,
    jobs: [
      { path: "0", jobId: "0c5e2b1a-9f8d-4c7b-a6e5-d4c3b2a1f0e9", kind: "get_profile", status: "completed" },
      { path: "1", jobId: "1d6f3c2b-0a9e-4d8c-b7f6-e5d4c3b2a1f0", kind: "connect", status: "completed" }
    ],
    log: [
      { at: "2026-11-21T09:30:00.000Z", path: null, entry: "created" },
      { at: "2026-11-21T09:30:00.000Z", path: "0", entry: "started get_profile" }
    ],
    createdAt: "2026-11-21T09:30:00.000Z",
    updatedAt: "2026-11-21T09:41:12.000Z",
    finishedAt: null
  }]
})

/** `POST /v1/workflows` body. */
export const StartWorkflow = Schema.Struct({
  account: Uuid.annotate({ description: "The account that runs every step" }),
  person: Text.check(Schema.isMinLength(1), Schema.isMaxLength(400)).annotate({
    description: "The person the workflow is about (a profile address); conditions watch this person, and command steps take them as `person` unless their input names someone",
    examples: ["https://www.linkedin.com/in/maria-garcia-3a9f02c1b"]
  }),
  steps: Steps
}).annotate({
  identifier: "StartWorkflow",
  examples: [{ account: "7f0c2f6e-5a7b-4d1c-9a44-1d2b3c4d5e6f", person: "https://www.linkedin.com/in/maria-garcia-3a9f02c1b", steps: exampleSteps }]
})
