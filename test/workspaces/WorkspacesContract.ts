/**
 * What `Workspaces` promises its callers, run against the stored workspaces (`Workspaces.test.ts`,
 * on a database) and against the in-memory ones the fast route tests use
 * (`WorkspacesMemory.test.ts`): the same expectations, so the fake cannot drift from the service
 * it stands in for. Each backend also gives the `ApiKeys` that make a workspace's owner key, and
 * is configured as the defaults are (the sandbox network, no Unipile settings). Workspaces go by
 * the fiber's clock here (the `TestClock` the tests of a layer share).
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { Invalid, Missing } from "../../src/domain/Failures.ts"
import * as Time from "../../src/domain/Time.ts"
import { nextOf } from "../../src/http/ServiceErrors.ts"
import { ApiKeys } from "../../src/keys/ApiKeys.ts"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import type { Backend } from "../support/Backends.ts"

/** The workspaces of `ids`, in the order the service lists them (a database may hold others). */
const listedOf = (ids: ReadonlyArray<string>) =>
  Effect.map(Workspaces.use((workspaces) => workspaces.list), (all) => all.filter((workspace) => ids.includes(workspace.id)))

export const workspacesExpectations = <R>(backend: Backend<R, Workspaces | ApiKeys, void>) =>
  layer(backend.services)(`Workspaces (${backend.name})`, (it) => {
    it.effect("a workspace is made active, with 5 seats on the sandbox, and an owner key whose value is returned once", () =>
      backend.withFixture(() =>
        Effect.gen(function*() {
          const workspaces = yield* Workspaces
          const keys = yield* ApiKeys
          const now = yield* Time.now
          const { workspace, keyValue } = yield* workspaces.create({ name: "Acme" })
          assert.deepStrictEqual(workspace, {
            id: workspace.id,
            name: "Acme",
            status: "active",
            seatsTotal: 5,
            network: "sandbox",
            createdAt: now.iso
          })
          assert.match(keyValue, /^svc_[A-Za-z0-9_-]{43}$/)
          assert.isTrue(yield* keys.exists(keyValue))
          assert.deepStrictEqual(
            (yield* keys.list(workspace.id)).map(({ name, role, prefix }) => ({ name, role, prefix })),
            [{ name: "Owner key", role: "owner", prefix: keyValue.slice(0, 12) }]
          )
          const given = yield* workspaces.create({ name: "Given", seats: 2, network: "sandbox", keyValue: "svc_the-owners-own-key" })
          assert.strictEqual(given.keyValue, "svc_the-owners-own-key")
          assert.strictEqual(given.workspace.seatsTotal, 2)
          assert.isTrue(yield* keys.exists("svc_the-owners-own-key"))
          assert.deepStrictEqual(yield* workspaces.get(given.workspace.id), given.workspace)
        })))

    it.effect("a live workspace is refused where no real seats can be reached, and nothing is made", () =>
      backend.withFixture(() =>
        Effect.gen(function*() {
          const workspaces = yield* Workspaces
          const before = (yield* workspaces.list).length
          const refused = yield* Effect.flip(workspaces.create({ name: "Live", network: "live" }))
          assert.instanceOf(refused, Invalid)
          assert.match(refused.message, /^A live workspace \(real seats through Unipile\) .*UNIPILE_DSN.*\.$/)
          assert.match(nextOf(refused.advice), /Create a sandbox workspace/)
          assert.strictEqual((yield* workspaces.list).length, before)
        })))

    it.effect("workspaces are listed oldest first; an unknown one is not found", () =>
      backend.withFixture(() =>
        Effect.gen(function*() {
          const workspaces = yield* Workspaces
          const first = yield* workspaces.create({ name: "First" })
          yield* TestClock.adjust("1 second")
          const second = yield* workspaces.create({ name: "Second" })
          assert.deepStrictEqual(yield* listedOf([second.workspace.id, first.workspace.id]), [first.workspace, second.workspace])
          const id = crypto.randomUUID()
          const unknown = yield* Effect.flip(workspaces.get(id))
          assert.instanceOf(unknown, Missing)
          assert.strictEqual(unknown.message, `No workspace ${id}.`)
          assert.strictEqual(nextOf(unknown.advice), "List workspaces with `npm run cli -- workspace list`.")
        })))

    it.effect("seats and status change in place; an unknown workspace is not found", () =>
      backend.withFixture(() =>
        Effect.gen(function*() {
          const workspaces = yield* Workspaces
          const { workspace } = yield* workspaces.create({ name: "Resized" })
          const resized = yield* workspaces.setSeats(workspace.id, 12)
          assert.deepStrictEqual(resized, { ...workspace, seatsTotal: 12 })
          const suspended = yield* workspaces.setStatus(workspace.id, "suspended")
          assert.deepStrictEqual(suspended, { ...resized, status: "suspended" })
          assert.deepStrictEqual(yield* workspaces.get(workspace.id), suspended)
          assert.deepStrictEqual(yield* workspaces.setStatus(workspace.id, "active"), { ...resized, status: "active" })
          assert.instanceOf(yield* Effect.flip(workspaces.setSeats(crypto.randomUUID(), 3)), Missing)
          assert.instanceOf(yield* Effect.flip(workspaces.setStatus(crypto.randomUUID(), "suspended")), Missing)
        })))

    it.effect("a session adds the person once per workspace and email, with a new token each time", () =>
      backend.withFixture(() =>
        Effect.gen(function*() {
          const workspaces = yield* Workspaces
          const { workspace } = yield* workspaces.create({ name: "Team" })
          const other = yield* workspaces.create({ name: "Other team" })
          const ada = { workspaceId: workspace.id, email: "ada@example.com", name: "Ada", role: "owner" } as const
          const first = yield* workspaces.createSession(ada)
          assert.match(first.token, /^sess_[A-Za-z0-9_-]{43}$/)
          const again = yield* workspaces.createSession({ ...ada, name: "Ada L.", role: "admin", ttlHours: 1 })
          assert.strictEqual(again.userId, first.userId)
          assert.notStrictEqual(again.token, first.token)
          const grace = yield* workspaces.createSession({ ...ada, email: "grace@example.com", name: "Grace" })
          assert.notStrictEqual(grace.userId, first.userId)
          const elsewhere = yield* workspaces.createSession({ ...ada, workspaceId: other.workspace.id })
          assert.notStrictEqual(elsewhere.userId, first.userId)
          const unknown = yield* Effect.flip(workspaces.createSession({ ...ada, workspaceId: crypto.randomUUID() }))
          assert.instanceOf(unknown, Missing)
        })))
  })
