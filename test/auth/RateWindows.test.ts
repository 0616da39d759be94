/**
 * The rate windows live in PostgreSQL, shared by every server: a server that
 * stops gracefully gives back what its leases left unused, so a restart costs
 * no caller any of its minute. And the window is a minute of real time, not
 * of the sandbox's test clock.
 */
import { assert, layer } from "@effect/vitest"
import { Clock, Context, Effect, Exit, Layer, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { Credentials } from "../../src/auth/Credentials.ts"
import { WorkspaceTable } from "../../src/accounts/WorkspaceTable.ts"
import { ActivityLog } from "../../src/activity/ActivityLog.ts"
import { ApiKeys } from "../../src/keys/ApiKeys.ts"
import { Sessions } from "../../src/team/Sessions.ts"
import { Users } from "../../src/team/Users.ts"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import { ServiceClock } from "../../src/platform/ServiceClock.ts"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import * as TestDatabase from "../support/TestDatabase.ts"

const workspaces = Workspaces.layerNoDeps.pipe(
  Layer.provideMerge(Layer.mergeAll(ApiKeys.layerNoDeps.pipe(Layer.provide(ActivityLog.layer)), Sessions.layerNoDeps, Users.layer, WorkspaceTable.layer, AppConfig.layerWith({}))),
  Layer.provideMerge(Credentials.layerWith({ leaseMaxAgeMs: Number.POSITIVE_INFINITY }))
)

/** A server's credentials on the shared database, started in a scope of their own (stopped by closing it). */
const aServer = (extra: Layer.Layer<never> = Layer.empty) =>
  Effect.gen(function*() {
    const scope = yield* Scope.make()
    const context = yield* Layer.build(Layer.fresh(Credentials.layerWith({ leaseMaxAgeMs: Number.POSITIVE_INFINITY })).pipe(
      Layer.provide(extra)
    )).pipe(Scope.provide(scope))
    return { credentials: Context.get(context, Credentials), stop: Scope.close(scope, Exit.void) }
  })

const startOfNextMinute = Effect.flatMap(Clock.currentTimeMillis, (now) => TestClock.adjust(60_000 - (now % 60_000)))

const windowHits = (credentialId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ hits: number }>`SELECT hits FROM rate_limit_windows WHERE bucket = ${`credential:${credentialId}`}`
    return rows[0]?.hits
  }).pipe(Effect.orDie)

layer(workspaces.pipe(Layer.provideMerge(TestDatabase.layer)))("rate windows across restarts", (it) => {
  it.effect("a server stopped gracefully gives back what its leases left unused: the window counts only requests served", () =>
    Effect.gen(function*() {
      yield* startOfNextMinute
      const { keyValue, workspace } = yield* (yield* Workspaces).create({ name: "Restarted" })
      const keyId = (yield* (yield* ApiKeys).list(workspace.id))[0].id
      const first = yield* aServer()
      for (let i = 0; i < 30; i++) yield* first.credentials.admit({ token: keyValue, clientAddress: "10.0.0.1" })
      // The server holds a lease of 100: the window counts all of it while it runs.
      assert.strictEqual(yield* windowHits(keyId), 100)
      yield* first.stop
      assert.strictEqual(yield* windowHits(keyId), 30)
      // The next server goes on from the 30 served.
      const second = yield* aServer()
      const next = yield* second.credentials.admit({ token: keyValue, clientAddress: "10.0.0.1" })
      assert.strictEqual(next.window.remaining, 600 - 31)
      yield* second.stop
    }))

  it.effect("on the sandbox's test clock the window follows real time: moving that clock frees no key", () =>
    Effect.gen(function*() {
      yield* startOfNextMinute
      const { keyValue } = yield* (yield* Workspaces).create({ name: "Sandbox" })
      // A service clock in test mode whose time is a day ahead and moves an hour per reading; its
      // real time is this test's clock.
      let sandboxMs = (yield* Clock.currentTimeMillis) + 86_400_000
      const real = yield* Clock.Clock
      const sandboxClock = Clock.Clock.of({
        ...real,
        currentTimeMillisUnsafe: () => (sandboxMs += 3_600_000),
        currentTimeMillis: Effect.sync(() => (sandboxMs += 3_600_000))
      })
      const serviceClock = Layer.succeed(ServiceClock, ServiceClock.of({
        mode: "test",
        now: sandboxClock.currentTimeMillis,
        advance: () => Effect.die("not moved here"),
        setTo: () => Effect.die("not moved here"),
        withRealTime: (effect) => Effect.provideService(effect, Clock.Clock, real)
      }))
      const server = yield* aServer(serviceClock)
      const admit = server.credentials.admit({ token: keyValue, clientAddress: "10.0.0.2" }).pipe(
        Effect.provideService(Clock.Clock, sandboxClock)
      )
      for (let i = 1; i <= 600; i++) {
        const admission = yield* admit
        if (admission.window.exceeded) assert.fail(`request ${i} was refused`)
      }
      // Hours of sandbox time pass with every request: the key stays limited for the real minute...
      const limited = yield* admit
      assert.isTrue(limited.window.exceeded)
      assert.isAtMost(limited.window.resetSeconds, 60)
      yield* TestClock.adjust("30 seconds")
      assert.isTrue((yield* admit).window.exceeded)
      // ...and is free again the next real minute.
      yield* TestClock.adjust("30 seconds")
      const free = yield* admit
      assert.isFalse(free.window.exceeded)
      assert.strictEqual(free.window.remaining, 599)
      yield* server.stop
    }))
})
