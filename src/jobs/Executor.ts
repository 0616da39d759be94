/**
 * Runs one started job on the network: the guardrails a write must pass
 * first, the driver call, and what the job spent. It never touches the job's
 * row: the Governor records the attempt before and the ending after.
 *
 * @since 1.0.0
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { AccountRow } from "../accounts/AccountRow.ts"
import { type CommandName, commands, isCommandName } from "../commands/Commands.ts"
import { checkInviteQuality } from "../domain/InviteQuality.ts"
import type { JobFailure } from "../domain/Job.ts"
import { categoryOfCommand, type Category, isCountedPerRow } from "../domain/Limits.ts"
import { NetworkDriver } from "../network/NetworkDriver.ts"
import type { NetworkError } from "../network/NetworkErrors.ts"
import type { JobRow } from "./JobRow.ts"
import { targetOf } from "./WriteTarget.ts"

/** What running a job came to. */
export type Outcome =
  | {
    readonly _tag: "Completed"
    readonly result: unknown
    readonly spend: { readonly category: Category; readonly units: number } | null
  }
  | { readonly _tag: "Failed"; readonly error: JobFailure }

const failed = (error: JobFailure): Outcome => ({ _tag: "Failed", error })

const fromNetwork = (error: NetworkError): Outcome =>
  failed(error.until === undefined
    ? { type: error.type, message: error.message, next: error.next }
    : { type: error.type, message: error.message, next: error.next, until: error.until })

/** The budget category a job spends, from its command and input. */
export const categoryOfJob = (kind: string, input: unknown): Category | null => {
  const asInMail = typeof input === "object" && input !== null && "inmail" in input && input.inmail === true
  return categoryOfCommand(kind, { asInMail })
}

/** How many units a finished job spends: rows returned for searches, else one. */
const unitsOf = (category: Category, result: unknown): number => {
  if (!isCountedPerRow(category)) return 1
  const items = typeof result === "object" && result !== null && "items" in result ? result.items : undefined
  return Array.isArray(items) ? items.length : 0
}

const OtherInvite = Schema.Struct({ label: Schema.String, finishedAt: Schema.Unknown })
const decodeOtherInvites = Schema.decodeUnknownEffect(Schema.Array(OtherInvite))

export class Executor extends Context.Service<Executor, {
  /** Runs a started job as its account; never fails (a refusal is a `Failed` outcome). */
  readonly run: (job: JobRow, account: AccountRow) => Effect.Effect<Outcome>
}>()("outreach/JobExecutor") {
  static readonly layer = Layer.effect(
    Executor,
    Effect.gen(function*() {
      const network = yield* NetworkDriver
      const sql = yield* SqlClient.SqlClient

      /** Another seat of the workspace has an invitation out to this person (not withdrawn). */
      const otherSeatInvite = (account: AccountRow, providerId: string) =>
        sql`
          SELECT a.label, j.finished_at AS "finishedAt" FROM jobs j JOIN accounts a ON a.id = j.account_id
          WHERE j.workspace_id = ${account.workspaceId} AND j.account_id <> ${account.id} AND a.removed_at IS NULL
            AND j.kind = 'connect' AND j.status = 'completed' AND j.result -> 'person' ->> 'providerId' = ${providerId}
            AND NOT EXISTS (
              SELECT 1 FROM jobs w WHERE w.account_id = j.account_id AND w.kind = 'withdraw_invite'
                AND w.status = 'completed' AND w.result ->> 'invitationId' = j.result ->> 'invitationId')
          ORDER BY j.seq DESC LIMIT 1`.pipe(
          Effect.flatMap(decodeOtherInvites),
          Effect.map((found) => found[0]),
          Effect.orDie
        )

      /** The guardrails of `connect`: the target's quality, and no other seat inviting them at once. */
      const connectGuardrails = (account: AccountRow, person: string) =>
        Effect.gen(function*() {
          const profile = yield* network.read(account.id, "get_profile", { person })
          const low = checkInviteQuality(profile, account.minInviteQuality)
          if (low !== null) return low
          const other = yield* otherSeatInvite(account, profile.providerId)
          if (other === undefined) return null
          const failure: JobFailure = {
            type: "guardrail",
            message: `${profile.name} already has an invitation from another seat of this workspace (${other.label}).`,
            next: "Let that invitation run its course, or withdraw it from that account first."
          }
          return failure
        })

      const call = (kind: CommandName, input: unknown, account: AccountRow) =>
        Effect.gen(function*() {
          const spec = commands[kind]
          const decoded = yield* Schema.decodeUnknownEffect(spec.input)(input).pipe(Effect.option)
          if (decoded._tag === "None") {
            return failed({
              type: "invalidInput",
              message: `The stored input of this ${kind} job no longer fits the command.`,
              next: "Create the job again with a valid input."
            })
          }
          const person = kind === "connect" ? targetOf(input) : null
          if (person !== null) {
            const refusal = yield* connectGuardrails(account, person)
            if (refusal !== null) return failed(refusal)
          }
          const result: unknown = spec.kind === "read"
            ? yield* network.read(account.id, kind as never, decoded.value as never)
            : yield* network.write(account.id, kind as never, decoded.value as never)
          const encoded = yield* Schema.encodeUnknownEffect(spec.result)(result).pipe(Effect.orDie)
          const category = categoryOfJob(kind, input)
          const outcome: Outcome = {
            _tag: "Completed",
            result: encoded,
            spend: category === null ? null : { category, units: unitsOf(category, encoded) }
          }
          return outcome
        }).pipe(Effect.catchTag("NetworkError", (error) => Effect.succeed(fromNetwork(error))))

      const run = (job: JobRow, account: AccountRow) =>
        isCommandName(job.kind)
          ? call(job.kind, job.input, account).pipe(
            Effect.withSpan("Executor.run", { attributes: { "job.id": job.id, "job.kind": job.kind } })
          )
          : Effect.succeed(failed({
            type: "invalidInput",
            message: `Unknown command ${job.kind}.`,
            next: "Create the job with one of the commands in the API reference."
          }))

      return Executor.of({ run })
    })
  )
}
