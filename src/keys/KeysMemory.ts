/**
 * `ApiKeys` in memory, for fast tests of the key routes without a database: the rules of the
 * stored keys (`ApiKeys.ts`), for one process. A key gets the role asked for, never one stronger
 * than its maker's; its value is returned once and only its hash is kept; keys are listed newest
 * first; revoking stamps the key once (a second revoke changes nothing) and, like creating, is
 * recorded in the `ActivityLog` it is given. Nothing authenticates with these keys, so
 * `lastUsedAt` stays null and there is no credentials' cache to forget a revoked key from.
 */
import { Effect, Layer } from "effect"
import { ActivityLog } from "../activity/ActivityLog.ts"
import { displayPrefix, hashCredential, newKeyValue } from "../auth/Tokens.ts"
import * as Time from "../domain/Time.ts"
import * as ServiceClock from "../platform/ServiceClock.ts"
import { type ApiKeyRecord, ApiKeys, grantedRole, keyCreated, keyNotFound, keyRevoked, type NewKey } from "./ApiKeys.ts"

/** A key as the table keeps it: its record, its workspace and its value's hash. */
interface KeyRow {
  readonly workspaceId: string
  readonly hash: string
  readonly key: ApiKeyRecord
}

/** The in-memory `ApiKeys`; needs the `ActivityLog` it records in. */
export const layer = Layer.effect(
  ApiKeys,
  Effect.gen(function*() {
    const realNow = yield* ServiceClock.realNow
    const activity = yield* ActivityLog
    const rows: Array<KeyRow> = []

    const create = Effect.fn("KeysMemory.create")(function*(input: NewKey) {
      const role = yield* grantedRole(input)
      const value = input.value ?? (yield* newKeyValue)
      const now = yield* realNow
      const key: ApiKeyRecord = {
        id: crypto.randomUUID(),
        name: input.name,
        prefix: displayPrefix(value),
        role,
        createdAt: now.iso,
        lastUsedAt: null,
        revokedAt: null
      }
      rows.push({ workspaceId: input.workspaceId, hash: hashCredential(value), key })
      yield* activity.record(keyCreated(input, key))
      return { key, value }
    })

    const list = Effect.fn("KeysMemory.list")((workspaceId: string) =>
      Effect.sync(() => rows.filter((row) => row.workspaceId === workspaceId).map((row) => row.key).sort(Time.newestFirst))
    )

    const revoke = Effect.fn("KeysMemory.revoke")(function*(workspaceId: string, id: string, actor?: string) {
      // A uuid, whatever the case of its letters (as the table's uuid column compares).
      const index = rows.findIndex((row) => row.key.id === id.toLowerCase() && row.workspaceId === workspaceId)
      const row = rows[index]
      if (row === undefined) return yield* keyNotFound(id)
      const now = yield* realNow
      const key: ApiKeyRecord = { ...row.key, revokedAt: row.key.revokedAt ?? now.iso }
      rows[index] = { ...row, key }
      yield* activity.record(keyRevoked(workspaceId, id, key.name, actor))
      return key
    })

    const exists = Effect.fn("KeysMemory.exists")((value: string) =>
      Effect.sync(() => rows.some((row) => row.hash === hashCredential(value)))
    )

    return ApiKeys.of({ create, list, revoke, exists })
  })
)
