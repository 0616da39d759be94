/**
 * What a signed-in person does to their own sign-in: change their password
 * (the current one first, counted toward the sign-in lockout when wrong; every
 * other session of theirs ends), see their open sessions and end any of them.
 */
import { Context, Effect, Layer } from "effect"
import { InputRefused, type LockedOut } from "./Refusals.ts"
import { Lockout } from "./Lockout.ts"
import { hashPassword, passwordProblem, verifyPassword } from "./Password.ts"
import { type OpenSession, Sessions } from "./Sessions.ts"
import { Users } from "./Users.ts"

export class OwnAccount extends Context.Service<OwnAccount, {
  /** Changes the password; the session `keep` stays signed in, every other one of the person's ends. */
  readonly changePassword: (
    userId: string,
    input: { readonly current: string; readonly next: string; readonly keep: string }
  ) => Effect.Effect<{ readonly endedSessions: number }, InputRefused>
  readonly sessions: (userId: string) => Effect.Effect<ReadonlyArray<OpenSession>>
  /** Ends one of the person's own sessions; false when it is not theirs or already over. */
  readonly endSession: (userId: string, sessionId: string) => Effect.Effect<boolean>
}>()("outreach/OwnAccount") {
  static readonly layerNoDeps = Layer.effect(
    OwnAccount,
    Effect.gen(function*() {
      const users = yield* Users
      const sessions = yield* Sessions
      const lockout = yield* Lockout
      const refused = (message: string) => new InputRefused({ message })
      const lockedRefusal = (locked: LockedOut) => refused(`${locked.message} Changing the password waits until then too.`)

      const changePassword = Effect.fn("OwnAccount.changePassword")(function*(
        userId: string,
        input: { readonly current: string; readonly next: string; readonly keep: string }
      ) {
        const found = yield* users.passwordOf(userId)
        if (found === undefined) return yield* refused("You are no longer in this workspace.")
        yield* lockout.check(found.email).pipe(Effect.mapError(lockedRefusal))
        const right = found.passwordHash !== null && (yield* verifyPassword(input.current, found.passwordHash))
        if (!right) {
          const left = yield* lockout.failed(found.email).pipe(Effect.mapError(lockedRefusal))
          return yield* refused(`Your current password is not right. ${left} ${left === 1 ? "attempt" : "attempts"} left before signing in is locked.`)
        }
        const problem = passwordProblem(input.next)
        if (problem !== undefined) return yield* refused(problem)
        if (input.next === input.current) return yield* refused("The new password is the one you have: choose another.")
        yield* users.setPassword(userId, yield* hashPassword(input.next))
        yield* lockout.cleared(found.email)
        const others = (yield* sessions.openOf(userId)).filter((s) => s.id !== input.keep)
        yield* Effect.forEach(others, (s) => sessions.end(s.id), { discard: true })
        return { endedSessions: others.length }
      })

      const endSession = Effect.fn("OwnAccount.endSession")(function*(userId: string, sessionId: string) {
        const mine = (yield* sessions.openOf(userId)).some((s) => s.id === sessionId)
        if (mine) yield* sessions.end(sessionId)
        return mine
      })

      return OwnAccount.of({ changePassword, sessions: sessions.openOf, endSession })
    })
  )

  static readonly layer = OwnAccount.layerNoDeps.pipe(Layer.provide([Users.layer, Sessions.layer, Lockout.layer]))
}
