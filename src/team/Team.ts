/**
 * The people of a workspace and who may change them. Owners and admins
 * invite by one-time link (shown to them; the mail sender port gets it too),
 * change roles and remove people; only an owner makes or unmakes an owner, and
 * the last owner can be neither removed nor demoted. The operator CLI creates
 * the first owner with a password.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { WorkspaceTable } from "../accounts/WorkspaceTable.ts"
import { Credentials } from "../auth/Credentials.ts"
import { hashCredential, newSessionToken } from "../auth/Tokens.ts"
import { ActivityLog } from "../activity/ActivityLog.ts"
import { permits } from "../domain/Permissions.ts"
import type { Role, SessionUser } from "../domain/Principal.ts"
import * as Time from "../domain/Time.ts"
import { NullableTimestamp, Timestamp } from "../platform/Rows.ts"
import { InputRefused, InvitationUnusable, TeamRefused } from "./Refusals.ts"
import { MailSender } from "./MailSender.ts"
import { hashPassword, passwordProblem } from "./Password.ts"
import { emailMax, invitationDays, isEmail, nameMax, normalizeEmail } from "./Policy.ts"
import { type NewSession, Sessions } from "./Sessions.ts"
import { Users } from "./Users.ts"
import * as ServiceClock from "../platform/ServiceClock.ts"

/** A person of the workspace, as the team page shows them. */
export interface Member {
  readonly id: string
  readonly email: string
  readonly name: string
  readonly role: Role
  readonly twoFactor: boolean
  readonly canSignIn: boolean
  readonly createdAt: string
}

/** An invitation not yet used. */
export interface PendingInvitation {
  readonly id: string
  readonly email: string
  readonly role: Role
  readonly invitedBy: string | null
  readonly createdAt: string
  readonly expiresAt: string
}

/** Who asks for a change: the signed-in person. */
export type Actor = SessionUser & { readonly workspaceId: string }

const RoleSchema = Schema.Literals(["owner", "admin", "member"])
const InvitationRow = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  email: Schema.String,
  role: RoleSchema,
  invitedById: Schema.NullOr(Schema.String),
  createdAt: Timestamp,
  expiresAt: Timestamp,
  acceptedAt: NullableTimestamp,
  revokedAt: NullableTimestamp
})
const decodeInvitations = Schema.decodeUnknownEffect(Schema.Array(InvitationRow))
const decodeIds = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ id: Schema.String })))

/** Who manages people and who manages owners: the table of `domain/Permissions.ts`. */
const mayManage = (actor: Actor) => permits(actor.role, "manageTeam")
const mayManageOwners = (actor: Actor) => permits(actor.role, "manageOwners")

const notManager = new TeamRefused({ message: "Only owners and admins can invite, change or remove people." })
const ownersOnly = new TeamRefused({ message: "Only an owner can make someone an owner or change an owner." })
const lastOwner = new TeamRefused({
  message: "This is the workspace's last owner: make someone else an owner first."
})

const checkName = (name: string) => {
  const trimmed = name.trim()
  if (trimmed === "") return Effect.fail(new InputRefused({ message: "Please give your name." }))
  if (trimmed.length > nameMax) {
    return Effect.fail(new InputRefused({ message: `A name may have at most ${nameMax} characters.` }))
  }
  return Effect.succeed(trimmed)
}

const checkPassword = (password: string) => {
  const problem = passwordProblem(password)
  return problem === undefined ? Effect.void : Effect.fail(new InputRefused({ message: problem }))
}

export class Team extends Context.Service<Team, {
  readonly members: (workspaceId: string) => Effect.Effect<ReadonlyArray<Member>>
  readonly member: (workspaceId: string, userId: string) => Effect.Effect<Member | undefined>
  readonly invitations: (workspaceId: string) => Effect.Effect<ReadonlyArray<PendingInvitation>>
  /** Invites `email` as `role`; the link (with its one-time token) is returned and mailed. */
  readonly invite: (actor: Actor, input: {
    readonly email: string
    readonly role: Role
    readonly baseUrl: string
  }) => Effect.Effect<{ readonly link: string; readonly invitation: PendingInvitation }, TeamRefused | InputRefused>
  readonly revokeInvitation: (actor: Actor, id: string) => Effect.Effect<void, TeamRefused>
  /** The invitation a link's token names, while it can be used. */
  readonly invitation: (token: string) => Effect.Effect<
    { readonly email: string; readonly role: Role; readonly workspaceName: string; readonly expiresAt: string },
    InvitationUnusable
  >
  /** Joins the workspace with a name and password; signs the new person in. */
  readonly accept: (token: string, input: { readonly name: string; readonly password: string }) => Effect.Effect<
    NewSession,
    InvitationUnusable | InputRefused | TeamRefused
  >
  readonly changeRole: (actor: Actor, userId: string, role: Role) => Effect.Effect<void, TeamRefused>
  readonly remove: (actor: Actor, userId: string) => Effect.Effect<void, TeamRefused>
  /** The operator's way in: a person with a password and the owner role (created, or updated by email). */
  readonly createOwner: (input: {
    readonly workspaceId: string
    readonly email: string
    readonly name: string
    readonly password: string
  }) => Effect.Effect<{ readonly userId: string }, InputRefused>
}>()("outreach/Team") {
  static readonly layerNoDeps = Layer.effect(
    Team,
    Effect.gen(function*() {
      // Who people are goes by real time, even on the sandbox's test clock (docs/operations.md).
      const realNow = yield* ServiceClock.realNow
      const sql = yield* SqlClient.SqlClient
      const sessions = yield* Sessions
      const mail = yield* MailSender
      const credentials = yield* Credentials
      const users = yield* Users
      const workspaces = yield* WorkspaceTable
      const activity = yield* ActivityLog
      const actorOf = (actor: Actor) => `user:${actor.id}`

      const members = Effect.fn("Team.members")((workspaceId: string) => users.members(workspaceId))

      const member = Effect.fn("Team.member")((workspaceId: string, userId: string) => users.member(workspaceId, userId))

      const invitationColumns = sql`
        i.id::text AS id, i.workspace_id::text AS "workspaceId", i.email, i.role, i.invited_by::text AS "invitedById",
        i.created_at AS "createdAt", i.expires_at AS "expiresAt", i.accepted_at AS "acceptedAt",
        i.revoked_at AS "revokedAt"`

      // The inviter may have left the workspace since: then no one is named.
      const toPending = (row: typeof InvitationRow.Type, inviters: ReadonlyMap<string, string>): PendingInvitation => ({
        id: row.id,
        email: row.email,
        role: row.role,
        invitedBy: row.invitedById === null ? null : inviters.get(row.invitedById) ?? null,
        createdAt: row.createdAt,
        expiresAt: row.expiresAt
      })

      const invitations = Effect.fn("Team.invitations")(function*(workspaceId: string) {
        const now = yield* realNow
        const rows = yield* sql`
          SELECT ${invitationColumns} FROM team_invitations i
          WHERE i.workspace_id = ${workspaceId} AND i.accepted_at IS NULL AND i.revoked_at IS NULL
            AND i.expires_at > ${now.iso}::timestamptz
          ORDER BY i.created_at DESC`.pipe(Effect.flatMap(decodeInvitations), Effect.orDie)
        const inviters = yield* users.namesOf([
          ...new Set(rows.flatMap((row) => row.invitedById === null ? [] : [row.invitedById]))
        ])
        return rows.map((row) => toPending(row, inviters))
      })

      const invite = Effect.fn("Team.invite")(function*(actor: Actor, input: {
        readonly email: string
        readonly role: Role
        readonly baseUrl: string
      }) {
        if (!mayManage(actor)) return yield* notManager
        if (input.role === "owner" && !mayManageOwners(actor)) return yield* ownersOnly
        const email = input.email.trim()
        if (!isEmail(email)) {
          return yield* new InputRefused({
            message: `"${email.slice(0, emailMax)}" is not an email address (like ada@example.com).`
          })
        }
        const existing = yield* users.idByEmail(actor.workspaceId, normalizeEmail(email))
        if (existing !== undefined) return yield* new TeamRefused({ message: `${email} is already in this workspace.` })
        const now = yield* realNow
        const token = yield* newSessionToken
        const id = crypto.randomUUID()
        const expiresAt = Time.toIso(now.ms + invitationDays * 86_400_000)
        yield* sql`
          INSERT INTO team_invitations (id, workspace_id, email, role, hash, invited_by, created_at, expires_at)
          VALUES (${id}, ${actor.workspaceId}, ${email}, ${input.role}, ${hashCredential(token)}, ${actor.id},
                  ${now.iso}::timestamptz, ${expiresAt}::timestamptz)`.pipe(Effect.orDie)
        const link = `${input.baseUrl}/dashboard/invitations/${token}`
        yield* activity.record({
          workspaceId: actor.workspaceId,
          actor: actorOf(actor),
          action: "team.invited",
          resource: { type: "invitation", id },
          summary: `invited ${email} as ${input.role}`,
          after: { email, role: input.role }
        })
        yield* mail.send({
          to: email,
          subject: `${actor.name} invited you to their outreach workspace`,
          text: `${actor.name} (${actor.email}) invited you to join as ${input.role}.\n\nOpen this link to choose a password: ${link}\n\nThe link works once, for ${invitationDays} days.`
        })
        return {
          link,
          invitation: { id, email, role: input.role, invitedBy: actor.name, createdAt: now.iso, expiresAt }
        }
      })

      const revokeInvitation = Effect.fn("Team.revokeInvitation")(function*(actor: Actor, id: string) {
        if (!mayManage(actor)) return yield* notManager
        const now = yield* realNow
        yield* sql`
          UPDATE team_invitations SET revoked_at = ${now.iso}::timestamptz
          WHERE id = ${id} AND workspace_id = ${actor.workspaceId} AND accepted_at IS NULL AND revoked_at IS NULL`
          .pipe(Effect.orDie)
      })

      const usable = (token: string) =>
        Effect.gen(function*() {
          const rows = yield* sql`SELECT ${invitationColumns} FROM team_invitations i WHERE i.hash = ${hashCredential(token)}`
            .pipe(Effect.flatMap(decodeInvitations), Effect.orDie)
          const row = rows[0]
          if (row === undefined) return yield* new InvitationUnusable({ reason: "unknown" })
          if (row.acceptedAt !== null) return yield* new InvitationUnusable({ reason: "used" })
          if (row.revokedAt !== null) return yield* new InvitationUnusable({ reason: "revoked" })
          const now = yield* realNow
          if (Date.parse(row.expiresAt) <= now.ms) return yield* new InvitationUnusable({ reason: "expired" })
          return row
        })

      const invitation = Effect.fn("Team.invitation")(function*(token: string) {
        const row = yield* usable(token)
        const workspace = yield* workspaces.get(row.workspaceId)
        if (workspace === undefined) return yield* new InvitationUnusable({ reason: "unknown" })
        return { email: row.email, role: row.role, workspaceName: workspace.name, expiresAt: row.expiresAt }
      })

      const accept = Effect.fn("Team.accept")(function*(token: string, input: {
        readonly name: string
        readonly password: string
      }) {
        const row = yield* usable(token)
        const name = yield* checkName(input.name)
        yield* checkPassword(input.password)
        const hash = yield* hashPassword(input.password)
        const now = yield* realNow
        const userId = crypto.randomUUID()
        const outcome = yield* sql.withTransaction(Effect.gen(function*() {
          // Claiming the invitation first: two tabs accepting the same link at once, one wins.
          const claimed = yield* sql`
            UPDATE team_invitations SET accepted_at = ${now.iso}::timestamptz
            WHERE id = ${row.id} AND accepted_at IS NULL AND revoked_at IS NULL RETURNING id::text AS id`.pipe(
            Effect.flatMap(decodeIds)
          )
          if (claimed.length === 0) return "used" as const
          const inserted = yield* users.insertWithPassword({
            id: userId,
            workspaceId: row.workspaceId,
            email: row.email,
            name,
            role: row.role,
            nowIso: now.iso,
            passwordHash: hash
          })
          return inserted === undefined ? "taken" as const : "joined" as const
        })).pipe(Effect.orDie)
        if (outcome === "used") return yield* new InvitationUnusable({ reason: "used" })
        if (outcome === "taken") {
          return yield* new TeamRefused({ message: `${row.email} is already in this workspace: sign in instead.` })
        }
        return yield* sessions.create(userId)
      })

      const target = (actor: Actor, userId: string) =>
        Effect.gen(function*() {
          if (!mayManage(actor)) return yield* notManager
          const found = yield* member(actor.workspaceId, userId)
          if (found === undefined) {
            return yield* new TeamRefused({ message: "That person is no longer in this workspace." })
          }
          if (found.role === "owner" && !mayManageOwners(actor)) return yield* ownersOnly
          return found
        })

      const changeRole = Effect.fn("Team.changeRole")(function*(actor: Actor, userId: string, role: Role) {
        const found = yield* target(actor, userId)
        if (role === "owner" && !mayManageOwners(actor)) return yield* ownersOnly
        if (found.role === role) return
        const outcome = yield* sql.withTransaction(Effect.gen(function*() {
          const owners = yield* users.lockOwners(actor.workspaceId)
          if (found.role === "owner" && owners.length <= 1) return "lastOwner" as const
          yield* users.setRole(actor.workspaceId, userId, role)
          return "changed" as const
        })).pipe(Effect.orDie)
        if (outcome === "lastOwner") return yield* lastOwner
        yield* activity.record({
          workspaceId: actor.workspaceId,
          actor: actorOf(actor),
          action: "team.role_changed",
          resource: { type: "person", id: userId },
          summary: `made ${found.name} (${found.email}) ${role === "admin" ? "an" : "a"} ${role}`,
          before: { role: found.role },
          after: { role }
        })
        // Servers remember a session's role with its rate-limit slice: they look again now.
        yield* sessions.refresh(userId)
      })

      const remove = Effect.fn("Team.remove")(function*(actor: Actor, userId: string) {
        const found = yield* target(actor, userId)
        const ended = yield* sql.withTransaction(Effect.gen(function*() {
          const owners = yield* users.lockOwners(actor.workspaceId)
          if (found.role === "owner" && owners.length <= 1) return undefined
          // The person's sessions go with them (ON DELETE CASCADE); their ids are told to every server.
          const sessionIds = yield* sessions.idsOf(userId)
          yield* users.remove(actor.workspaceId, userId)
          return sessionIds
        })).pipe(Effect.orDie)
        if (ended === undefined) return yield* lastOwner
        yield* activity.record({
          workspaceId: actor.workspaceId,
          actor: actorOf(actor),
          action: "team.removed",
          resource: { type: "person", id: userId },
          summary: `removed ${found.name} (${found.email}), ${found.role === "admin" ? "an" : "a"} ${found.role}`,
          before: { name: found.name, email: found.email, role: found.role }
        })
        yield* Effect.forEach(ended, ({ id }) => credentials.forgetCredential(id), { discard: true })
        // Their assistants' grants went with them too (ON DELETE CASCADE).
        yield* credentials.forgetPerson(userId)
      })

      const createOwner = Effect.fn("Team.createOwner")(function*(input: {
        readonly workspaceId: string
        readonly email: string
        readonly name: string
        readonly password: string
      }) {
        const email = input.email.trim()
        if (!isEmail(email)) return yield* new InputRefused({ message: `"${email}" is not an email address.` })
        const name = yield* checkName(input.name)
        yield* checkPassword(input.password)
        const hash = yield* hashPassword(input.password)
        const now = yield* realNow
        const userId = yield* users.upsertOwner({
          workspaceId: input.workspaceId,
          email,
          name,
          role: "owner",
          nowIso: now.iso,
          passwordHash: hash
        })
        yield* sessions.refresh(userId)
        return { userId }
      })

      return Team.of({
        members,
        member,
        invitations,
        invite,
        revokeInvitation,
        invitation,
        accept,
        changeRole,
        remove,
        createOwner
      })
    })
  )

  /** `layerNoDeps` with its services' layers. */
  static readonly layer = Team.layerNoDeps.pipe(
    Layer.provide([Credentials.layer, Sessions.layer, Users.layer, WorkspaceTable.layer, ActivityLog.layer])
  )

}
