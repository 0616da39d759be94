/**
 * The core is a flat list of each service's `layer`, each bringing the layers it uses: a service
 * several others use (the Governor, the outbox, the credentials' cache) must still be built once,
 * or the two copies would each hold their own actors, hubs and caches.
 */
import { assert, it } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import * as App from "../src/App.ts"
import { AccountChanges } from "../src/accounts/AccountChanges.ts"
import { Credentials } from "../src/auth/Credentials.ts"
import { Outbox } from "../src/events/Outbox.ts"
import { Governor } from "../src/jobs/Governor.ts"
import { JobStore } from "../src/jobs/JobStore.ts"
import { JobWatch } from "../src/jobs/JobWatch.ts"
import { AppConfig } from "../src/platform/AppConfig.ts"
import * as ServiceClock from "../src/platform/ServiceClock.ts"
import * as TestDatabase from "./support/TestDatabase.ts"

/**
 * A memo map that shares layers as Effect's own does (it delegates to one), and records every
 * layer it builds and every service instance each build yields, by the service's key.
 */
const recordingMemoMap = () => {
  const inner = Layer.makeMemoMapUnsafe()
  const builds = new Map<unknown, number>()
  const instances = new Map<string, Set<unknown>>()
  const record = (context: Context.Context<never>) =>
    Effect.sync(() =>
      context.mapUnsafe.forEach((service, key) => {
        instances.set(key, (instances.get(key) ?? new Set()).add(service))
      })
    )
  const memoMap: Layer.MemoMap = {
    "~effect/Layer/MemoMap": "~effect/Layer/MemoMap",
    get: (layer, scope) => inner.get(layer, scope),
    getOrElseMemoize: (layer, scope, build) =>
      inner.getOrElseMemoize(layer, scope, (_, buildScope) => {
        builds.set(layer, (builds.get(layer) ?? 0) + 1)
        return Effect.tap(build(memoMap, buildScope), record)
      })
  }
  return { memoMap, builds, instances }
}

/**
 * Keys with more than one instance on purpose, each a wrapper over the one beneath: `Layer.unwrap`
 * keeps each layer it unwraps under one internal key, the workflows' engine is the cluster's with
 * durable sleeps on the service's clock (`workflows/Engine.ts`), and on PostgreSQL a runner's
 * client to its peers adds the cluster's secret to Node's, and its shard storage is the SQL one
 * wrapped to learn the runner's leases (`platform/Cluster.ts`, `platform/Leases.ts`).
 */
const layeredOnPurpose = new Set([
  "effect/Layer/unwrap",
  "effect/workflow/WorkflowEngine",
  "effect/HttpClient",
  "effect/cluster/RunnerStorage"
])

const everything = App.core.pipe(
  Layer.provideMerge(ServiceClock.layer),
  Layer.provideMerge(TestDatabase.layer),
  Layer.provideMerge(AppConfig.layerWith({ inboxSync: false }))
)

it.live("App.core builds each layer once, so every service of the core is one instance", () =>
  Effect.gen(function*() {
    const { memoMap, builds, instances } = recordingMemoMap()
    const scope = yield* Scope.make()
    yield* Layer.buildWithMemoMap(everything, memoMap, scope)
    yield* Scope.close(scope, Exit.void)

    for (const [layer, count] of builds) assert.strictEqual(count, 1, `a layer was built ${count} times: ${String(layer)}`)
    for (const shared of [Governor.layerNoDeps, JobStore.layerNoDeps, Outbox.layer, JobWatch.layer, AccountChanges.layer, Credentials.layer]) {
      assert.strictEqual(builds.get(shared), 1)
    }
    const duplicated = [...instances].filter(([key, found]) => found.size > 1 && !layeredOnPurpose.has(key)).map(([key]) => key)
    assert.deepStrictEqual(duplicated, [])
    for (const key of [Governor.key, Outbox.key, Credentials.key, AccountChanges.key]) assert.strictEqual(instances.get(key)?.size, 1, key)
  }), 60_000)

it.live("the check sees a service built twice", () =>
  Effect.gen(function*() {
    const { memoMap, instances } = recordingMemoMap()
    const scope = yield* Scope.make()
    // Two layers of one service, as two `layerWith` calls would give: two caches.
    const twice = Layer.merge(Credentials.layerWith({ leaseMaxAgeMs: 1000 }), Credentials.layerWith({ leaseMaxAgeMs: 1000 }))
    yield* Layer.buildWithMemoMap(twice.pipe(Layer.provideMerge(TestDatabase.layer)), memoMap, scope)
    yield* Scope.close(scope, Exit.void)
    assert.strictEqual(instances.get(Credentials.key)?.size, 2)
  }), 60_000)
