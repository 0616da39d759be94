/**
 * `GET /v1/me`'s contract, fast: the service's own handlers (`http/IdentityHandlers.ts`) behind
 * the contract's middleware, called with the typed client in memory (`HttpApiTest`), on the
 * in-memory `Workspaces` (held to the stored ones by `test/workspaces/WorkspacesContract.ts`).
 * The caller is a stand-in: an API key, or a person signed in to a workspace the test made; who
 * may call at all (the 401s) is the gate's, tested with the whole service (`Identity.test.ts`), and
 * the route takes no input to get wrong.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { HttpApiTest } from "effect/http-api"
import * as ActivityMemory from "../../src/activity/ActivityMemory.ts"
import { Api } from "../../src/api/Api.ts"
import { IdentityHandlers } from "../../src/http/IdentityHandlers.ts"
import * as KeysMemory from "../../src/keys/KeysMemory.ts"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import * as WorkspacesMemory from "../../src/workspaces/WorkspacesMemory.ts"
import { callerAs, callerIs, callerWorkspaceId } from "../support/AnyCaller.ts"
import { inMemory, read } from "../support/RouteCalls.ts"

/** Fresh in-memory workspaces (their owner keys in memory too), the sandbox the default network. */
const workspaces = WorkspacesMemory.layer.pipe(
  Layer.provide(KeysMemory.layer),
  Layer.provide(ActivityMemory.layer),
  Layer.provide(AppConfig.layerWith({}))
)

/** The identity handlers on those workspaces. */
const identityHandlers = IdentityHandlers.pipe(Layer.provideMerge(workspaces))

/** Ada, an admin signed in to a workspace "Acme" of 3 seats, made in those same workspaces. */
const ada = { email: "ada@acme.test", name: "Ada", role: "admin" } as const
const signedInAsAda = Layer.unwrap(Effect.gen(function*() {
  const made = yield* Workspaces
  const { workspace } = yield* made.create({ name: "Acme", seats: 3 })
  const { userId } = yield* made.createSession({ workspaceId: workspace.id, ...ada })
  return callerIs({ kind: "session", workspaceId: workspace.id, sessionId: crypto.randomUUID(), user: { id: userId, ...ada } })
}).pipe(Effect.orDie)).pipe(Layer.provide(workspaces))

const client = HttpApiTest.groups(Api, ["identity"])

layer(inMemory(identityHandlers, callerAs("read_only")))("GET /v1/me in memory, with an API key", (it) => {
  it.effect("answers 200 with the key's workspace and name, org and user null, the same each time", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const [me, response] = yield* api.identity.me({ responseMode: "decoded-and-response" })
      assert.strictEqual(response.status, 200)
      assert.deepStrictEqual(me, { ok: true, orgId: callerWorkspaceId, kind: "key", keyName: "test", org: null, user: null })
      const raw = yield* read(yield* api.identity.me({ responseMode: "response-only" }))
      assert.strictEqual(raw.status, 200)
      assert.deepStrictEqual(raw.body, me)
      // The key's workspace is not looked up: there is none in these workspaces.
      assert.deepStrictEqual(yield* (yield* Workspaces).list, [])
    })))
})

layer(inMemory(identityHandlers, signedInAsAda))("GET /v1/me in memory, signed in", (it) => {
  it.effect("answers 200 with the workspace as the org and the person as the user", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* client
      const [acme] = yield* (yield* Workspaces).list
      assert.isDefined(acme)
      // Signing Ada in again names the same person.
      const { userId } = yield* (yield* Workspaces).createSession({ workspaceId: acme.id, ...ada })
      const [me, response] = yield* api.identity.me({ responseMode: "decoded-and-response" })
      assert.strictEqual(response.status, 200)
      assert.deepStrictEqual(me.org, { id: acme.id, name: "Acme", seats: { total: 3 }, network: "sandbox", createdAt: acme.createdAt })
      assert.deepStrictEqual({ ...me, org: null, user: null }, {
        ok: true,
        orgId: acme.id,
        kind: "session",
        keyName: "",
        org: null,
        user: null
      })
      assert.deepStrictEqual(me.user, { id: userId, ...ada })
      // Its seats as they are now, not as they were at sign-in.
      yield* (yield* Workspaces).setSeats(acme.id, 7)
      assert.deepStrictEqual((yield* api.identity.me()).org?.seats, { total: 7 })
    })))
})
