/**
 * The failed-attempt limit: {@link maxFailures} wrong passwords or codes for
 * one email within {@link failureWindowMinutes} lock it for
 * {@link lockMinutes}. Counted by email whether or not anyone has it, so a
 * lockout tells nothing about who has an account.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import * as Time from "../domain/Time.ts"
import { NullableTimestamp } from "../platform/Rows.ts"
import { LockedOut } from "./Refusals.ts"
import { failureWindowMinutes, lockMinutes, maxFailures, normalizeEmail } from "./Policy.ts"
import * as ServiceClock from "../platform/ServiceClock.ts"

const decodeLock = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ lockedUntil: NullableTimestamp })))
const decodeFailures = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ failures: Schema.Number })))

export class Lockout extends Context.Service<Lockout, {
  /** Fails while the email is locked. */
  readonly check: (email: string) => Effect.Effect<void, LockedOut>
  /** Counts a wrong attempt: how many remain, or LockedOut when this one locked the email. */
  readonly failed: (email: string) => Effect.Effect<number, LockedOut>
  /** A successful sign-in forgets the failures. */
  readonly cleared: (email: string) => Effect.Effect<void>
}>()("outreach/Lockout") {
  static readonly layer = Layer.effect(
    Lockout,
    Effect.gen(function*() {
      // Who people are goes by real time, even on the sandbox's test clock (docs/operations.md).
      const realNow = yield* ServiceClock.realNow
      const sql = yield* SqlClient.SqlClient

      const check = Effect.fn("Lockout.check")(function*(email: string) {
        const now = yield* realNow
        const rows = yield* sql`
          SELECT locked_until AS "lockedUntil" FROM sign_in_failures WHERE email = ${normalizeEmail(email)}`.pipe(
          Effect.flatMap(decodeLock),
          Effect.orDie
        )
        const until = rows[0]?.lockedUntil ?? null
        if (until !== null && Date.parse(until) > now.ms) return yield* new LockedOut({ until })
      })

      const failed = Effect.fn("Lockout.failed")(function*(email: string) {
        const now = yield* realNow
        const key = normalizeEmail(email)
        const windowStart = Time.toIso(now.ms - failureWindowMinutes * 60_000)
        // A lock that has run out, or failures older than the window, start the count again.
        const rows = yield* sql`
          INSERT INTO sign_in_failures AS f (email, failures, last_failure_at, locked_until)
          VALUES (${key}, 1, ${now.iso}::timestamptz, NULL)
          ON CONFLICT (email) DO UPDATE SET
            failures = CASE WHEN f.locked_until IS NOT NULL OR f.last_failure_at < ${windowStart}::timestamptz
              THEN 1 ELSE f.failures + 1 END,
            last_failure_at = EXCLUDED.last_failure_at,
            locked_until = NULL
          RETURNING f.failures AS failures`.pipe(Effect.flatMap(decodeFailures), Effect.orDie)
        const failures = rows[0]?.failures ?? 1
        if (failures < maxFailures) return maxFailures - failures
        const until = Time.toIso(now.ms + lockMinutes * 60_000)
        yield* sql`UPDATE sign_in_failures SET locked_until = ${until}::timestamptz WHERE email = ${key}`.pipe(
          Effect.orDie
        )
        yield* Effect.logWarning("sign-in locked after too many wrong attempts").pipe(
          Effect.annotateLogs({ lockedUntil: until })
        )
        return yield* new LockedOut({ until })
      })

      const cleared = Effect.fn("Lockout.cleared")(function*(email: string) {
        yield* sql`DELETE FROM sign_in_failures WHERE email = ${normalizeEmail(email)}`.pipe(Effect.orDie)
      })

      return Lockout.of({ check, failed, cleared })
    })
  )
}
