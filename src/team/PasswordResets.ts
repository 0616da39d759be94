/**
 * Password reset links: an owner makes a one-time link for a teammate (the
 * service sends no mail of its own: the owner copies the link; the mail sender
 * port gets it too), on which the teammate sets a new password. Only the
 * token's hash is stored; a link works once, for {@link resetHours}, and a
 * newer one for the same person replaces it. Using it ends every session of
 * the person, and waits while their email is locked by wrong attempts, as
 * signing in does. Both steps are in the activity log. The one module with SQL
 * on `password_resets`.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { WorkspaceTable } from "../accounts/WorkspaceTable.ts"
import { ActivityLog } from "../activity/ActivityLog.ts"
import { hashCredential, newSessionToken } from "../auth/Tokens.ts"
import { permits, refusal } from "../domain/Permissions.ts"
import * as Time from "../domain/Time.ts"
import { NullableTimestamp, Timestamp } from "../platform/Rows.ts"
import { InputRefused, type LockedOut, ResetUnusable, TeamRefused } from "./Refusals.ts"
import { Lockout } from "./Lockout.ts"
import { MailSender } from "./MailSender.ts"
import { hashPassword, passwordProblem } from "./Password.ts"
import { resetHours } from "./Policy.ts"
import { Sessions } from "./Sessions.ts"
import type { Actor } from "./Team.ts"
import { Users } from "./Users.ts"

/** A link just made: shown once to the owner who made it. */
export interface NewReset {
  readonly link: string
  readonly expiresAt: string
  readonly name: string
  readonly email: string
}

/** Whose password a usable link sets, as its page shows it. */
export interface ResetTarget {
  readonly name: string
  readonly email: string
  readonly workspaceName: string
  readonly expiresAt: string
}

const ResetRow = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  userId: Schema.String,
  expiresAt: Timestamp,
  usedAt: NullableTimestamp
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(ResetRow))
const decodeIds = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ id: Schema.String })))

export class PasswordResets extends Context.Service<PasswordResets, {
  /** A new link for `userId` (a teammate, not the actor), replacing any earlier one. */
  readonly create: (actor: Actor, userId: string, baseUrl: string) => Effect.Effect<NewReset, TeamRefused>
  /** Whose password the link's token sets, while it can be used. */
  readonly target: (token: string) => Effect.Effect<ResetTarget, ResetUnusable>
  /** Sets the new password (the link is used up) and ends every session of the person. */
  readonly complete: (token: string, password: string) => Effect.Effect<void, ResetUnusable | InputRefused | LockedOut>
}>()("outreach/PasswordResets") {
  static readonly layerNoDeps = Layer.effect(
    PasswordResets,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const users = yield* Users
      const sessions = yield* Sessions
      const lockout = yield* Lockout
      const mail = yield* MailSender
      const workspaces = yield* WorkspaceTable
      const activity = yield* ActivityLog

      const create = Effect.fn("PasswordResets.create")(function*(actor: Actor, userId: string, baseUrl: string) {
        if (!permits(actor.role, "resetPasswords")) return yield* new TeamRefused({ message: refusal(actor.role, "resetPasswords") })
        if (userId === actor.id) {
          return yield* new TeamRefused({ message: "This is you: change your own password on the Two-factor page." })
        }
        const member = yield* users.member(actor.workspaceId, userId)
        if (member === undefined) return yield* new TeamRefused({ message: "That person is no longer in this workspace." })
        const now = yield* Time.now
        const token = yield* newSessionToken
        const id = crypto.randomUUID()
        const expiresAt = Time.toIso(now.ms + resetHours * 3_600_000)
        yield* sql.withTransaction(Effect.gen(function*() {
          // A newer link replaces the ones before it: only the last one made works.
          yield* sql`
            UPDATE password_resets SET used_at = ${now.iso}::timestamptz
            WHERE user_id = ${userId} AND used_at IS NULL`
          yield* sql`
            INSERT INTO password_resets (id, workspace_id, user_id, hash, created_by, created_at, expires_at)
            VALUES (${id}, ${actor.workspaceId}, ${userId}, ${hashCredential(token)}, ${actor.id},
                    ${now.iso}::timestamptz, ${expiresAt}::timestamptz)`
          yield* activity.record({
            workspaceId: actor.workspaceId,
            actor: `user:${actor.id}`,
            action: "team.password_reset_sent",
            resource: { type: "person", id: userId },
            summary: `made a password reset link for ${member.name} (${member.email})`
          })
        })).pipe(Effect.orDie)
        const link = `${baseUrl}/dashboard/password-reset/${token}`
        yield* mail.send({
          to: member.email,
          subject: `${actor.name} sent you a link to set a new password`,
          text: `${actor.name} (${actor.email}) made you a link to set a new password for your outreach workspace:\n\n${link}\n\nIt works once, for ${resetHours} hours. Your open sessions end when you use it.`
        })
        return { link, expiresAt, name: member.name, email: member.email }
      })

      const usable = (token: string) =>
        Effect.gen(function*() {
          const rows = yield* sql`
            SELECT r.id::text AS id, r.workspace_id::text AS "workspaceId", r.user_id::text AS "userId",
                   r.expires_at AS "expiresAt", r.used_at AS "usedAt"
            FROM password_resets r WHERE r.hash = ${hashCredential(token)}`.pipe(Effect.flatMap(decodeRows), Effect.orDie)
          const row = rows[0]
          if (row === undefined) return yield* new ResetUnusable({ reason: "unknown" })
          if (row.usedAt !== null) return yield* new ResetUnusable({ reason: "used" })
          if (Date.parse(row.expiresAt) <= (yield* Time.now).ms) return yield* new ResetUnusable({ reason: "expired" })
          // The person removed since: their links went with them (ON DELETE CASCADE), but a page may be open.
          const member = yield* users.member(row.workspaceId, row.userId)
          if (member === undefined) return yield* new ResetUnusable({ reason: "unknown" })
          return { row, member }
        })

      const target = Effect.fn("PasswordResets.target")(function*(token: string) {
        const { member, row } = yield* usable(token)
        const workspace = yield* workspaces.get(row.workspaceId)
        return { name: member.name, email: member.email, workspaceName: workspace?.name ?? "your workspace", expiresAt: row.expiresAt }
      })

      const complete = Effect.fn("PasswordResets.complete")(function*(token: string, password: string) {
        const { member, row } = yield* usable(token)
        // Locked by wrong passwords or codes: the link waits too, as signing in does.
        yield* lockout.check(member.email)
        const problem = passwordProblem(password)
        if (problem !== undefined) return yield* new InputRefused({ message: problem })
        const hash = yield* hashPassword(password)
        const now = yield* Time.now
        const claimed = yield* sql.withTransaction(Effect.gen(function*() {
          // Claimed first: the same link sent twice at once sets one password.
          const taken = yield* sql`
            UPDATE password_resets SET used_at = ${now.iso}::timestamptz
            WHERE id = ${row.id} AND used_at IS NULL RETURNING id::text AS id`.pipe(Effect.flatMap(decodeIds))
          if (taken.length === 0) return false
          yield* users.setPassword(row.userId, hash)
          yield* activity.record({
            workspaceId: row.workspaceId,
            actor: `user:${row.userId}`,
            action: "team.password_reset",
            resource: { type: "person", id: row.userId },
            summary: `${member.name} (${member.email}) set a new password from a reset link; their sessions ended`
          })
          return true
        })).pipe(Effect.orDie)
        if (!claimed) return yield* new ResetUnusable({ reason: "used" })
        yield* sessions.endAllOf(row.userId)
      })

      return PasswordResets.of({ create, target, complete })
    })
  )

  /** `layerNoDeps` with its services' layers (the mail sender left open). */
  static readonly layer = PasswordResets.layerNoDeps.pipe(
    Layer.provide([Users.layer, Sessions.layer, Lockout.layer, WorkspaceTable.layer, ActivityLog.layer])
  )
}
