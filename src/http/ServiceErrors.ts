/**
 * The one mapping from a service's refusal (domain/Failures.ts) to the API's
 * error (api/Errors.ts): the kind gives the error type and so its HTTP
 * status, the message is the service's, and the advice is worded here as the
 * envelope's `next`, with the routes that carry it out. REST handlers, the
 * dashboard and the MCP tools all answer through it, so a caller reads the
 * same words everywhere.
 */
import { Effect } from "effect"
import { ApprovalExpired, Conflict, NotAllowed, NotFound, Unprocessable } from "../api/Errors.ts"
import {
  type Advice,
  type Expired,
  type Failure,
  type Forbidden,
  type Invalid,
  isFailure,
  type Missing,
  type WrongState
} from "../domain/Failures.ts"

/** The advice as the API's `next`: what to do, with the route that does it. */
export const nextOf = (advice: Advice): string => {
  switch (advice._tag) {
    case "ListAccounts":
      return "List the workspace's accounts with GET /v1/accounts."
    case "ListJobs":
      return "List the workspace's jobs with GET /v1/jobs."
    case "ListKeys":
      return "List the workspace's keys with GET /v1/keys."
    case "ListWorkflows":
      return "List the workspace's workflows with GET /v1/workflows."
    case "ListAutomations":
      return "List the workspace's automations with GET /v1/automations."
    case "ListApprovals":
      return "List pending approvals with GET /v1/approvals."
    case "ListWebhooks":
      return "List the endpoints with GET /v1/webhooks."
    case "ListDeliveries":
      return `List its deliveries with GET /v1/webhooks/${advice.endpointId}/deliveries.`
    case "SearchPeople":
      return "Search the workspace's people with GET /v1/people."
    case "ListWorkspaces":
      return "List workspaces with `npm run cli -- workspace list`."
    case "AskForNewLink":
      return "Ask for a new link: POST /v1/accounts/{id}/reconnect."
    case "ReadJob":
      return `Read it with GET /v1/jobs/${advice.jobId}.`
    case "ReadItsJob":
      return `Read its job with GET /v1/jobs/${advice.jobId}.`
    case "FinishSignIn":
      return "Finish the sign-in first (connectUrl), or disconnect the account."
    case "ReconnectFirst":
      return "Reconnect the account first (POST /v1/accounts/{id}/reconnect)."
    case "NothingToResume":
      return "Nothing to resume; GET /v1/accounts/{id} shows its status."
    case "NoReconnectNeeded":
      return "Nothing to do; a link is only needed after the network signs the account out."
    case "NothingToDo":
      return "Nothing to do."
    case "StartNativeAuth":
      return "Start with POST /v1/accounts/{id}/native-auth."
    case "CompleteConnection":
      return "Complete the connection first."
    case "StartNewWorkflow":
      return "Start a new workflow with POST /v1/workflows."
    case "ResumeAutomation":
      return "Resume it with POST /v1/automations/{id}/resume."
    case "StartNewAutomation":
      return "Start a new automation with POST /v1/automations."
    case "CreateJobAgain":
      return `Create the ${advice.kind} job again if it should still go out.`
    case "RetryWithSameKey":
      return "Retry in a moment with the same key and body to get its response."
    case "OneTimezone":
      return "Send one of them, or the same zone in both."
    case "FreeASeat":
      return "Disconnect an account with DELETE /v1/accounts/{id}, or ask for more seats."
    case "LimitedPairs":
      return "GET /v1/accounts/{id}/limits lists every category and period that has a limit."
    case "RetryCheckpoint":
      return "Check the code and call native-checkpoint again."
    case "NewIdempotencyKey":
      return "Use a new Idempotency-Key for a different request."
    case "RestartPaging":
      return `Pass the nextCursor of the previous page unchanged, or leave it out to start from ${advice.start}.`
    case "AssumeWrites":
      return `Give write commands with a count, such as assume=connect:300,send_message:20 (at most ${advice.most} writes in all); the write commands are ${
        advice.commands.join(", ")
      }.`
    case "ApproveWithoutText":
      return "Approve without a body, or reject it and create the job you want."
    case "FixApprovedText":
      return "Shorten or fix the text and approve again."
    case "FixStepInputs":
      return "Fix the steps' inputs named in the message; each is the input of its command as POST /v1/accounts/{id}/{command} takes it."
    case "ConnectOrInMail":
      return "Connect with them first, or set inmail: true on the messages to send InMails (where the account's tier has credits)."
    case "WeakerRole":
      return `Choose the ${advice.role} role or a weaker one (admin, member, read_only), or ask an owner.`
    case "SandboxWorkspace":
      return "Create a sandbox workspace (--network sandbox), or give this server the Unipile settings and the system clock."
    case "Relayed":
      return advice.next
  }
}

/** The API's error for each kind of refusal. */
export type ApiErrorOf<E> = E extends Missing ? NotFound
  : E extends WrongState ? Conflict
  : E extends Invalid ? Unprocessable
  : E extends Forbidden ? NotAllowed
  : E extends Expired ? ApprovalExpired
  : E

/** A refusal as the API's error: its kind's type and status, its message, its advice as `next`. */
export const apiErrorOf = (failure: Failure): NotFound | Conflict | Unprocessable | NotAllowed | ApprovalExpired => {
  const error = { message: failure.message, next: nextOf(failure.advice) }
  switch (failure._tag) {
    case "Missing":
      return new NotFound({ error })
    case "WrongState":
      return new Conflict({ error })
    case "Invalid":
      return new Unprocessable({ error })
    case "Forbidden":
      return new NotAllowed({ error })
    case "Expired":
      return new ApprovalExpired({ error })
  }
}

/**
 * `effect` with its refusals as the API's errors (each kind to its error, as
 * `ApiErrorOf` says); other errors pass unchanged. What a handler wraps a
 * service call in.
 */
export function speak<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, ApiErrorOf<E>, R>
// The signature above states per kind what `apiErrorOf` does per value, which the compiler cannot follow.
export function speak<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, unknown, R> {
  return Effect.mapError(effect, (error) => isFailure(error) ? apiErrorOf(error) : error)
}

/** Each method of a service, answering its refusals as the API's errors (`speak`). */
export type Spoken<S> = {
  readonly [K in keyof S]: S[K] extends (...args: infer P) => Effect.Effect<infer A, infer E, infer R>
    ? (...args: P) => Effect.Effect<A, ApiErrorOf<E>, R>
    : S[K]
}

/**
 * `service` as a handler sees it: every method that answers an effect answers it through `speak`.
 * A handler group takes its services through this once, when it is built.
 */
export function spoken<S extends object>(service: S): Spoken<S>
// As for `speak`: the signature above states per method what the wrapping below does.
export function spoken(service: object): object {
  return Object.fromEntries(Object.entries(service).map(([name, member]) => [
    name,
    typeof member === "function"
      ? (...args: ReadonlyArray<unknown>) => {
        const answer: unknown = member.apply(service, args)
        return Effect.isEffect(answer) ? speak(answer) : answer
      }
      : member
  ]))
}

/** `f` answering its refusals as the API's errors (`speak`): for a service's function, such as an intake's starter. */
export const spokenFn = <P extends ReadonlyArray<unknown>, A, E, R>(f: (...args: P) => Effect.Effect<A, E, R>) =>
(...args: P): Effect.Effect<A, ApiErrorOf<E>, R> => speak(f(...args))

/** What an API error or a service's refusal says in the envelope: its type, message and `next`. */
export const wordsOf = (
  failure: Failure | { readonly error: { readonly type: string; readonly message: string; readonly next: string } }
): { readonly type: string; readonly message: string; readonly next: string } => {
  const { error } = isFailure(failure) ? apiErrorOf(failure) : failure
  return { type: error.type, message: error.message, next: error.next }
}
