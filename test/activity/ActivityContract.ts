/**
 * What `ActivityLog` promises its callers, run against the stored log (`ActivityLog.test.ts`, on
 * a database) and against the in-memory one the fast route tests use (`ActivityMemory.test.ts`):
 * the same expectations, so the fake cannot drift from the service it stands in for.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { ActivityLog, type NewActivity } from "../../src/activity/ActivityLog.ts"
import { Invalid } from "../../src/domain/Failures.ts"
import * as Time from "../../src/domain/Time.ts"
import { nextOf } from "../../src/http/ServiceErrors.ts"
import type { Backend, TwoWorkspaces } from "../support/Backends.ts"

/** An entry of `workspaceId`: a seat paused by `actor`, unless told otherwise. */
const entry = (workspaceId: string, change: Partial<NewActivity> = {}): NewActivity => ({
  workspaceId,
  actor: "user:ada",
  action: "seat.paused",
  resource: { type: "seat", id: "seat-1" },
  summary: "paused the seat \"Ada\"",
  ...change
})

export const activityExpectations = <R>(backend: Backend<R, ActivityLog, TwoWorkspaces>) =>
  layer(backend.services)(`ActivityLog (${backend.name})`, (it) => {
    it.effect("an entry is listed as recorded, at the clock's time, in its own workspace only", () =>
      backend.withFixture(({ workspaceId, otherWorkspaceId }) =>
        Effect.gen(function*() {
          const log = yield* ActivityLog
          const now = yield* Time.now
          yield* log.record(entry(workspaceId, {
            action: "seat.mode_changed",
            summary: "switched the seat \"Ada\" from approve to autopilot mode",
            before: { mode: "approve", limits: { invites: 20 }, gone: undefined },
            after: { mode: "autopilot", tags: ["a", 1, null, true] }
          }))
          const { entries, nextCursor } = yield* log.list(workspaceId, { limit: 10 })
          assert.isNull(nextCursor)
          assert.strictEqual(entries.length, 1)
          const [recorded] = entries
          assert.match(recorded?.id ?? "", /^[0-9a-f-]{36}$/)
          assert.deepStrictEqual(recorded, {
            id: recorded?.id ?? "",
            at: now.iso,
            actor: "user:ada",
            action: "seat.mode_changed",
            resourceType: "seat",
            resourceId: "seat-1",
            summary: "switched the seat \"Ada\" from approve to autopilot mode",
            // As JSON keeps them: a field without a value is not kept.
            before: { mode: "approve", limits: { invites: 20 } },
            after: { mode: "autopilot", tags: ["a", 1, null, true] }
          })
          assert.deepStrictEqual((yield* log.list(otherWorkspaceId, { limit: 10 })).entries, [])
        })))

    it.effect("without before or after, both are null", () =>
      backend.withFixture(({ workspaceId }) =>
        Effect.gen(function*() {
          const log = yield* ActivityLog
          yield* log.record(entry(workspaceId))
          const [recorded] = (yield* log.list(workspaceId, { limit: 1 })).entries
          assert.isNull(recorded?.before)
          assert.isNull(recorded?.after)
        })))

    it.effect("entries are listed newest first, a page at a time; a cursor the log did not give out is refused", () =>
      backend.withFixture(({ workspaceId }) =>
        Effect.gen(function*() {
          const log = yield* ActivityLog
          for (const id of ["1", "2", "3", "4", "5"]) {
            yield* log.record(entry(workspaceId, { resource: { type: "seat", id } }))
            yield* TestClock.adjust("1 second")
          }
          const ids = (page: { readonly entries: ReadonlyArray<{ readonly resourceId: string }> }) =>
            page.entries.map((recorded) => recorded.resourceId)
          const first = yield* log.list(workspaceId, { limit: 2 })
          assert.deepStrictEqual(ids(first), ["5", "4"])
          assert.isString(first.nextCursor)
          const second = yield* log.list(workspaceId, { limit: 2, cursor: first.nextCursor ?? undefined })
          assert.deepStrictEqual(ids(second), ["3", "2"])
          const last = yield* log.list(workspaceId, { limit: 2, cursor: second.nextCursor ?? undefined })
          assert.deepStrictEqual(ids(last), ["1"])
          assert.isNull(last.nextCursor)
          // Exactly a page left: no next page.
          assert.isNull((yield* log.list(workspaceId, { limit: 5 })).nextCursor)
          for (const cursor of ["bm90LWEtY3Vyc29y", "", Buffer.from("job:3").toString("base64url")]) {
            const foreign = yield* Effect.flip(log.list(workspaceId, { limit: 2, cursor }))
            assert.instanceOf(foreign, Invalid)
            assert.strictEqual(foreign.message, "query.cursor: the cursor is not one this API gave out.")
            assert.match(nextOf(foreign.advice), /leave it out to start from the newest/)
          }
        })))

    it.effect("a listing is filtered by action, actor and resource type, together", () =>
      backend.withFixture(({ workspaceId }) =>
        Effect.gen(function*() {
          const log = yield* ActivityLog
          yield* log.record(entry(workspaceId, { summary: "a" }))
          yield* log.record(entry(workspaceId, { summary: "b", actor: "key:k1" }))
          yield* log.record(entry(workspaceId, { summary: "c", action: "seat.resumed" }))
          yield* log.record(entry(workspaceId, { summary: "d", action: "key.revoked", resource: { type: "key", id: "k1" } }))
          yield* log.record(entry(workspaceId, { summary: "e", actor: "operator", action: "key.created", resource: { type: "key", id: "k2" } }))
          const summaries = (listing: Parameters<ActivityLog["Service"]["list"]>[1]) =>
            Effect.map(log.list(workspaceId, listing), (page) => page.entries.map((recorded) => recorded.summary))
          assert.deepStrictEqual(yield* summaries({ limit: 10, action: "seat.paused" }), ["b", "a"])
          assert.deepStrictEqual(yield* summaries({ limit: 10, actor: "user:ada" }), ["d", "c", "a"])
          assert.deepStrictEqual(yield* summaries({ limit: 10, resourceType: "key" }), ["e", "d"])
          assert.deepStrictEqual(yield* summaries({ limit: 10, resourceType: "key", actor: "user:ada" }), ["d"])
          assert.deepStrictEqual(yield* summaries({ limit: 10, action: "seat.paused", actor: "key:k1" }), ["b"])
          assert.deepStrictEqual(yield* summaries({ limit: 10, actor: "nobody" }), [])
          // A filtered page's cursor pages on within the filter.
          const page = yield* log.list(workspaceId, { limit: 1, actor: "user:ada" })
          const rest = yield* log.list(workspaceId, { limit: 5, actor: "user:ada", cursor: page.nextCursor ?? undefined })
          assert.deepStrictEqual(rest.entries.map((recorded) => recorded.summary), ["c", "a"])
        })))
  })
