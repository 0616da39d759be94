/**
 * Signing a seat in through Unipile: native sign-in (`POST /accounts` with the username and the
 * password, never stored) and its checkpoints (`POST /accounts/checkpoint`: 2FA, OTP, CAPTCHA,
 * in-app validation), and what the network says of the signed-in seat (`GET /users/me` for its
 * products, `GET /users/{own id}` for its connection count).
 *
 * | Unipile checkpoint | ours |
 * |---|---|
 * | `2FA` | `2fa` |
 * | `OTP` | `otp` |
 * | `CAPTCHA` | `captcha` |
 * | `IN_APP_VALIDATION` | `in_app_approval` (passed by calling again without a code once approved) |
 * | `PHONE_REGISTER`, `QRCODE`, `CONTRACT_CHOOSER` | refused: the person finishes on the hosted link instead |
 */
import { Clock, Effect, Redacted } from "effect"
import type { UnipileClient } from "unipile-node-sdk"
import type { Tier } from "../../domain/Limits.ts"
import type { AccountProfile, CheckpointType, SignInStep } from "../NetworkDriver.ts"
import { type Client, paced, type ProviderFailure } from "./UnipileClient.ts"
import { retried, type Session } from "./UnipileSession.ts"
import type { Store } from "./Store.ts"

type Step = Awaited<ReturnType<UnipileClient["account"]["solveCodeCheckpoint"]>>

const checkpoints: Readonly<Record<string, CheckpointType>> = {
  "2FA": "2fa",
  OTP: "otp",
  CAPTCHA: "captcha",
  IN_APP_VALIDATION: "in_app_approval"
}

const messages: Readonly<Record<CheckpointType, string>> = {
  "2fa": "Enter the code from the authenticator app or the SMS the network sent.",
  otp: "Enter the one-time code the network sent by e-mail.",
  captcha: "The network asks for a CAPTCHA: send its answer as the code.",
  in_app_approval: "Approve the sign-in in the network's mobile app, then call native-checkpoint without a code."
}

const tierOf = (features: { readonly premium: boolean; readonly salesNavigator: boolean; readonly recruiter: boolean }): Tier =>
  features.recruiter ? "recruiter" : features.salesNavigator ? "sales_nav" : features.premium ? "premium" : "free"

/** Tier, products and connections of the seat, read from the network. */
export const profileOf = (session: Session): Effect.Effect<AccountProfile, ProviderFailure> =>
  Effect.gen(function*() {
    const me = yield* retried(session.client.call("users.getOwnProfile", (client) => client.users.getOwnProfile(session.providerAccount)))
    if (me.provider !== "LINKEDIN") return { tier: "free", products: [], connections: 0 }
    const self = yield* retried(session.client.call("users.getProfile", (client) =>
      client.users.getProfile({ account_id: session.providerAccount, identifier: me.provider_id })))
    const salesNavigator = me.sales_navigator !== null && !("error" in me.sales_navigator)
    const recruiter = me.recruiter !== null && !("error" in me.recruiter)
    return {
      tier: tierOf({ premium: me.premium, salesNavigator, recruiter }),
      products: salesNavigator ? ["sales_navigator"] : [],
      connections: self.provider === "LINKEDIN" && "connections_count" in self ? self.connections_count ?? 0 : 0
    }
  })

/** Signing in and passing checkpoints, for the driver; a seat's calls wait for `pace` of it (`RequestRate.ts`). */
export const make = (client: Client, store: Store, pace: (providerAccount: string) => Effect.Effect<void>) => {
  const sessionOf = (accountId: string, providerAccount: string): Session => ({
    client: paced(client, pace(providerAccount)),
    store,
    accountId,
    providerAccount,
    command: "sign-in",
    withNote: false
  })

  const stepOf = (accountId: string, answer: Step): Effect.Effect<SignInStep, ProviderFailure> =>
    Effect.gen(function*() {
      yield* store.link(accountId, answer.account_id, yield* Clock.currentTimeMillis)
      if (answer.object !== "Checkpoint") return { _tag: "Connected", profile: yield* profileOf(sessionOf(accountId, answer.account_id)) }
      const checkpoint = checkpoints[answer.checkpoint.type]
      return checkpoint === undefined
        ? { _tag: "Rejected", message: `The network asks for a ${answer.checkpoint.type} step this sign-in cannot pass: use the connect link instead.` }
        : { _tag: "Checkpoint", checkpoint, message: messages[checkpoint] }
    })

  const rejected = (failure: ProviderFailure): Effect.Effect<SignInStep> =>
    Effect.succeed({
      _tag: "Rejected",
      message: failure.type === "invalid_credentials"
        ? "The network refused the username or password."
        : failure.type === "invalid_checkpoint_solution"
        ? "The code is not right."
        : failure.status === null || failure.status >= 500
        ? "The provider could not be reached; try again in a moment."
        : `The provider refused the sign-in (${failure.type}).`
    })

  return {
    signIn: (input: { readonly accountId: string; readonly username: string; readonly password: Redacted.Redacted<string> }) =>
      retried(client.call("account.connectLinkedin", (sdk) =>
        sdk.account.connectLinkedin({ username: input.username, password: Redacted.value(input.password) }))).pipe(
          Effect.flatMap((answer) => stepOf(input.accountId, answer)),
          Effect.catch(rejected),
          Effect.withSpan("Unipile.signIn")
        ),
    passCheckpoint: (input: { readonly accountId: string; readonly code: string | undefined }) =>
      Effect.flatMap(store.providerAccountOf(input.accountId), (providerAccount): Effect.Effect<SignInStep> =>
        providerAccount === undefined
          ? Effect.succeed({ _tag: "Rejected", message: "No sign-in is pending for this account: start with native-auth." })
          : retried(paced(client, pace(providerAccount)).call("account.solveCodeCheckpoint", (sdk) =>
            sdk.account.solveCodeCheckpoint({ provider: "LINKEDIN", account_id: providerAccount, code: input.code ?? "" }))).pipe(
              Effect.flatMap((answer) => stepOf(input.accountId, answer)),
              Effect.catch(rejected)
            )).pipe(Effect.withSpan("Unipile.passCheckpoint")),
    profileOf: (accountId: string) =>
      Effect.flatMap(store.providerAccountOf(accountId), (providerAccount) =>
        providerAccount === undefined
          ? Effect.die(new Error(`The account ${accountId} is not linked to a Unipile account`))
          : Effect.orDie(profileOf(sessionOf(accountId, providerAccount))))
  }
}
