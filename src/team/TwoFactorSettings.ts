/**
 * A person's own two-factor settings: set up (a secret shown as a QR code,
 * confirmed by a first code, which gives ten recovery codes once), new
 * recovery codes, and turning it off (with a current code). A wrong current
 * code counts toward the same lockout as signing in (`Lockout.ts`), so a
 * signed-in session cannot guess it without limit.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { type LockedOut, TwoFactorRefused } from "./Refusals.ts"
import { Lockout } from "./Lockout.ts"
import { WorkspaceTable } from "../accounts/WorkspaceTable.ts"
import { Users } from "./Users.ts"
import { newRecoveryCodes, newTotpSecret, recoveryCodeHash, totpStep, totpUri } from "./TwoFactor.ts"
import * as ServiceClock from "../platform/ServiceClock.ts"

/** Where a person's two-factor stands. */
export interface TwoFactorStatus {
  readonly enabledAt: string | null
  readonly recoveryCodesLeft: number
  /** A secret being set up (shown until confirmed). */
  readonly pending: { readonly secret: string; readonly uri: string } | undefined
}

const decodeCodesLeft = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ codesLeft: Schema.Number })))
const decodeIds = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ id: Schema.String })))

const wrongCode = new TwoFactorRefused({
  message: "That code is not right. Type the 6 digits your authenticator app shows now."
})

export class TwoFactorSettings extends Context.Service<TwoFactorSettings, {
  readonly status: (userId: string) => Effect.Effect<TwoFactorStatus>
  /** Starts (or restarts) setting up: a new secret, kept aside until a code confirms it. */
  readonly begin: (userId: string) => Effect.Effect<{ readonly secret: string; readonly uri: string }>
  /** Confirms the secret being set up with a code from it; returns the recovery codes, once. */
  readonly confirm: (userId: string, code: string) => Effect.Effect<ReadonlyArray<string>, TwoFactorRefused>
  /** Replaces the recovery codes (a current code needed); returns the new ones, once. */
  readonly newRecoveryCodes: (userId: string, code: string) => Effect.Effect<ReadonlyArray<string>, TwoFactorRefused>
  /** Turns two-factor off (a current code needed). */
  readonly disable: (userId: string, code: string) => Effect.Effect<void, TwoFactorRefused>
  /** Whether the person must set up two-factor before anything else: the workspace requires it and they have none. */
  readonly mustSetUp: (workspaceId: string, userId: string) => Effect.Effect<boolean>
  /** Requires two-factor of everyone in the workspace, or stops requiring it. */
  readonly requireForEveryone: (workspaceId: string, required: boolean) => Effect.Effect<void>
  /** Whether the workspace requires it. */
  readonly requiredIn: (workspaceId: string) => Effect.Effect<boolean>
  /** Spends one of the person's unused recovery codes (signing in); true when `code` was one. */
  readonly useRecoveryCode: (userId: string, code: string) => Effect.Effect<boolean>
}>()("outreach/TwoFactorSettings") {
  static readonly layerNoDeps = Layer.effect(
    TwoFactorSettings,
    Effect.gen(function*() {
      // Who people are goes by real time, even on the sandbox's test clock (docs/operations.md).
      const realNow = yield* ServiceClock.realNow
      const sql = yield* SqlClient.SqlClient
      const users = yield* Users
      const workspaces = yield* WorkspaceTable
      const lockout = yield* Lockout
      const lockedRefusal = (locked: LockedOut) =>
        new TwoFactorRefused({ message: `${locked.message} Changes to two-factor wait until then too.` })

      const read = (userId: string) =>
        Effect.flatMap(users.totp(userId), (row) =>
          row === undefined ? Effect.die(new Error(`no person ${userId}`)) : Effect.succeed(row))

      const codesLeft = (userId: string) =>
        sql`
          SELECT count(*)::int AS "codesLeft" FROM recovery_codes WHERE user_id = ${userId} AND used_at IS NULL`.pipe(
          Effect.flatMap(decodeCodesLeft),
          Effect.map((rows) => rows.at(0)?.codesLeft ?? 0),
          Effect.orDie
        )

      const status = Effect.fn("TwoFactorSettings.status")(function*(userId: string) {
        const row = yield* read(userId)
        return {
          enabledAt: row.secret === null ? null : row.enabledAt,
          recoveryCodesLeft: yield* codesLeft(userId),
          pending: row.pending === null ? undefined : { secret: row.pending, uri: totpUri(row.pending, row.email) }
        }
      })

      const begin = Effect.fn("TwoFactorSettings.begin")(function*(userId: string) {
        const row = yield* read(userId)
        const secret = yield* newTotpSecret
        yield* users.setPendingSecret(userId, secret)
        return { secret, uri: totpUri(secret, row.email) }
      })

      const replaceCodes = (userId: string) =>
        Effect.gen(function*() {
          const now = yield* realNow
          const codes = yield* newRecoveryCodes
          yield* sql`DELETE FROM recovery_codes WHERE user_id = ${userId}`
          yield* Effect.forEach(codes, (code) =>
            sql`INSERT INTO recovery_codes (user_id, hash, created_at)
                VALUES (${userId}, ${recoveryCodeHash(code)}, ${now.iso}::timestamptz)`, { discard: true })
          return codes
        })

      /** A code from the secret in use, taking its time step (a code is accepted once). */
      const currentCode = (userId: string, code: string) =>
        Effect.gen(function*() {
          const row = yield* read(userId)
          if (row.secret === null) return yield* new TwoFactorRefused({ message: "Two-factor sign-in is not on." })
          yield* lockout.check(row.email).pipe(Effect.mapError(lockedRefusal))
          const step = totpStep(row.secret, code, (yield* realNow).ms)
          if (step === undefined) {
            const left = yield* lockout.failed(row.email).pipe(Effect.mapError(lockedRefusal))
            return yield* new TwoFactorRefused({
              message: `${wrongCode.message} ${left} ${left === 1 ? "attempt" : "attempts"} left before signing in and two-factor changes are locked.`
            })
          }
          if (!(yield* users.takeTotpStep(userId, step))) {
            return yield* new TwoFactorRefused({ message: "That code was already used. Wait for the next one." })
          }
        })

      const confirm = Effect.fn("TwoFactorSettings.confirm")(function*(userId: string, code: string) {
        const row = yield* read(userId)
        if (row.pending === null) {
          return yield* new TwoFactorRefused({ message: "Nothing is being set up. Start setting up two-factor again." })
        }
        const step = totpStep(row.pending, code, (yield* realNow).ms)
        if (step === undefined) return yield* wrongCode
        const now = yield* realNow
        return yield* sql.withTransaction(Effect.gen(function*() {
          yield* users.enableTotp(userId, step, now.iso)
          return yield* replaceCodes(userId)
        })).pipe(Effect.orDie)
      })

      const newCodes = Effect.fn("TwoFactorSettings.newRecoveryCodes")(function*(userId: string, code: string) {
        yield* currentCode(userId, code)
        return yield* sql.withTransaction(replaceCodes(userId)).pipe(Effect.orDie)
      })

      const disable = Effect.fn("TwoFactorSettings.disable")(function*(userId: string, code: string) {
        yield* currentCode(userId, code)
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* users.disableTotp(userId)
          yield* sql`DELETE FROM recovery_codes WHERE user_id = ${userId}`
        })).pipe(Effect.orDie)
      })

      const useRecoveryCode = (userId: string, code: string) =>
        Effect.gen(function*() {
          const now = yield* realNow
          const used = yield* sql`
            UPDATE recovery_codes SET used_at = ${now.iso}::timestamptz
            WHERE user_id = ${userId} AND hash = ${recoveryCodeHash(code)} AND used_at IS NULL
            RETURNING user_id::text AS id`.pipe(Effect.flatMap(decodeIds), Effect.orDie)
          return used.length === 1
        })

      const mustSetUp = Effect.fn("TwoFactorSettings.mustSetUp")(function*(workspaceId: string, userId: string) {
        if (!(yield* workspaces.twoFactorRequired(workspaceId))) return false
        const row = yield* users.totp(userId)
        return row === undefined || row.secret === null
      })

      return TwoFactorSettings.of({
        status,
        begin,
        confirm,
        newRecoveryCodes: newCodes,
        disable,
        useRecoveryCode,
        mustSetUp,
        requireForEveryone: workspaces.requireTwoFactor,
        requiredIn: workspaces.twoFactorRequired
      })
    })
  )

  /** `layerNoDeps` with its services' layers. */
  static readonly layer = TwoFactorSettings.layerNoDeps.pipe(Layer.provide([Users.layer, Lockout.layer, WorkspaceTable.layer]))
}
