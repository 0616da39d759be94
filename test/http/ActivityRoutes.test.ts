/**
 * The activity route's contract, fast: the service's own handler (`http/ActivityHandlers.ts`)
 * behind the contract's middleware, called with the typed client in memory (`HttpApiTest`), on the
 * in-memory `ActivityLog` and `ApiKeys` (held to the stored ones by `test/activity/ActivityContract.ts`
 * and `test/keys/KeysContract.ts`). Each test checks status codes, the envelope and error types as
 * the spec states them, bad input included.
 *
 * The route names each entry's actor from the workspace's people (`Team.members`) and keys. The
 * people are given here by {@link peopleOnly}, a `Team` that answers who is in the workspace and
 * nothing else: the activity route reads no more of it, and the team's changes are tested with
 * the stored service (`test/team/`, `test/http/Activity.test.ts`).
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { HttpApiTest } from "effect/http-api"
import { ActivityLog, type NewActivity } from "../../src/activity/ActivityLog.ts"
import * as ActivityMemory from "../../src/activity/ActivityMemory.ts"
import { Api } from "../../src/api/Api.ts"
import { ActivityHandlers } from "../../src/http/ActivityHandlers.ts"
import { ApiKeys } from "../../src/keys/ApiKeys.ts"
import * as KeysMemory from "../../src/keys/KeysMemory.ts"
import { type Member, Team } from "../../src/team/Team.ts"
import { callerWorkspaceId } from "../support/AnyCaller.ts"
import { assertEnvelope, inMemory, read, sending } from "../support/RouteCalls.ts"

/** The caller's workspace's one person. */
const olivia: Member = {
  id: "8d3f2a1b-4c5e-4f6a-9b8c-7d6e5f4a3b2c",
  email: "olivia@acme.test",
  name: "Olivia Owner",
  role: "owner",
  twoFactor: false,
  canSignIn: true,
  createdAt: "2026-11-01T09:00:00.000Z"
}

/** A `Team` whose workspace {@link callerWorkspaceId} has `people`; any change of the team is not the activity route's. */
const peopleOnly = (people: ReadonlyArray<Member>) => {
  const notRead = Effect.die(new Error("the activity route reads only who is in the workspace"))
  const members = (workspaceId: string) => Effect.succeed(workspaceId === callerWorkspaceId ? people : [])
  return Layer.succeed(
    Team,
    Team.of({
      members,
      member: (workspaceId, userId) => Effect.map(members(workspaceId), (found) => found.find((person) => person.id === userId)),
      invitations: () => notRead,
      invite: () => notRead,
      revokeInvitation: () => notRead,
      invitation: () => notRead,
      accept: () => notRead,
      changeRole: () => notRead,
      remove: () => notRead,
      createOwner: () => notRead
    })
  )
}

const services = inMemory(
  ActivityHandlers.pipe(Layer.provideMerge(Layer.mergeAll(KeysMemory.layer, peopleOnly([olivia]))), Layer.provideMerge(ActivityMemory.layer))
)

const client = HttpApiTest.groups(Api, ["activity"])

/** An entry of the caller's workspace: Olivia paused a seat, unless told otherwise. */
const entry = (change: Partial<NewActivity> = {}): NewActivity => ({
  workspaceId: callerWorkspaceId,
  actor: `user:${olivia.id}`,
  action: "seat.paused",
  resource: { type: "seat", id: "7f0c2f6e-5a7b-4d1c-9a44-1d2b3c4d5e6f" },
  summary: "paused the seat \"Ada\"",
  ...change
})

layer(services)("the activity route in memory", (it) => {
  it.effect("GET /v1/activity lists the workspace's entries newest first, each actor named", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const log = yield* ActivityLog
      // Made by Olivia's key: recorded as `key.created` by her.
      const { key } = yield* (yield* ApiKeys).create({ workspaceId: callerWorkspaceId, name: "CRM sync", actor: `user:${olivia.id}` })
      yield* log.record(entry({ actor: `key:${key.id}`, action: "seat.mode_changed", before: { mode: "approve" }, after: { mode: "autopilot" } }))
      yield* log.record(entry({ actor: "operator" }))
      yield* log.record(entry({ actor: "user:0f0e0d0c-0b0a-4908-8706-050403020100" }))
      yield* log.record(entry({ actor: "key:0f0e0d0c-0b0a-4908-8706-050403020100" }))
      yield* log.record(entry({ workspaceId: crypto.randomUUID(), summary: "elsewhere" }))
      const [page, response] = yield* api.activity.list({ query: { limit: 5 }, responseMode: "decoded-and-response" })
      assert.strictEqual(response.status, 200)
      assert.isTrue(page.ok)
      assert.isNull(page.nextCursor)
      assert.deepStrictEqual(page.activity.map((shown) => shown.actor.name), [
        "a deleted key",
        "a former teammate",
        "the operator (command line)",
        "API key \"CRM sync\"",
        "Olivia Owner"
      ])
      const [deleted, , operator, byKey, created] = page.activity
      assert.deepStrictEqual(operator?.actor, { type: "operator", id: null, name: "the operator (command line)" })
      assert.deepStrictEqual(deleted?.actor.type, "key")
      assert.deepStrictEqual(byKey?.actor, { type: "key", id: `key:${key.id}`, name: "API key \"CRM sync\"" })
      assert.deepStrictEqual(byKey?.before, { mode: "approve" })
      assert.deepStrictEqual(byKey?.after, { mode: "autopilot" })
      assert.deepStrictEqual(created?.actor, { type: "person", id: `user:${olivia.id}`, name: "Olivia Owner" })
      assert.strictEqual(created?.action, "key.created")
      assert.deepStrictEqual(created?.resource, { type: "key", id: key.id })
      assert.strictEqual(created?.summary, "created the owner API key \"CRM sync\"")
      assert.isNull(operator?.before)
      assert.isNull(operator?.after)
    })))

  it.effect("pages with cursor and limit, filtered by action, actor and resource; a cursor it did not give out is 422", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const log = yield* ActivityLog
      for (const seat of ["a", "b", "c"]) {
        yield* log.record(entry({ action: "seat.resumed", resource: { type: "seat", id: seat }, actor: "key:paging" }))
      }
      const query = { action: "seat.resumed", actor: "key:paging", resource: "seat" } as const
      const first = yield* api.activity.list({ query: { ...query, limit: 2 } })
      assert.deepStrictEqual(first.activity.map((shown) => shown.resource.id), ["c", "b"])
      assert.isString(first.nextCursor)
      const rest = yield* api.activity.list({ query: { ...query, limit: 2, cursor: first.nextCursor ?? "" } })
      assert.deepStrictEqual(rest.activity.map((shown) => shown.resource.id), ["a"])
      assert.isNull(rest.nextCursor)
      assert.deepStrictEqual((yield* api.activity.list({ query: { ...query, resource: "key" } })).activity, [])
      const foreign = yield* api.activity.list({ query: { cursor: "bm90LWEtY3Vyc29y" }, responseMode: "response-only" })
      const error = assertEnvelope(yield* read(foreign), 422, "unprocessable")
      assert.include(error.message, "query.cursor")
      assert.include(error.next, "leave it out to start from the newest")
      assert.strictEqual((yield* Effect.flip(api.activity.list({ query: { cursor: "bm90LWEtY3Vyc29y" } })))._tag, "Unprocessable")
    })))

  it.effect("a limit out of 1 to 200, an unknown action or resource, or a long actor is 400 naming the parameter", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const list = api.activity.list({ query: {}, responseMode: "response-only" })
      const bad = ["limit=0", "limit=201", "limit=ten", "action=seat.danced", "resource=planet", `actor=${"x".repeat(101)}`, "cursor="]
      for (const query of bad) {
        const error = assertEnvelope(yield* read(yield* list.pipe(sending({ path: `/v1/activity?${query}` }))), 400, "badRequest")
        assert.include(error.message, `query.${query.split("=")[0]}`, query)
      }
      const limitOf200 = yield* read(yield* list.pipe(sending({ path: "/v1/activity?limit=200" })))
      assert.strictEqual(limitOf200.status, 200)
    })))
})
