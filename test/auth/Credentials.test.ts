import { assert, layer } from "@effect/vitest"
import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { Credentials } from "../../src/auth/Credentials.ts"
import { WorkspaceTable } from "../../src/accounts/WorkspaceTable.ts"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import { pgChannel } from "../../src/platform/Notices.ts"
import { ApiKeys } from "../../src/keys/ApiKeys.ts"
import { Sessions } from "../../src/team/Sessions.ts"
import { Users } from "../../src/team/Users.ts"
import { ActivityLog } from "../../src/activity/ActivityLog.ts"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import { eventually } from "../support/Eventually.ts"
import * as TestDatabase from "../support/TestDatabase.ts"

/** Workspaces and their keys on `credentials` (their own `layer`s would bring the configured credentials). */
const workspacesOn = (credentials: Layer.Layer<Credentials, never, SqlClient.SqlClient>) =>
  Workspaces.layerNoDeps.pipe(
    Layer.provideMerge(Layer.mergeAll(ApiKeys.layerNoDeps.pipe(Layer.provide(ActivityLog.layer)), Sessions.layerNoDeps, Users.layer, WorkspaceTable.layer, AppConfig.layerWith({}))),
    Layer.provideMerge(credentials)
  )

// One-second leases: a slow caller's every request claims again.
const credentials = Credentials.layerWith({ leaseMaxAgeMs: 1000 })
const services = workspacesOn(credentials).pipe(Layer.provideMerge(TestDatabase.layer))

const startOfNextMinute = Effect.flatMap(Clock.currentTimeMillis, (now) => TestClock.adjust(60_000 - (now % 60_000)))

layer(services)("rate counting across requests and servers", (it) => {
  it.effect("a slow caller is counted request by request: unused slices are given back", () =>
    Effect.gen(function*() {
      yield* startOfNextMinute
      const credentials = yield* Credentials
      const { keyValue } = yield* (yield* Workspaces).create({ name: "Slow" })
      for (let i = 1; i <= 25; i++) {
        const admission = yield* credentials.admit({ token: keyValue, clientAddress: "10.0.0.1" })
        assert.isDefined(admission.principal)
        assert.strictEqual(admission.window.remaining, 600 - i, `request ${i}`)
        // Two seconds apart: every lease has expired before the next request.
        yield* TestClock.adjust("2 seconds")
      }
    }))

  it.effect("a caller's requests at once wait for one claim: all 600 of its minute are admitted", () =>
    Effect.gen(function*() {
      yield* startOfNextMinute
      const credentials = yield* Credentials
      const { keyValue } = yield* (yield* Workspaces).create({ name: "Concurrent" })
      // Time moves while claims are in flight, as on a server: every reading of this clock is a
      // millisecond after the last one (600 requests stay well inside the minute).
      let nowMs = yield* Clock.currentTimeMillis
      const ticking = Clock.Clock.of({
        ...(yield* Clock.Clock),
        currentTimeMillisUnsafe: () => ++nowMs,
        currentTimeMillis: Effect.sync(() => ++nowMs)
      })
      // Ten at a time, as a client with ten connections sends them: every slice runs out with
      // requests in flight, which must neither each claim a slice nor drop the one just claimed.
      const admissions = yield* Effect.forEach(
        Array.from({ length: 600 }),
        () => credentials.admit({ token: keyValue, clientAddress: "10.0.0.4" }),
        { concurrency: 10 }
      ).pipe(Effect.provideService(Clock.Clock, ticking))
      assert.strictEqual(admissions.filter((a) => a.window.exceeded).length, 0)
      assert.sameMembers(admissions.map((a) => a.window.remaining), Array.from({ length: 600 }, (_, i) => i))
      assert.isTrue((yield* credentials.admit({ token: keyValue, clientAddress: "10.0.0.4" })).window.exceeded)
    }))

  it.effect("two servers together admit exactly 600 in a minute", () =>
    Effect.gen(function*() {
      yield* startOfNextMinute
      const { keyValue } = yield* (yield* Workspaces).create({ name: "Busy" })
      // Two instances of the service on one database, as two servers would be.
      const serverA = Context.get(yield* Layer.build(Layer.fresh(credentials)), Credentials)
      const serverB = Context.get(yield* Layer.build(Layer.fresh(credentials)), Credentials)
      let admitted = 0
      let refused = 0
      for (let i = 0; i < 700; i++) {
        const server = i % 3 === 0 ? serverB : serverA
        const admission = yield* server.admit({ token: keyValue, clientAddress: "10.0.0.2" })
        if (admission.window.exceeded) refused++
        else admitted++
      }
      assert.isAtMost(admitted, 600)
      assert.isAtLeast(admitted, 500)
      assert.strictEqual(admitted + refused, 700)
      yield* TestClock.adjust("1 minute")
      assert.isFalse((yield* serverA.admit({ token: keyValue, clientAddress: "10.0.0.2" })).window.exceeded)
    }))

  it.effect("claims asked for at the same moment go together, and each caller gets its own", () =>
    Effect.gen(function*() {
      yield* startOfNextMinute
      const credentials = yield* Credentials
      const workspaces = yield* Workspaces
      const created = yield* Effect.forEach(
        Array.from({ length: 12 }, (_, i) => `Burst ${i}`),
        (name) => workspaces.create({ name })
      )
      // Every new key at once, the first one twice, and a token nobody issued.
      const tokens = [...created.map((c) => c.keyValue), created[0].keyValue, "svc_" + "x".repeat(43)]
      const admissions = yield* Effect.forEach(
        tokens,
        (token) => credentials.admit({ token, clientAddress: "10.0.0.3" }),
        { concurrency: "unbounded" }
      )
      created.slice(1).forEach(({ workspace }, i) => {
        const admission = admissions[i + 1]
        assert.strictEqual(admission.principal?.workspaceId, workspace.id)
        assert.strictEqual(admission.window.remaining, 599)
      })
      // The key asked for twice is counted twice, as two requests of its one window.
      const twice = [admissions[0], admissions[created.length]]
      for (const admission of twice) assert.strictEqual(admission.principal?.workspaceId, created[0].workspace.id)
      assert.sameMembers(twice.map((a) => a.window.remaining), [599, 598])
      const stranger = admissions[tokens.length - 1]
      assert.isUndefined(stranger.principal)
      assert.strictEqual(stranger.window.remaining, 599)
    }))
})

// Leases that never age: what reaches another server can only have come by notification.
const server = workspacesOn(Credentials.layerWith({ leaseMaxAgeMs: Number.POSITIVE_INFINITY }))
const onPostgres = TestDatabase.backend === "postgresql"

layer(TestDatabase.layer)("revocations reach every server at once (PostgreSQL)", (it) => {
  const twoServers = Effect.all([Layer.build(Layer.fresh(server)), Layer.build(Layer.fresh(server))])
  const admitOn = (context: Context.Context<Credentials>, token: string) =>
    Context.get(context, Credentials).admit({ token, clientAddress: "10.0.0.9" })
  const principalOn = (context: Context.Context<Credentials>, token: string) =>
    Effect.map(admitOn(context, token), (admission) => admission.principal)
  // Every probe is a request served from B's slice of 100: probing at most 25 times, B can only
  // refuse because its slice was dropped, never because the probes used it up.
  const refusedOn = (label: string, context: Context.Context<Credentials>, token: string) =>
    eventually(label, principalOn(context, token), (p) => p === undefined, 5000, 200)
  const keyIdOf = (context: Context.Context<ApiKeys>, workspaceId: string) =>
    Effect.map(Context.get(context, ApiKeys).list(workspaceId), (keys) => keys[0].id)

  it.effect.skipIf(!onPostgres)("a key revoked through one server is refused by the other on its next request", () =>
    Effect.gen(function*() {
      const [a, b] = yield* twoServers
      const { workspace, keyValue } = yield* Context.get(a, Workspaces).create({ name: "Revoked elsewhere" })
      // Server B holds a slice of the key's minute, good for 99 more requests.
      assert.isDefined(yield* principalOn(b, keyValue))
      yield* Context.get(a, ApiKeys).revoke(workspace.id, yield* keyIdOf(a, workspace.id))
      yield* refusedOn("server B to refuse the revoked key", b, keyValue)
      assert.isUndefined(yield* principalOn(a, keyValue))
    }))

  it.effect.skipIf(!onPostgres)("a workspace suspended through one server is refused by the other", () =>
    Effect.gen(function*() {
      const [a, b] = yield* twoServers
      const { workspace, keyValue } = yield* Context.get(a, Workspaces).create({ name: "Suspended elsewhere" })
      const other = yield* Context.get(a, Workspaces).create({ name: "Still active" })
      assert.isDefined(yield* principalOn(b, keyValue))
      assert.isDefined(yield* principalOn(b, other.keyValue))
      yield* Context.get(a, Workspaces).setStatus(workspace.id, "suspended")
      yield* refusedOn("server B to refuse the suspended workspace", b, keyValue)
      // Only that workspace's callers are dropped.
      assert.strictEqual((yield* principalOn(b, other.keyValue))?.workspaceId, other.workspace.id)
    }))

  it.effect.skipIf(!onPostgres)("a server that loses its listening connection drops its slices and listens again", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const [a, b] = yield* twoServers
      const first = yield* Context.get(a, Workspaces).create({ name: "Missed" })
      const second = yield* Context.get(a, Workspaces).create({ name: "Heard" })
      assert.isDefined(yield* principalOn(b, first.keyValue))
      // Revoked with no notification, as if it had been sent while B was not listening:
      // B's slice still answers for the key.
      yield* sql`UPDATE api_keys SET revoked_at = now() WHERE workspace_id = ${first.workspace.id}`
      assert.isDefined(yield* principalOn(b, first.keyValue))
      const listeners = sql<{ pid: number }>`
        SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND query ILIKE ${"LISTEN%" + pgChannel + "%"}`.pipe(Effect.orDie)
      const before = yield* listeners
      assert.strictEqual(before.length, 2, "both servers listen")
      yield* sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND query ILIKE ${"LISTEN%" + pgChannel + "%"}`
      // Both lost their connection: every slice is dropped, so the revoked key is checked again.
      yield* refusedOn("server B to check the key again", b, first.keyValue)
      // And both listen again: a later revocation still reaches B.
      yield* eventually("both servers to listen again", listeners, (rows) => rows.length === 2)
      assert.isDefined(yield* principalOn(b, second.keyValue))
      yield* Context.get(a, ApiKeys).revoke(second.workspace.id, yield* keyIdOf(a, second.workspace.id))
      yield* refusedOn("server B to refuse the second key", b, second.keyValue)
    }).pipe(Effect.orDie))
})
