/**
 * An automation as the service shows it (its messages and each person's run),
 * and what starting one takes: the records of `/v1/automations`, for REST and
 * assistants alike.
 */
import { Schema } from "effect"
import { MAX_PEOPLE, Sequence } from "./Automation.ts"
import { DateTimeString, Uuid } from "./Formats.ts"
import { Text } from "./Text.ts"
import { WorkflowStatus } from "./Workflow.ts"

const exampleMessages = [
  { text: "Hi Ana, thanks for connecting! We help ops teams cut onboarding time in half. Worth a chat?" },
  { text: "Following up on my note: happy to share a 2-minute demo video.", afterDays: 3 },
  { text: "Last note from me: if the timing is wrong, no worries at all.", afterDays: 7 }
]

export const Automation = Schema.Struct({
  id: Uuid,
  accountId: Uuid,
  name: Schema.String,
  status: Schema.Literals(["active", "paused", "stopped", "finished"]).annotate({
    description: "active; paused (every run holds its next message); stopped (every run cancelled); finished (every run ended)"
  }),
  messages: Sequence,
  runs: Schema.Array(Schema.Struct({
    person: Schema.String,
    workflowId: Uuid.annotate({ description: "The run's workflow: GET /v1/workflows/{id} for its jobs and log" }),
    status: WorkflowStatus,
    step: Schema.NullOr(Schema.String),
    outcome: Schema.NullOr(Schema.String).annotate({ description: "How the run ended, e.g. `the person replied`" })
  })).annotate({ description: "One run per person, in the order given" }),
  createdAt: DateTimeString,
  updatedAt: DateTimeString
}).annotate({
  identifier: "Automation",
  examples: [{
    id: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
    accountId: "7f0c2f6e-5a7b-4d1c-9a44-1d2b3c4d5e6f",
    name: "Q4 follow-ups",
    status: "active",
    messages: exampleMessages,
    runs: [
      {
        person: "https://www.linkedin.com/in/ana-silva-77b1c2",
        workflowId: "3b0f7c1e-2d4a-4e5f-8a6b-7c8d9e0f1a2b",
        status: "stopped",
        step: "1: wait 259200 s",
        outcome: "the person replied"
      },
      {
        person: "https://www.linkedin.com/in/tomas-berg-19ad02",
        workflowId: "4c1a8d2f-3e5b-4f6a-9b7c-8d9e0f1a2b3c",
        status: "waiting",
        step: "1: wait 259200 s",
        outcome: null
      }
    ],
    createdAt: "2026-11-21T09:30:00.000Z",
    updatedAt: "2026-11-21T09:30:00.000Z"
  }]
})

export const StartAutomation = Schema.Struct({
  account: Uuid.annotate({ description: "The account that sends every message" }),
  name: Text.check(Schema.isMinLength(1), Schema.isMaxLength(120)).annotate({ examples: ["Q4 follow-ups"] }),
  people: Schema.Array(Text.check(Schema.isMinLength(1), Schema.isMaxLength(400))).check(
    Schema.isMinLength(1),
    Schema.isMaxLength(MAX_PEOPLE)
  ).annotate({
    description: `Profile addresses, 1 to ${MAX_PEOPLE}; each gets the sequence in a run of its own`,
    examples: [["https://www.linkedin.com/in/ana-silva-77b1c2", "https://www.linkedin.com/in/tomas-berg-19ad02"]]
  }),
  messages: Sequence
}).annotate({
  identifier: "StartAutomation",
  examples: [{
    account: "7f0c2f6e-5a7b-4d1c-9a44-1d2b3c4d5e6f",
    name: "Q4 follow-ups",
    people: ["https://www.linkedin.com/in/ana-silva-77b1c2", "https://www.linkedin.com/in/tomas-berg-19ad02"],
    messages: exampleMessages
  }]
})
