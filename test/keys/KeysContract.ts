/**
 * What `ApiKeys` promises its callers, run against the stored keys (`ApiKeys.test.ts`, on a
 * database) and against the in-memory ones the fast route tests use (`KeysMemory.test.ts`): the
 * same expectations, so the fake cannot drift from the service it stands in for. Each backend
 * also gives the `ActivityLog` the keys record in. Keys go by the fiber's clock here (the
 * `TestClock` the tests of a layer share: no `ServiceClock` is in context).
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { ActivityLog } from "../../src/activity/ActivityLog.ts"
import { Forbidden, Missing } from "../../src/domain/Failures.ts"
import * as Time from "../../src/domain/Time.ts"
import { nextOf } from "../../src/http/ServiceErrors.ts"
import { ApiKeys } from "../../src/keys/ApiKeys.ts"
import type { Backend, TwoWorkspaces } from "../support/Backends.ts"

export const keysExpectations = <R>(backend: Backend<R, ApiKeys | ActivityLog, TwoWorkspaces>) =>
  layer(backend.services)(`ApiKeys (${backend.name})`, (it) => {
    it.effect("a key's value is returned once; the record keeps its prefix, never the value", () =>
      backend.withFixture(({ workspaceId, otherWorkspaceId }) =>
        Effect.gen(function*() {
          const keys = yield* ApiKeys
          const now = yield* Time.now
          const { key, value } = yield* keys.create({ workspaceId, name: "CRM sync" })
          assert.match(value, /^svc_[A-Za-z0-9_-]{43}$/)
          assert.deepStrictEqual(key, {
            id: key.id,
            name: "CRM sync",
            prefix: value.slice(0, 12),
            role: "owner",
            createdAt: now.iso,
            lastUsedAt: null,
            revokedAt: null
          })
          assert.deepStrictEqual(yield* keys.list(workspaceId), [key])
          assert.notInclude(JSON.stringify(yield* keys.list(workspaceId)), value)
          assert.deepStrictEqual(yield* keys.list(otherWorkspaceId), [])
          assert.isTrue(yield* keys.exists(value))
          assert.isFalse(yield* keys.exists(`${value.slice(0, -1)}x`))
          const given = yield* keys.create({ workspaceId: otherWorkspaceId, name: "Given", value: "svc_given-value" })
          assert.strictEqual(given.value, "svc_given-value")
          assert.strictEqual(given.key.prefix, "svc_given-va")
          assert.isTrue(yield* keys.exists("svc_given-value"))
        })))

    it.effect("a key gets the role asked for, by default its maker's, never a stronger one", () =>
      backend.withFixture(({ workspaceId }) =>
        Effect.gen(function*() {
          const keys = yield* ApiKeys
          assert.strictEqual((yield* keys.create({ workspaceId, name: "ops", by: "admin" })).key.role, "admin")
          assert.strictEqual((yield* keys.create({ workspaceId, name: "bot", by: "admin", role: "read_only" })).key.role, "read_only")
          assert.strictEqual((yield* keys.create({ workspaceId, name: "crm", role: "member" })).key.role, "member")
          const stronger = yield* Effect.flip(keys.create({ workspaceId, name: "escalate", by: "admin", role: "owner" }))
          assert.instanceOf(stronger, Forbidden)
          assert.match(stronger.message, /never stronger than whoever makes it/)
          assert.match(nextOf(stronger.advice), /Choose the admin role or a weaker one/)
          assert.deepStrictEqual((yield* keys.list(workspaceId)).map((key) => key.name).sort(), ["bot", "crm", "ops"])
        })))

    it.effect("keys are listed newest first", () =>
      backend.withFixture(({ workspaceId }) =>
        Effect.gen(function*() {
          const keys = yield* ApiKeys
          const first = yield* keys.create({ workspaceId, name: "first" })
          yield* TestClock.adjust("1 second")
          const second = yield* keys.create({ workspaceId, name: "second" })
          yield* TestClock.adjust("1 second")
          const third = yield* keys.create({ workspaceId, name: "third" })
          assert.deepStrictEqual((yield* keys.list(workspaceId)).map((key) => key.id), [third.key.id, second.key.id, first.key.id])
          assert.strictEqual(Date.parse(third.key.createdAt) - Date.parse(first.key.createdAt), 2000)
        })))

    it.effect("revoking stamps the key once; a key of another workspace, or none, is not found", () =>
      backend.withFixture(({ workspaceId, otherWorkspaceId }) =>
        Effect.gen(function*() {
          const keys = yield* ApiKeys
          const { key, value } = yield* keys.create({ workspaceId, name: "to revoke" })
          const elsewhere = yield* Effect.flip(keys.revoke(otherWorkspaceId, key.id))
          assert.instanceOf(elsewhere, Missing)
          assert.strictEqual(elsewhere.message, `No API key ${key.id} in this workspace.`)
          assert.strictEqual(nextOf(elsewhere.advice), "List the workspace's keys with GET /v1/keys.")
          assert.instanceOf(yield* Effect.flip(keys.revoke(workspaceId, crypto.randomUUID())), Missing)
          yield* TestClock.adjust("1 minute")
          const revoked = yield* keys.revoke(workspaceId, key.id)
          assert.deepStrictEqual(revoked, { ...key, revokedAt: (yield* Time.now).iso })
          yield* TestClock.adjust("1 minute")
          // Its id in capitals is the same uuid.
          assert.deepStrictEqual(yield* keys.revoke(workspaceId, key.id.toUpperCase()), revoked)
          assert.deepStrictEqual(yield* keys.list(workspaceId), [revoked])
          // A revoked key still exists (its value can never be made again).
          assert.isTrue(yield* keys.exists(value))
        })))

    it.effect("making and revoking a key are in the activity log, by whoever did them", () =>
      backend.withFixture(({ workspaceId, otherWorkspaceId }) =>
        Effect.gen(function*() {
          const keys = yield* ApiKeys
          const { key } = yield* keys.create({ workspaceId, name: "CRM sync", role: "member", actor: "user:ada" })
          yield* keys.revoke(workspaceId, key.id)
          const log = yield* (yield* ActivityLog).list(workspaceId, { limit: 10 })
          assert.deepStrictEqual(
            log.entries.map(({ actor, action, resourceType, resourceId, summary, before, after }) => ({
              actor,
              action,
              resourceType,
              resourceId,
              summary,
              before,
              after
            })),
            [
              {
                actor: "operator",
                action: "key.revoked",
                resourceType: "key",
                resourceId: key.id,
                summary: "revoked the API key \"CRM sync\"",
                before: null,
                after: null
              },
              {
                actor: "user:ada",
                action: "key.created",
                resourceType: "key",
                resourceId: key.id,
                summary: "created the member API key \"CRM sync\"",
                before: null,
                after: { name: "CRM sync", role: "member" }
              }
            ]
          )
          assert.deepStrictEqual((yield* (yield* ActivityLog).list(otherWorkspaceId, { limit: 10 })).entries, [])
        })))
  })
