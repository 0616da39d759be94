/**
 * Signing in to the dashboard: email and password, then (for a person with
 * two-factor on) a TOTP code or a one-time recovery code, under the
 * failed-attempt lockout. A right password for a person with two-factor on
 * opens a short challenge (its token goes back to the browser) instead of a
 * session.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { WorkspaceTable } from "../accounts/WorkspaceTable.ts"
import { hashCredential, newSessionToken } from "../auth/Tokens.ts"
import * as Time from "../domain/Time.ts"
import { ChallengeExpired, LockedOut, SignInRefused } from "./Refusals.ts"
import { Lockout } from "./Lockout.ts"
import { hashPassword, verifyPassword } from "./Password.ts"
import { challengeMinutes, normalizeEmail } from "./Policy.ts"
import { type NewSession, Sessions } from "./Sessions.ts"
import { totpStep } from "./TwoFactor.ts"
import { TwoFactorSettings } from "./TwoFactorSettings.ts"
import { type SignInCandidate, Users } from "./Users.ts"
import * as ServiceClock from "../platform/ServiceClock.ts"

/** What a right password leads to. */
export type PasswordOutcome =
  | { readonly _tag: "SignedIn"; readonly session: NewSession }
  | { readonly _tag: "TwoFactorNeeded"; readonly challenge: string; readonly expiresAt: string }

/** An open challenge: whose it is, their email (the lockout's key) and their TOTP secret. */
interface OpenChallenge {
  readonly userId: string
  readonly email: string
  readonly totpSecret: string | null
}
const decodeChallenges = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ userId: Schema.String })))

const wrongPassword = (attemptsLeft: number) =>
  new SignInRefused({
    message: `Wrong email or password. ${attemptsLeft} ${
      attemptsLeft === 1 ? "attempt" : "attempts"
    } left before signing in with this email is locked for a while.`
  })

const wrongCode = (attemptsLeft: number) =>
  new SignInRefused({
    message: `That code is not right (or was already used). ${attemptsLeft} ${
      attemptsLeft === 1 ? "attempt" : "attempts"
    } left before signing in is locked for a while.`
  })

export class SignIn extends Context.Service<SignIn, {
  /** The first step: email and password. */
  readonly password: (email: string, password: string) => Effect.Effect<PasswordOutcome, SignInRefused | LockedOut>
  /** The second step: a 6-digit TOTP code, or a recovery code (used once). */
  readonly secondFactor: (challenge: string, code: string) => Effect.Effect<
    NewSession,
    SignInRefused | LockedOut | ChallengeExpired
  >
  /** Whether a challenge token is still open (the code page is shown only then). */
  readonly challengeOpen: (challenge: string) => Effect.Effect<boolean>
}>()("outreach/SignIn") {
  static readonly layerNoDeps = Layer.effect(
    SignIn,
    Effect.gen(function*() {
      // Who people are goes by real time, even on the sandbox's test clock (docs/operations.md).
      const realNow = yield* ServiceClock.realNow
      const sql = yield* SqlClient.SqlClient
      const lockout = yield* Lockout
      const sessions = yield* Sessions
      const twoFactor = yield* TwoFactorSettings
      const users = yield* Users
      const workspaces = yield* WorkspaceTable
      // Checked when no one has the email, so a wrong email costs the same time as a wrong password.
      const decoy = yield* hashPassword("decoy password, never anyone's")

      const password = Effect.fn("SignIn.password")(function*(email: string, password: string) {
        const key = normalizeEmail(email)
        yield* lockout.check(key)
        // A suspended workspace's people cannot sign in.
        const everyone = yield* users.signInCandidates(key)
        const active = yield* workspaces.activeOf([...new Set(everyone.map((candidate) => candidate.workspaceId))])
        const candidates = everyone.filter((candidate) => active.has(candidate.workspaceId))
        let matched: SignInCandidate | undefined
        for (const candidate of candidates) {
          if (candidate.passwordHash !== null && (yield* verifyPassword(password, candidate.passwordHash))) {
            matched = candidate
            break
          }
        }
        if (candidates.length === 0) yield* verifyPassword(password, decoy)
        if (matched === undefined) return yield* Effect.flatMap(lockout.failed(key), (left) => Effect.fail(wrongPassword(left)))
        if (matched.totpSecret === null) {
          yield* lockout.cleared(key)
          return { _tag: "SignedIn" as const, session: yield* sessions.create(matched.id) }
        }
        const now = yield* realNow
        const challenge = yield* newSessionToken
        const expiresAt = Time.toIso(now.ms + challengeMinutes * 60_000)
        yield* sql`
          INSERT INTO sign_in_challenges (hash, user_id, created_at, expires_at)
          VALUES (${hashCredential(challenge)}, ${matched.id}, ${now.iso}::timestamptz, ${expiresAt}::timestamptz)`
          .pipe(Effect.orDie)
        return { _tag: "TwoFactorNeeded" as const, challenge, expiresAt }
      })

      const openChallenge = (challenge: string) =>
        Effect.gen(function*() {
          const now = yield* realNow
          const rows = yield* sql`
            SELECT c.user_id::text AS "userId" FROM sign_in_challenges c
            WHERE c.hash = ${hashCredential(challenge)} AND c.expires_at > ${now.iso}::timestamptz`.pipe(
            Effect.flatMap(decodeChallenges),
            Effect.orDie
          )
          const userId = rows[0]?.userId
          // A person removed since has no totp state: their challenge is as good as expired.
          const person = userId === undefined ? undefined : yield* users.totp(userId)
          if (userId === undefined || person === undefined) return undefined
          const open: OpenChallenge = { userId, email: person.email, totpSecret: person.secret }
          return open
        })

      const challengeOpen = Effect.fn("SignIn.challengeOpen")(function*(challenge: string) {
        return (yield* openChallenge(challenge)) !== undefined
      })

      /** Accepts a TOTP code once per time step, or an unused recovery code; true when one matched. */
      const codeMatches = (row: OpenChallenge, code: string) =>
        Effect.gen(function*() {
          if (/^\s*\d[\d\s]*$/.test(code)) {
            if (row.totpSecret === null) return false
            const step = totpStep(row.totpSecret, code, (yield* realNow).ms)
            if (step === undefined) return false
            // Only a step later than the last one accepted: the same code never works twice.
            return yield* users.takeTotpStep(row.userId, step)
          }
          return yield* twoFactor.useRecoveryCode(row.userId, code)
        })

      const secondFactor = Effect.fn("SignIn.secondFactor")(function*(challenge: string, code: string) {
        const row = yield* openChallenge(challenge)
        if (row === undefined) return yield* new ChallengeExpired()
        yield* lockout.check(row.email)
        if (!(yield* codeMatches(row, code))) {
          return yield* Effect.flatMap(lockout.failed(row.email), (left) => Effect.fail(wrongCode(left)))
        }
        yield* sql`DELETE FROM sign_in_challenges WHERE hash = ${hashCredential(challenge)}`.pipe(Effect.orDie)
        yield* lockout.cleared(row.email)
        return yield* sessions.create(row.userId)
      })

      return SignIn.of({ password, secondFactor, challengeOpen })
    })
  )

  /** `layerNoDeps` with its services' layers. */
  static readonly layer = SignIn.layerNoDeps.pipe(Layer.provide([Lockout.layer, Sessions.layer, TwoFactorSettings.layer, Users.layer, WorkspaceTable.layer]))
}
