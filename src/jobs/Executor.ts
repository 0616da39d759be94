/**
 * Runs one started job on the network: the guardrails a write must pass
 * first, the driver call, and what the job spent. It never moves the job's
 * status: the Governor records the attempt before and the ending after
 * (a `connect` or `send_message` is linked to its person as it runs, in its
 * claim of the person: `PersonClaim.ts`).
 */
import { Context, Data, Effect, Layer, Option, Schema } from "effect"
import type { AccountRow } from "../accounts/AccountRow.ts"
import { categoryOfJob, type CommandName, commands, isCommandName, isWriteCommand } from "../domain/Commands.ts"
import { checkInviteQuality } from "../domain/InviteQuality.ts"
import type { JobFailure } from "../domain/Job.ts"
import { type Category, isCountedPerRow } from "../domain/Limits.ts"
import { callsOf, NetworkDriver } from "../network/NetworkDriver.ts"
import type { NetworkError } from "../network/NetworkErrors.ts"
import { otherSeatRefusal } from "../people/People.ts"
import * as Spans from "../platform/Spans.ts"
import { JobStore } from "./JobStore.ts"
import * as PeopleOnJobs from "./PeopleOnJobs.ts"
import * as PersonClaim from "./PersonClaim.ts"
import type { JobRow } from "./JobRow.ts"

/** What running a job came to. */
export type Outcome =
  | {
    readonly _tag: "Completed"
    readonly result: unknown
    readonly spend: { readonly category: Category; readonly units: number } | null
  }
  | { readonly _tag: "Failed"; readonly error: JobFailure }
  /** A write given up before its driver call (its lease or its owner would not hold): it surely did not go out. */
  | { readonly _tag: "NotSent"; readonly reason: string }
  /** A write whose call may have reached the network but whose answer never came (its deadline, a lease lost). */
  | { readonly _tag: "Unsettled"; readonly reason: string }

/** A write given up before its driver call. */
export class GaveUp extends Data.TaggedError("GaveUp")<{ readonly reason: string }> {}
/** A write whose driver call was cut off before it answered. */
export class Unanswered extends Data.TaggedError("Unanswered")<{ readonly reason: string }> {}

/**
 * How a write reaches the network, given by its owner: `send` records the attempt with its fencing token,
 * makes sure the owner's lease outlasts the call's deadline, then runs the driver call bounded by it.
 */
export interface WriteGate {
  /** The attempt's fencing token (the owner's epoch of the account). */
  readonly fence: number
  readonly send: <A>(call: Effect.Effect<A, NetworkError>) => Effect.Effect<A, NetworkError | GaveUp | Unanswered>
}

/**
 * What a write that a crash left running came to, as the network knows it: `Completed` with its
 * result when it happened, `Failed` with the network's error when the network refused it,
 * `NotReached` when it surely did not reach it, `Unknown` when the driver cannot tell.
 */
export type Recovery =
  | Extract<Outcome, { readonly _tag: "Completed" }>
  | Extract<Outcome, { readonly _tag: "Failed" }>
  | { readonly _tag: "NotReached" }
  | { readonly _tag: "Unknown" }

const unknown: Recovery = { _tag: "Unknown" }

const failed = (error: JobFailure): Extract<Outcome, { readonly _tag: "Failed" }> => ({ _tag: "Failed", error })

const fromNetwork = (error: NetworkError): Extract<Outcome, { readonly _tag: "Failed" }> =>
  failed(error.until === undefined
    ? { type: error.type, message: error.message, next: error.next }
    : { type: error.type, message: error.message, next: error.next, until: error.until })

/** How many units a finished job spends: rows returned for searches, else one. */
const unitsOf = (category: Category, result: unknown): number => {
  if (!isCountedPerRow(category)) return 1
  const items = typeof result === "object" && result !== null && "items" in result ? result.items : undefined
  return Array.isArray(items) ? items.length : 0
}

/** A job completed with `result` (encoded by its command's schema), and what it spent. */
const completed = (kind: string, input: unknown, result: unknown): Extract<Outcome, { readonly _tag: "Completed" }> => {
  const category = categoryOfJob(kind, input)
  return { _tag: "Completed", result, spend: category === null ? null : { category, units: unitsOf(category, result) } }
}

export class Executor extends Context.Service<Executor, {
  /**
   * Runs a started job as its account; never fails (a refusal is a `Failed` outcome). A write reaches the
   * network only through its `gate`.
   */
  readonly run: (job: JobRow, account: AccountRow, gate: WriteGate | null) => Effect.Effect<Outcome>
  /**
   * Asks the network whether a write whose answer is unknown happened (`NetworkDriver.outcomeOf`), as the
   * account's owner of epoch `fence`.
   */
  readonly recover: (job: JobRow, fence: number) => Effect.Effect<Recovery>
}>()("outreach/JobExecutor") {
  static readonly layerNoDeps = Layer.effect(
    Executor,
    Effect.gen(function*() {
      const network = yield* NetworkDriver
      const claimPerson = yield* PersonClaim.make

      /**
       * Before a `connect` or a `send_message`: the person, as the network shows them to the account, recorded
       * in People with the job; an invitation must clear the target's quality; and neither may reach a person
       * another seat of the workspace holds (People's cross-seat rule), which fails naming that seat.
       */
      const guardrails = (job: JobRow, account: AccountRow, kind: "connect" | "send_message", input: unknown) =>
        Effect.gen(function*() {
          const person = yield* personAddressOf(account, kind, input)
          if (person === null) return null
          const profile = yield* network.read(account.id, "get_profile", { person })
          if (kind === "connect") {
            const low = checkInviteQuality(profile, account.minInviteQuality)
            if (low !== null) return low
          }
          const other = yield* claimPerson({ job, profile, about: kind === "connect" ? "invitation" : "message" })
          return other === undefined ? null : otherSeatRefusal(profile.name, other)
        })

      /** The address of the person a `connect` or `send_message` is for (a chat leads to its attendee). */
      const personAddressOf = (account: AccountRow, kind: "connect" | "send_message", input: unknown) =>
        Effect.gen(function*() {
          const fields: Readonly<Record<string, unknown>> = typeof input === "object" && input !== null ? { ...input } : {}
          const person = fields["person"]
          if (typeof person === "string") return person
          const chatId = fields["chatId"]
          if (kind !== "send_message" || typeof chatId !== "string") return null
          const conversation = yield* network.read(account.id, "get_conversation", { chatId })
          return conversation.attendee.providerId
        })

      const calls = callsOf(network)

      const call = <C extends CommandName>(job: JobRow, kind: C, input: unknown, account: AccountRow, gate: WriteGate | null) =>
        Effect.gen(function*() {
          const ready = calls[kind](input)
          if (Option.isNone(ready)) {
            return failed({
              type: "invalidInput",
              message: `The stored input of this ${kind} job no longer fits the command.`,
              next: "Create the job again with a valid input."
            })
          }
          if (kind === "connect" || kind === "send_message") {
            const refusal = yield* guardrails(job, account, kind, input)
            if (refusal !== null) return failed(refusal)
          }
          const send = ready.value(account.id, { key: job.id, fence: gate?.fence ?? 0 })
          if (isWriteCommand(kind) && gate === null) return yield* Effect.die(new Error(`write ${job.id} was run without its gate`))
          const result: unknown = gate !== null && isWriteCommand(kind) ? yield* gate.send(send) : yield* send
          // Synchronous: one effect, not an encoding effect per job (a result that does not fit is a defect either way).
          const encoded = yield* Effect.sync(() => Schema.encodeUnknownSync(commands[kind].result)(result))
          return completed(kind, input, encoded)
        }).pipe(
          Effect.catchTags({
            NetworkError: (error) => Effect.succeed(fromNetwork(error)),
            GaveUp: ({ reason }): Effect.Effect<Outcome> => Effect.succeed({ _tag: "NotSent", reason }),
            Unanswered: ({ reason }): Effect.Effect<Outcome> => Effect.succeed({ _tag: "Unsettled", reason })
          })
        )

      const run = (job: JobRow, account: AccountRow, gate: WriteGate | null) =>
        isCommandName(job.kind)
          ? call(job, job.kind, job.input, account, gate).pipe(
            Effect.withSpan("Executor.run", { attributes: { "job.id": job.id, "job.kind": job.kind } }, Spans.perJob)
          )
          : Effect.succeed(failed({
            type: "invalidInput",
            message: `Unknown command ${job.kind}.`,
            next: "Create the job with one of the commands in the API reference."
          }))

      const recover = (job: JobRow, fence: number): Effect.Effect<Recovery> =>
        Effect.gen(function*() {
          const kind = job.kind
          if (network.outcomeOf === undefined || !isWriteCommand(kind)) return unknown
          const known = yield* network.outcomeOf(job.accountId, kind, job.id, fence)
          if (known._tag === "NotHappened") return { _tag: "NotReached" } as const
          if (known._tag === "Refused") return fromNetwork(known.error)
          if (known._tag === "Unknown") return unknown
          const spec = commands[kind]
          // The driver's record is checked like any result; one that does not fit cannot be trusted.
          const decoded = yield* Schema.decodeUnknownEffect(spec.result)(known.result).pipe(Effect.option)
          if (decoded._tag === "None") return unknown
          const result = yield* Schema.encodeUnknownEffect(spec.result)(decoded.value).pipe(Effect.orDie)
          return completed(kind, job.input, result)
        }).pipe(
          Effect.catchTag("NetworkError", () => Effect.succeed(unknown)),
          Effect.withSpan("Executor.recover", { attributes: { "job.id": job.id, "job.kind": job.kind } })
        )

      return Executor.of({ run, recover })
    })
  )

  /** `layerNoDeps` with its services' layers. */
  static readonly layer = Executor.layerNoDeps.pipe(Layer.provide([JobStore.layer, PeopleOnJobs.layer]))
}
