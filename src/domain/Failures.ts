/**
 * How a service says no, in its own words: five kinds of refusal, each with
 * the message a person reads and the `advice` the service knows (what the
 * caller can do, as facts: a record to read, a list to look at, an input to
 * fix). No HTTP status and no route here: the REST and MCP edges turn a
 * refusal into the API's error envelope, wording the advice as its `next`
 * (src/http/ServiceErrors.ts), and the contract (src/api/) lists the
 * resulting errors with their status.
 */
import { Data } from "effect"

/**
 * What the caller can do about a refusal. Each names a step, with the facts
 * the edge needs to word it; `Relayed` carries advice already worded by the
 * part that refused (the network, a profile address), passed on unchanged.
 */
export type Advice =
  // A record that is not there: look at the list it would be in.
  | { readonly _tag: "ListAccounts" }
  | { readonly _tag: "ListJobs" }
  | { readonly _tag: "ListKeys" }
  | { readonly _tag: "ListWorkflows" }
  | { readonly _tag: "ListAutomations" }
  | { readonly _tag: "ListApprovals" }
  | { readonly _tag: "ListWebhooks" }
  | { readonly _tag: "ListDeliveries"; readonly endpointId: string }
  | { readonly _tag: "SearchPeople" }
  | { readonly _tag: "ListWorkspaces" }
  | { readonly _tag: "AskForNewLink" }
  // A record in a state that refuses the request.
  | { readonly _tag: "ReadJob"; readonly jobId: string }
  | { readonly _tag: "ReadItsJob"; readonly jobId: string }
  | { readonly _tag: "FinishSignIn" }
  | { readonly _tag: "ReconnectFirst" }
  | { readonly _tag: "NothingToResume" }
  | { readonly _tag: "NoReconnectNeeded" }
  | { readonly _tag: "NothingToDo" }
  | { readonly _tag: "StartNativeAuth" }
  | { readonly _tag: "CompleteConnection" }
  | { readonly _tag: "StartNewWorkflow" }
  | { readonly _tag: "ResumeAutomation" }
  | { readonly _tag: "StartNewAutomation" }
  | { readonly _tag: "CreateJobAgain"; readonly kind: string }
  | { readonly _tag: "RetryWithSameKey" }
  // An input the service cannot take.
  | { readonly _tag: "OneTimezone" }
  | { readonly _tag: "FreeASeat" }
  | { readonly _tag: "LimitedPairs" }
  | { readonly _tag: "RetryCheckpoint" }
  | { readonly _tag: "NewIdempotencyKey" }
  | { readonly _tag: "RestartPaging"; readonly start: string }
  | { readonly _tag: "AssumeWrites"; readonly most: number; readonly commands: ReadonlyArray<string> }
  | { readonly _tag: "ApproveWithoutText" }
  | { readonly _tag: "FixApprovedText" }
  | { readonly _tag: "FixStepInputs" }
  | { readonly _tag: "ConnectOrInMail" }
  | { readonly _tag: "WeakerRole"; readonly role: string }
  | { readonly _tag: "SandboxWorkspace" }
  | { readonly _tag: "Relayed"; readonly next: string }

interface Refusal {
  /** What went wrong, for a person. */
  readonly message: string
  readonly advice: Advice
}

/** The record asked for is not in the caller's workspace (or does not exist). */
export class Missing extends Data.TaggedError("Missing")<Refusal> {}

/** The record's state refuses the request (already ended, not started, still in progress). */
export class WrongState extends Data.TaggedError("WrongState")<Refusal> {}

/** The input is understood but cannot be taken (it names nothing, it does not fit, it disagrees). */
export class Invalid extends Data.TaggedError("Invalid")<Refusal> {}

/** The caller may not do this (a role too weak for the key it asks for; every seat taken). */
export class Forbidden extends Data.TaggedError("Forbidden")<Refusal> {}

/** An approval's time ran out: the write was not sent and its job failed. */
export class Expired extends Data.TaggedError("Expired")<Refusal> {}

/** Any refusal of a service. */
export type Failure = Missing | WrongState | Invalid | Forbidden | Expired

/** Whether `error` is a service's refusal. */
export const isFailure = (error: unknown): error is Failure =>
  error instanceof Missing || error instanceof WrongState || error instanceof Invalid || error instanceof Forbidden ||
  error instanceof Expired

/** A refusal whose advice was worded by the part that refused (the network, a profile address). */
export const relayed = (error: { readonly message: string; readonly next: string }): Refusal => ({
  message: error.message,
  advice: { _tag: "Relayed", next: error.next }
})
