/**
 * The `users` table: the people who sign in to the dashboard. The one module
 * with SQL on it (issue #19, one owner per table); the rules (who may change
 * whom, the last owner, codes taken once) are `Team`'s, `SignIn`'s and
 * `TwoFactorSettings`'. Statements only, each joining the caller's
 * transaction when there is one.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { Role } from "../domain/Principal.ts"
import { firstRow, NullableTimestamp, Timestamp } from "../platform/Rows.ts"

const RoleSchema = Schema.Literals(["owner", "admin", "member"])

/** A person of the workspace, as the team page shows them. */
export const MemberRow = Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  name: Schema.String,
  role: RoleSchema,
  twoFactor: Schema.Boolean,
  canSignIn: Schema.Boolean,
  createdAt: Timestamp
})
export type MemberRow = typeof MemberRow.Type
const decodeMembers = Schema.decodeUnknownEffect(Schema.Array(MemberRow))

/** Someone an email may sign in as: their workspace, the password to check and whether a second factor follows. */
export const SignInCandidate = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  passwordHash: Schema.NullOr(Schema.String),
  totpSecret: Schema.NullOr(Schema.String)
})
export type SignInCandidate = typeof SignInCandidate.Type
const decodeCandidates = Schema.decodeUnknownEffect(Schema.Array(SignInCandidate))

/** A person's two-factor secrets. */
export const TotpState = Schema.Struct({
  email: Schema.String,
  secret: Schema.NullOr(Schema.String),
  pending: Schema.NullOr(Schema.String),
  enabledAt: NullableTimestamp
})
export type TotpState = typeof TotpState.Type
const decodeTotp = Schema.decodeUnknownEffect(Schema.Array(TotpState))

const decodeIds = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ id: Schema.String })))
const decodeNames = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ id: Schema.String, name: Schema.String })))

/** A person to record. */
export interface NewUser {
  readonly workspaceId: string
  readonly email: string
  readonly name: string
  readonly role: Role
  readonly nowIso: string
}

const decodePassword = Schema.decodeUnknownEffect(
  Schema.Array(Schema.Struct({ email: Schema.String, passwordHash: Schema.NullOr(Schema.String) }))
)

export class Users extends Context.Service<Users, {
  /** The workspace's people: owners, then admins, then members, by name. */
  readonly members: (workspaceId: string) => Effect.Effect<ReadonlyArray<MemberRow>>
  readonly member: (workspaceId: string, userId: string) => Effect.Effect<MemberRow | undefined>
  /** The names of these people (one query for them all); someone removed has none. */
  readonly namesOf: (userIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, string>>
  /** The person of the workspace with this email (any case), if any. */
  readonly idByEmail: (workspaceId: string, email: string) => Effect.Effect<string | undefined>
  /** Records a person with a password; undefined when the workspace has someone with that email already. */
  readonly insertWithPassword: (
    user: NewUser & { readonly id: string; readonly passwordHash: string }
  ) => Effect.Effect<string | undefined>
  /** The owner of that email, made or updated (name, role, password). */
  readonly upsertOwner: (user: NewUser & { readonly passwordHash: string }) => Effect.Effect<string>
  /** The person of that email, made or updated (name, role); the password is left as it is. */
  readonly upsert: (user: NewUser) => Effect.Effect<string>
  /** The workspace's owners, locked until the transaction ends (two removals at once cannot both pass). */
  readonly lockOwners: (workspaceId: string) => Effect.Effect<ReadonlyArray<string>>
  readonly setRole: (workspaceId: string, userId: string, role: Role) => Effect.Effect<void>
  /** Deletes the person; their sessions and codes go with them (ON DELETE CASCADE). */
  readonly remove: (workspaceId: string, userId: string) => Effect.Effect<void>
  /** Everyone with this email in any workspace, the earliest first (`SignIn` keeps those of active workspaces). */
  readonly signInCandidates: (normalizedEmail: string) => Effect.Effect<ReadonlyArray<SignInCandidate>>
  /** Takes a TOTP time step: true only for a step later than the last one taken (a code works once). */
  readonly takeTotpStep: (userId: string, step: number) => Effect.Effect<boolean>
  readonly totp: (userId: string) => Effect.Effect<TotpState | undefined>
  readonly setPendingSecret: (userId: string, secret: string) => Effect.Effect<void>
  /** The secret being set up becomes the one in use, its first code's step taken. */
  readonly enableTotp: (userId: string, step: number, nowIso: string) => Effect.Effect<void>
  readonly disableTotp: (userId: string) => Effect.Effect<void>
  /** The person's email and stored password hash (null when they have none). */
  readonly passwordOf: (userId: string) => Effect.Effect<{ readonly email: string; readonly passwordHash: string | null } | undefined>
  readonly setPassword: (userId: string, passwordHash: string) => Effect.Effect<void>
}>()("outreach/Users") {
  static readonly layer = Layer.effect(
    Users,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const memberColumns = sql`
        u.id::text AS id, u.email, u.name, u.role, (u.totp_secret IS NOT NULL) AS "twoFactor",
        (u.password_hash IS NOT NULL) AS "canSignIn", u.created_at AS "createdAt"`
      const ids = <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
        query.pipe(Effect.flatMap(decodeIds), Effect.map((rows) => rows.map((row) => row.id)), Effect.orDie)
      const oneId = <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
        ids(query).pipe(
          Effect.flatMap((found) =>
            found[0] === undefined ? Effect.die(new Error("the upsert returned no row")) : Effect.succeed(found[0])
          )
        )

      return Users.of({
        members: (workspaceId) =>
          sql`SELECT ${memberColumns} FROM users u WHERE u.workspace_id = ${workspaceId}
              ORDER BY CASE u.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END, lower(u.name), u.id`.pipe(
            Effect.flatMap(decodeMembers),
            Effect.orDie
          ),
        member: (workspaceId, userId) =>
          sql`
            SELECT ${memberColumns} FROM users u
            WHERE u.workspace_id = ${workspaceId} AND u.id = ${userId}`.pipe(Effect.flatMap(decodeMembers), firstRow),
        namesOf: (userIds) =>
          userIds.length === 0 ? Effect.succeed(new Map<string, string>()) : sql`
            SELECT id::text AS id, name FROM users WHERE id IN ${sql.in(userIds)}`.pipe(
            Effect.flatMap(decodeNames),
            Effect.map((rows) => new Map(rows.map((row) => [row.id, row.name]))),
            Effect.orDie
          ),
        idByEmail: (workspaceId, email) =>
          ids(sql`SELECT id::text AS id FROM users WHERE workspace_id = ${workspaceId} AND lower(email) = ${email}`)
            .pipe(Effect.map((found) => found.at(0))),
        insertWithPassword: (user) =>
          ids(sql`
            INSERT INTO users (id, workspace_id, email, name, role, created_at, password_hash)
            VALUES (${user.id}, ${user.workspaceId}, ${user.email}, ${user.name}, ${user.role},
                    ${user.nowIso}::timestamptz, ${user.passwordHash})
            ON CONFLICT (workspace_id, email) DO NOTHING RETURNING id::text AS id`).pipe(
            Effect.map((found) => found.at(0))
          ),
        upsertOwner: (user) =>
          oneId(sql`
            INSERT INTO users (id, workspace_id, email, name, role, created_at, password_hash)
            VALUES (${crypto.randomUUID()}, ${user.workspaceId}, ${user.email}, ${user.name}, ${user.role},
                    ${user.nowIso}::timestamptz, ${user.passwordHash})
            ON CONFLICT (workspace_id, email) DO UPDATE
              SET name = EXCLUDED.name, role = EXCLUDED.role, password_hash = EXCLUDED.password_hash
            RETURNING id::text AS id`),
        upsert: (user) =>
          oneId(sql`
            INSERT INTO users (id, workspace_id, email, name, role, created_at)
            VALUES (${crypto.randomUUID()}, ${user.workspaceId}, ${user.email}, ${user.name}, ${user.role},
                    ${user.nowIso}::timestamptz)
            ON CONFLICT (workspace_id, email) DO UPDATE SET name = EXCLUDED.name, role = EXCLUDED.role
            RETURNING id::text AS id`),
        lockOwners: (workspaceId) =>
          ids(sql`SELECT id::text AS id FROM users WHERE workspace_id = ${workspaceId} AND role = 'owner' FOR UPDATE`),
        setRole: (workspaceId, userId, role) =>
          sql`UPDATE users SET role = ${role} WHERE id = ${userId} AND workspace_id = ${workspaceId}`.pipe(
            Effect.asVoid,
            Effect.orDie
          ),
        remove: (workspaceId, userId) =>
          sql`DELETE FROM users WHERE id = ${userId} AND workspace_id = ${workspaceId}`.pipe(Effect.asVoid, Effect.orDie),
        signInCandidates: (normalizedEmail) =>
          sql`
            SELECT u.id::text AS id, u.workspace_id::text AS "workspaceId", u.password_hash AS "passwordHash",
              u.totp_secret AS "totpSecret"
            FROM users u
            WHERE lower(u.email) = ${normalizedEmail}
            ORDER BY u.created_at, u.id`.pipe(Effect.flatMap(decodeCandidates), Effect.orDie),
        takeTotpStep: (userId, step) =>
          ids(sql`
            UPDATE users SET totp_last_step = ${step}
            WHERE id = ${userId} AND (totp_last_step IS NULL OR totp_last_step < ${step})
            RETURNING id::text AS id`).pipe(Effect.map((taken) => taken.length === 1)),
        totp: (userId) =>
          sql`
            SELECT u.email, u.totp_secret AS secret, u.totp_pending_secret AS pending, u.totp_enabled_at AS "enabledAt"
            FROM users u WHERE u.id = ${userId}`.pipe(Effect.flatMap(decodeTotp), firstRow),
        setPendingSecret: (userId, secret) =>
          sql`UPDATE users SET totp_pending_secret = ${secret} WHERE id = ${userId}`.pipe(Effect.asVoid, Effect.orDie),
        enableTotp: (userId, step, nowIso) =>
          sql`
            UPDATE users SET totp_secret = totp_pending_secret, totp_pending_secret = NULL,
              totp_enabled_at = ${nowIso}::timestamptz, totp_last_step = ${step}
            WHERE id = ${userId}`.pipe(Effect.asVoid, Effect.orDie),
        disableTotp: (userId) =>
          sql`
            UPDATE users SET totp_secret = NULL, totp_pending_secret = NULL, totp_enabled_at = NULL
            WHERE id = ${userId}`.pipe(Effect.asVoid, Effect.orDie),
        passwordOf: (userId) =>
          sql`SELECT u.email, u.password_hash AS "passwordHash" FROM users u WHERE u.id = ${userId}`.pipe(
            Effect.flatMap(decodePassword),
            firstRow
          ),
        setPassword: (userId, passwordHash) =>
          sql`UPDATE users SET password_hash = ${passwordHash} WHERE id = ${userId}`.pipe(Effect.asVoid, Effect.orDie)
      })
    })
  )
}
