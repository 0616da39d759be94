/**
 * The sandbox driver (the default): a deterministic simulated network.
 * Sign-in: usernames containing `2fa`, `otp`, `captcha` or `app` stop at that
 * checkpoint; the code `000000` passes (in-app approval needs no code).
 * Reads come from the generators, seen by the account; writes are recorded in
 * the sandbox's tables (so it needs a `SqlClient`), and `sync` reports how
 * people answered them as the clock passes the seeded moments; tests can
 * force answers and messages with `simulate`.
 */
import { Cause, Clock, Effect, Exit, Layer, Option, Schema } from "effect"
import { commands } from "../domain/Commands.ts"
import * as Time from "../domain/Time.ts"
import { NetworkError, networkError } from "../network/NetworkErrors.ts"
import * as Spans from "../platform/Spans.ts"
import { type CheckpointType, NetworkDriver, type NetworkDriverShape, type SignInStep, type WriteOutcome } from "../network/NetworkDriver.ts"
import { sandboxProfile } from "./AccountProfiles.ts"
import { messageReaches, reads, type Session } from "./Reads.ts"
import { personIn } from "./Refs.ts"
import { simulate } from "./Simulations.ts"
import * as State from "./State.ts"
import * as StateMemory from "./StateMemory.ts"
import { syncSince } from "./Syncing.ts"
import { writes } from "./Writes.ts"

export { sandboxProfile } from "./AccountProfiles.ts"

/**
 * What the sandbox answers an attempt whose fencing token is older than one the account already showed:
 * a runner that lost the account (it froze, or lost its database) and woke after another took it over.
 */
/** A refusal by the network's rules, as the sandbox keeps it beside the attempt (and reads it back for `outcomeOf`). */
const encodeRefusal = (error: NetworkError) => Schema.encodeUnknownEffect(NetworkError)(error).pipe(Effect.orDie)
const decodeRefusal = (stored: unknown) => Schema.decodeUnknownEffect(NetworkError)(stored).pipe(Effect.orDie)

const staleAttempt = networkError(
  "network",
  "The network refused this attempt: a newer owner of the account has written or asked about its writes since it was recorded.",
  "Nothing to do: the account's current owner settles the job."
)

/** The code that passes every sandbox checkpoint. */
export const passingCode = "000000"

const checkpointMessages: Record<CheckpointType, string> = {
  "2fa": "Enter the 6-digit code from the authenticator app.",
  otp: "Enter the one-time code the network sent by e-mail or SMS.",
  captcha: "Solve the CAPTCHA and send its answer as the code.",
  in_app_approval: "Approve the sign-in in the network's mobile app, then call native-checkpoint without a code."
}

/** The checkpoint a sandbox username asks for, if any (first match wins). */
export const checkpointFor = (username: string): CheckpointType | undefined => {
  const name = username.toLowerCase()
  if (name.includes("2fa")) return "2fa"
  if (name.includes("otp")) return "otp"
  if (name.includes("captcha")) return "captcha"
  if (name.includes("app")) return "in_app_approval"
  return undefined
}

const connected = (accountId: string): SignInStep => ({ _tag: "Connected", profile: sandboxProfile(accountId) })

/**
 * The sandbox's sign-in, which needs none of the network's state: the driver's, and the one the
 * tests give the in-memory accounts (`accounts/AccountsMemory.ts`), so the two sign in alike.
 */
export const sandboxSignIn = {
  name: "sandbox",
  signIn: ({ accountId, username }) =>
    Effect.sync((): SignInStep => {
      const checkpoint = checkpointFor(username)
      return checkpoint === undefined
        ? connected(accountId)
        : { _tag: "Checkpoint", checkpoint, message: checkpointMessages[checkpoint] }
    }),
  passCheckpoint: ({ accountId, checkpoint, code }) =>
    Effect.sync((): SignInStep =>
      checkpoint === "in_app_approval" || code === passingCode
        ? connected(accountId)
        : { _tag: "Rejected", message: "The code is not right." }
    ),
  profileOf: (accountId) => Effect.sync(() => sandboxProfile(accountId))
} satisfies Pick<NetworkDriverShape, "name" | "signIn" | "passCheckpoint" | "profileOf">

/** Who a sandbox address names: its network identifier and canonical profile address (no state: the address alone says). */
export const identify: NetworkDriver["Service"]["identify"] = (address) =>
  Effect.map(personIn("person", address), (ref) => ({ providerId: ref.providerId, profileUrl: ref.profileUrl }))

/**
 * The sandbox driver on `state`: the stored state (`State.ts`, in the sandbox's tables) or the
 * in-memory one (`StateMemory.ts`); the network's rules are the same on either.
 */
export const on = (state: State.State): NetworkDriver["Service"] => {
  const session = (accountId: string): Effect.Effect<Session> =>
    Effect.map(Clock.currentTimeMillis, (now) => ({ accountId, now, state }))
  return NetworkDriver.of({
    ...sandboxSignIn,
    identify,
    messageReaches: (accountId, providerId) =>
      Effect.flatMap(session(accountId), (current) => messageReaches(current, providerId)),
    read: (accountId, command, input) =>
      Effect.flatMap(session(accountId), (current) => reads[command](current, input)).pipe(
        Effect.withSpan("SandboxDriver.read", { attributes: { accountId, command } }, Spans.perJob)
      ),
    write: (accountId, command, input, attempt) =>
      Effect.gen(function*() {
        const current = yield* session(accountId)
        if (attempt === undefined) return yield* writes[command](current, input)
        const beganRealMs = yield* Time.liveNow
        const record = (result: unknown, refused: boolean, refusal?: unknown) =>
          Effect.flatMap(Time.liveNow, (endedRealMs) =>
            state.recordWrite({
              key: attempt.key,
              accountId,
              command,
              result,
              atMs: current.now,
              fence: attempt.fence,
              refused,
              refusal,
              beganRealMs,
              endedRealMs
            }))
        // One transaction holds the account's token from the check to the record: the write, or its
        // refusal, and its record commit together, so `outcomeOf` (which raises the token first) knows for sure.
        const done = yield* state.transaction(Effect.gen(function*() {
          const newest = yield* state.raiseFence(accountId, attempt.fence)
          if (newest > attempt.fence) {
            yield* record(undefined, true)
            return Exit.fail(staleAttempt)
          }
          // The write in a savepoint of its own: one the network's rules refuse leaves nothing but its record.
          const exit = yield* Effect.exit(state.transaction(writes[command](current, input)))
          if (Exit.isFailure(exit)) {
            const refusal = Cause.findErrorOption(exit.cause)
            yield* record(undefined, false, Option.isSome(refusal) ? yield* encodeRefusal(refusal.value) : undefined)
            return exit
          }
          const encoded = yield* Schema.encodeUnknownEffect(commands[command].result)(exit.value).pipe(Effect.orDie)
          yield* record(encoded, false)
          return exit
        }))
        return yield* done
      }).pipe(Effect.withSpan("SandboxDriver.write", { attributes: { accountId, command } }, Spans.perJob)),
    outcomeOf: (accountId, _command, key, fence) =>
      state.transaction(Effect.andThen(
        state.raiseFence(accountId, fence),
        Effect.flatMap(state.writeOf(accountId, key), (done): Effect.Effect<WriteOutcome> =>
          done === undefined
            ? Effect.succeed({ _tag: "NotHappened" })
            : done.result === null && done.refusal !== null
            ? Effect.map(decodeRefusal(done.refusal), (error): WriteOutcome => ({ _tag: "Refused", error }))
            : Effect.succeed({ _tag: "Happened", result: done.result }))
      )),
    accountRecorded: (account) => state.recordAccount(account),
    sync: (accountId, since) =>
      Effect.flatMap(session(accountId), (current) => syncSince(current, since)).pipe(
        Effect.withSpan("SandboxDriver.sync", { attributes: { accountId } })
      ),
    simulate: (accountId, event) =>
      Effect.flatMap(session(accountId), (current) => simulate(current, event)).pipe(
        Effect.withSpan("SandboxDriver.simulate", { attributes: { accountId, type: event.type } })
      )
  })
}

/** The sandbox driver; needs a migrated `SqlClient` for the network's state. */
export const layer = Layer.effect(NetworkDriver, Effect.map(State.make, on))

/** The sandbox driver on a fresh in-memory state (`StateMemory.ts`): the same network, for fast tests. */
export const memoryLayer = Layer.effect(NetworkDriver, Effect.map(StateMemory.make, on))
