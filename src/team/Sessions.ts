/**
 * Sessions of people signed in to the dashboard: `sess_` credentials (only a
 * hash stored), lasting {@link sessionHours}. Ending one, or all of a
 * person's, tells every server at once (a session is a credential like a key).
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Credentials } from "../auth/Credentials.ts"
import { hashCredential, newSessionToken } from "../auth/Tokens.ts"
import * as Time from "../domain/Time.ts"
import { Timestamp } from "../platform/Rows.ts"
import { sessionHours } from "./Policy.ts"
import * as ServiceClock from "../platform/ServiceClock.ts"

/** A session still open, as the person sees it in their list. */
export interface OpenSession {
  readonly id: string
  readonly createdAt: string
  readonly expiresAt: string
}

const decodeOpen = Schema.decodeUnknownEffect(
  Schema.Array(Schema.Struct({ id: Schema.String, createdAt: Timestamp, expiresAt: Timestamp }))
)

/** A new session: the token is shown to the browser once, in its cookie. */
export interface NewSession {
  readonly token: string
  readonly sessionId: string
  readonly expiresAt: string
}

const decodeIds = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ id: Schema.String })))

export class Sessions extends Context.Service<Sessions, {
  readonly create: (userId: string) => Effect.Effect<NewSession>
  /** Records a session of the person for a token made by the caller (a workspace's bootstrap), in the caller's transaction. */
  readonly record: (
    session: { readonly userId: string; readonly token: string; readonly createdAt: string; readonly expiresAt: string }
  ) => Effect.Effect<void>
  /** Every session of the person, ended or not. */
  readonly idsOf: (userId: string) => Effect.Effect<ReadonlyArray<{ readonly id: string }>>
  /** The person's sessions still open, newest first. */
  readonly openOf: (userId: string) => Effect.Effect<ReadonlyArray<OpenSession>>
  /** Ends one session (signing out). */
  readonly end: (sessionId: string) => Effect.Effect<void>
  /** Ends every session of a person (sign out everywhere, removal, a role change); returns how many. */
  readonly endAllOf: (userId: string) => Effect.Effect<number>
  /** Tells every server to look again at a person's sessions (their role changed). */
  readonly refresh: (userId: string) => Effect.Effect<void>
}>()("outreach/Sessions") {
  static readonly layerNoDeps = Layer.effect(
    Sessions,
    Effect.gen(function*() {
      // Who people are goes by real time, even on the sandbox's test clock (docs/operations.md).
      const realNow = yield* ServiceClock.realNow
      const sql = yield* SqlClient.SqlClient
      const credentials = yield* Credentials

      const create = Effect.fn("Sessions.create")(function*(userId: string) {
        const now = yield* realNow
        const token = yield* newSessionToken
        const sessionId = crypto.randomUUID()
        const expiresAt = Time.toIso(now.ms + sessionHours * 3_600_000)
        yield* sql`
          INSERT INTO sessions (id, user_id, hash, created_at, expires_at)
          VALUES (${sessionId}, ${userId}, ${hashCredential(token)}, ${now.iso}::timestamptz, ${expiresAt}::timestamptz)`
          .pipe(Effect.orDie)
        return { token, sessionId, expiresAt }
      })

      const record = (
        session: { readonly userId: string; readonly token: string; readonly createdAt: string; readonly expiresAt: string }
      ) =>
        sql`
          INSERT INTO sessions (id, user_id, hash, created_at, expires_at)
          VALUES (${crypto.randomUUID()}, ${session.userId}, ${hashCredential(session.token)},
                  ${session.createdAt}::timestamptz, ${session.expiresAt}::timestamptz)`.pipe(Effect.asVoid, Effect.orDie)

      const idsOf = (userId: string) =>
        sql`SELECT id::text AS id FROM sessions WHERE user_id = ${userId}`.pipe(Effect.flatMap(decodeIds), Effect.orDie)

      const end = Effect.fn("Sessions.end")(function*(sessionId: string) {
        const now = yield* realNow
        yield* sql`UPDATE sessions SET revoked_at = ${now.iso}::timestamptz WHERE id = ${sessionId} AND revoked_at IS NULL`
          .pipe(Effect.orDie)
        yield* credentials.forgetCredential(sessionId)
      })

      const live = (userId: string, nowIso: string) =>
        sql`SELECT id::text AS id FROM sessions
            WHERE user_id = ${userId} AND revoked_at IS NULL AND expires_at > ${nowIso}::timestamptz`.pipe(
          Effect.flatMap(decodeIds),
          Effect.orDie
        )

      const endAllOf = Effect.fn("Sessions.endAllOf")(function*(userId: string) {
        const now = yield* realNow
        const ended = yield* sql`
          UPDATE sessions SET revoked_at = ${now.iso}::timestamptz
          WHERE user_id = ${userId} AND revoked_at IS NULL RETURNING id::text AS id`.pipe(
          Effect.flatMap(decodeIds),
          Effect.orDie
        )
        yield* Effect.forEach(ended, ({ id }) => credentials.forgetCredential(id), { discard: true })
        return ended.length
      })

      const openOf = Effect.fn("Sessions.openOf")(function*(userId: string) {
        const now = yield* realNow
        return yield* sql`
          SELECT id::text AS id, created_at AS "createdAt", expires_at AS "expiresAt" FROM sessions
          WHERE user_id = ${userId} AND revoked_at IS NULL AND expires_at > ${now.iso}::timestamptz
          ORDER BY created_at DESC, id`.pipe(Effect.flatMap(decodeOpen), Effect.orDie)
      })

      const refresh = Effect.fn("Sessions.refresh")(function*(userId: string) {
        const now = yield* realNow
        const sessions = yield* live(userId, now.iso)
        yield* Effect.forEach(sessions, ({ id }) => credentials.forgetCredential(id), { discard: true })
        // The person's assistants act with the same role: their grants are looked at again too.
        yield* credentials.forgetPerson(userId)
      })

      return Sessions.of({ create, record, idsOf, openOf, end, endAllOf, refresh })
    })
  )

  /** `layerNoDeps` with its services' layers. */
  static readonly layer = Sessions.layerNoDeps.pipe(Layer.provide(Credentials.layer))
}
