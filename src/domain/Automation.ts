/**
 * What an automation is: one follow-up sequence (a message, then follow-ups
 * each a number of days after the one before) for a list of people, and how a
 * sequence becomes the steps of each person's workflow. The schemas here are
 * the API's.
 */
import { Schema } from "effect"
import { MESSAGE_MAX, NonBlankText } from "./CommandInputs.ts"
import type { Step } from "./Workflow.ts"

/** The most messages in one sequence, and people in one automation. */
export const MAX_MESSAGES = 5
export const MAX_PEOPLE = 100

/** One message of a sequence; every one but the first says how many days after the previous it goes. */
export const SequenceMessage = Schema.Struct({
  text: NonBlankText(MESSAGE_MAX, `The message, 1 to ${MESSAGE_MAX} characters`),
  afterDays: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 90 })).annotate({
    description: "Days after the previous message (1 to 90); required for every message but the first"
  })),
  inmail: Schema.optionalKey(Schema.Boolean.annotate({
    description: "Send it as an InMail to a person who is not a connection and has not written to the account (spends the inmails budget; free accounts have no credits). Without it such a person's run fails with guardrail: the network delivers messages only to connections."
  }))
})
export type SequenceMessage = typeof SequenceMessage.Type

export const Sequence = Schema.Array(SequenceMessage).check(
  Schema.isMinLength(1),
  Schema.isMaxLength(MAX_MESSAGES),
  Schema.makeFilter(
    (messages: ReadonlyArray<SequenceMessage>) =>
      messages.every((message, i) => (i === 0) === (message.afterDays === undefined)) ||
      "The first message goes at once (no afterDays); every later one needs afterDays.",
    {
      expected: "a first message without afterDays, then messages with afterDays",
      toJsonSchema: () => ({
        prefixItems: [{ not: { required: ["afterDays"] } }],
        items: { required: ["afterDays"] }
      })
    }
  )
).annotate({
  description: `The first message and up to ${MAX_MESSAGES - 1} follow-ups`,
  examples: [[
    { text: "Hi Ana, thanks for connecting! We help ops teams cut onboarding time in half. Worth a chat?" },
    { text: "Following up on my note: happy to share a 2-minute demo video.", afterDays: 3 },
    { text: "Last note from me: if the timing is wrong, no worries at all.", afterDays: 7 }
  ]]
})

/** A sequence as the steps of one person's workflow. */
export const stepsOf = (messages: ReadonlyArray<SequenceMessage>): ReadonlyArray<Step> =>
  messages.flatMap((message): ReadonlyArray<Step> => [
    ...(message.afterDays === undefined ? [] : [{ type: "wait" as const, seconds: message.afterDays * 86_400 }]),
    {
      type: "command",
      command: "send_message",
      input: message.inmail === true ? { text: message.text, inmail: true } : { text: message.text }
    }
  ])

/** An automation's status: `finished` once every run has ended. */
export type AutomationStatus = "active" | "paused" | "stopped" | "finished"
