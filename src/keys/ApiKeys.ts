/**
 * API keys of a workspace: create (value shown once, hash stored), list, revoke.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { ActivityLog, type NewActivity } from "../activity/ActivityLog.ts"
import { Credentials } from "../auth/Credentials.ts"
import { displayPrefix, hashCredential, newKeyValue } from "../auth/Tokens.ts"
import { Forbidden, Missing } from "../domain/Failures.ts"
import { AccessRole, mayGrant, roleName } from "../domain/Permissions.ts"
import { NullableTimestamp, Timestamp } from "../platform/Rows.ts"
import * as ServiceClock from "../platform/ServiceClock.ts"

const KeyRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  prefix: Schema.String,
  role: AccessRole,
  createdAt: Timestamp,
  lastUsedAt: NullableTimestamp,
  revokedAt: NullableTimestamp
})
const decodeKeys = Schema.decodeUnknownEffect(Schema.Array(KeyRow))

/** A key as the service keeps it (never its value): what `GET /v1/keys` lists. */
export type ApiKeyRecord = typeof KeyRow.Type

/** What a new key is made as, and by whom. */
export interface NewKey {
  readonly workspaceId: string
  readonly name: string
  readonly value?: string | undefined
  /** The key's role; by default the role of whoever makes it. */
  readonly role?: AccessRole | undefined
  /** The role of whoever makes it (a key never gets a stronger one); the operator's is owner. */
  readonly by?: AccessRole | undefined
  /** Who makes it, for the activity log (`user:<id>`, `key:<id>`); the operator by default. */
  readonly actor?: string | undefined
}

/** The role a new key gets (by default its maker's), or 403 `notAllowed` for one stronger than its maker's. */
export const grantedRole = (input: NewKey): Effect.Effect<AccessRole, Forbidden> => {
  const by = input.by ?? "owner"
  const role = input.role ?? by
  return mayGrant(by, role) ? Effect.succeed(role) : Effect.fail(
    new Forbidden({
      message: `A ${roleName(by)} cannot make a key with the ${roleName(role)} role: a key is never stronger than whoever makes it.`,
      advice: { _tag: "WeakerRole", role: roleName(by) }
    })
  )
}

/** No key `id` in the workspace. */
export const keyNotFound = (id: string) => new Missing({ message: `No API key ${id} in this workspace.`, advice: { _tag: "ListKeys" } })

/** The activity entry of a key made. */
export const keyCreated = (input: NewKey, key: ApiKeyRecord): NewActivity => ({
  workspaceId: input.workspaceId,
  actor: input.actor ?? "operator",
  action: "key.created",
  resource: { type: "key", id: key.id },
  summary: `created the ${roleName(key.role)} API key "${key.name}"`,
  after: { name: key.name, role: key.role }
})

/** The activity entry of the key `id`, named `name`, revoked (each time it is, revoked before or not). */
export const keyRevoked = (workspaceId: string, id: string, name: string, actor: string | undefined): NewActivity => ({
  workspaceId,
  actor: actor ?? "operator",
  action: "key.revoked",
  resource: { type: "key", id },
  summary: `revoked the API key "${name}"`
})

export class ApiKeys extends Context.Service<ApiKeys, {
  /**
   * Creates a key; `value` (or a fresh random one) is returned once and only its hash is stored.
   * 403 `notAllowed` for a role stronger than its maker's.
   */
  readonly create: (input: NewKey) => Effect.Effect<{ readonly key: ApiKeyRecord; readonly value: string }, Forbidden>
  readonly list: (workspaceId: string) => Effect.Effect<ReadonlyArray<ApiKeyRecord>>
  /** Revokes at once; revoking a revoked key returns it unchanged. `actor` as for {@link NewKey}. */
  readonly revoke: (workspaceId: string, id: string, actor?: string) => Effect.Effect<ApiKeyRecord, Missing>
  /** Whether a key with this value exists (revoked or not). */
  readonly exists: (value: string) => Effect.Effect<boolean>
}>()("outreach/ApiKeys") {
  static readonly layerNoDeps = Layer.effect(
    ApiKeys,
    Effect.gen(function*() {
      // Who people are goes by real time, even on the sandbox's test clock (docs/operations.md).
      const realNow = yield* ServiceClock.realNow
      const sql = yield* SqlClient.SqlClient
      const credentials = yield* Credentials
      const activity = yield* ActivityLog
      const columns = sql`id::text AS id, name, prefix, role, created_at AS "createdAt",
        last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"`

      const create = Effect.fn("ApiKeys.create")(function*(input: NewKey) {
        const role = yield* grantedRole(input)
        const value = input.value ?? (yield* newKeyValue)
        const now = yield* realNow
        const rows = yield* sql`
          INSERT INTO api_keys (id, workspace_id, name, prefix, hash, role, created_at)
          VALUES (${crypto.randomUUID()}, ${input.workspaceId}, ${input.name}, ${displayPrefix(value)},
                  ${hashCredential(value)}, ${role}, ${now.iso}::timestamptz)
          RETURNING ${columns}`.pipe(Effect.flatMap(decodeKeys), Effect.orDie)
        const key = rows[0]
        if (key !== undefined) yield* activity.record(keyCreated(input, key))
        return { key: rows[0], value }
      })

      const list = Effect.fn("ApiKeys.list")((workspaceId: string) =>
        sql`SELECT ${columns} FROM api_keys WHERE workspace_id = ${workspaceId} ORDER BY created_at DESC, id`.pipe(
          Effect.flatMap(decodeKeys),
          Effect.orDie
        )
      )

      const revoke = Effect.fn("ApiKeys.revoke")(function*(workspaceId: string, id: string, actor?: string) {
        const now = yield* realNow
        const rows = yield* sql`
          UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ${now.iso}::timestamptz)
          WHERE id = ${id} AND workspace_id = ${workspaceId}
          RETURNING ${columns}`.pipe(Effect.flatMap(decodeKeys), Effect.orDie)
        const key = rows[0]
        if (key === undefined) return yield* keyNotFound(id)
        yield* credentials.forgetCredential(id)
        yield* activity.record(keyRevoked(workspaceId, id, key.name, actor))
        yield* Effect.logInfo("API key revoked").pipe(Effect.annotateLogs({ keyId: id, workspaceId }))
        return key
      })

      const exists = Effect.fn("ApiKeys.exists")((value: string) =>
        sql`SELECT 1 AS one FROM api_keys WHERE hash = ${hashCredential(value)}`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        )
      )

      return ApiKeys.of({ create, list, revoke, exists })
    })
  )

  /** `layerNoDeps` with its services' layers. */
  static readonly layer = ApiKeys.layerNoDeps.pipe(Layer.provide([Credentials.layer, ActivityLog.layer]))
}
