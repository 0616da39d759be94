/**
 * The sandbox driver (the default): a deterministic simulated network.
 * Sign-in: usernames containing `2fa`, `otp`, `captcha` or `app` stop at that
 * checkpoint; the code `000000` passes (in-app approval needs no code).
 *
 * @since 1.0.0
 */
import { Effect, Layer } from "effect"
import type { Tier } from "../../domain/Limits.ts"
import { type AccountProfile, type CheckpointType, NetworkDriver, type SignInStep } from "../NetworkDriver.ts"
import { rng } from "./Random.ts"

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

const tierWeights: ReadonlyArray<readonly [Tier, number]> = [
  ["free", 55],
  ["premium", 25],
  ["sales_nav", 15],
  ["recruiter", 5]
]

/** The profile the sandbox reports for an account: the same account always gets the same one. */
export const sandboxProfile = (accountId: string): AccountProfile => {
  const random = rng("account-profile", accountId)
  const tier = random.weighted(tierWeights)
  return {
    tier,
    products: tier === "sales_nav" ? ["sales_navigator"] : [],
    connections: random.int(120, 2800)
  }
}

const connected = (accountId: string): SignInStep => ({ _tag: "Connected", profile: sandboxProfile(accountId) })

export const layer = Layer.succeed(
  NetworkDriver,
  NetworkDriver.of({
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
  })
)
