/**
 * The durable workflow engine: `effect/workflow` on `effect/cluster`'s SQL
 * storage (`SingleRunner` with SQL runner storage) in the project's
 * PostgreSQL, PGlite or server alike. Executions, activity results and
 * deferred results are persisted there, so a workflow resumes after a
 * restart where it stopped, and an activity that finished is never run again.
 *
 * Two clocks: the cluster's own machinery (shard locks, polling its storage,
 * every 50 ms to 10 s) runs on real time, as it must keep going while the
 * sandbox's test clock stands still, and could not survive a jump of days.
 * The workflows' time is the service's: `DurableClock` sleeps become
 * {@link Waits} with a deadline on the service's clock, and activities run on
 * that clock too (see `Run.ts`).
 *
 * @since 1.0.0
 */
import { NodeCrypto } from "@effect/platform-node"
import { hostname } from "node:os"
import { Clock, Duration, Effect, Layer, Option } from "effect"
import { ClusterWorkflowEngine, RunnerAddress, SingleRunner } from "effect/cluster"
import { WorkflowEngine } from "effect/workflow"
import { AppConfig } from "../platform/AppConfig.ts"
import { OutreachWorkflow } from "./OutreachWorkflow.ts"
import { Waits } from "./Waits.ts"

/**
 * The cluster and its engine, on real time. The runner's address is only its name in the cluster
 * tables (`SingleRunner` talks to no other runner): this machine and the service's port, so every
 * server has its own, and one that restarts takes back its own shards.
 */
const cluster = Layer.unwrap(Effect.gen(function*() {
  const config = yield* AppConfig
  return ClusterWorkflowEngine.layer.pipe(
    Layer.provideMerge(SingleRunner.layer({
      runnerStorage: "sql",
      shardingConfig: { runnerAddress: Option.some(RunnerAddress.make(hostname(), config.port)) }
    })),
    Layer.provide(NodeCrypto.layerDigest),
    Layer.provide(Layer.succeed(Clock.Clock, Clock.Clock.defaultValue()))
  )
}))

/**
 * The engine the workflows see: the cluster's, with `DurableClock` sleeps
 * kept as waits on the service's clock (the `Clock` where this layer is built).
 */
const onServiceTime = Layer.effect(
  WorkflowEngine.WorkflowEngine,
  Effect.gen(function*() {
    const engine = yield* WorkflowEngine.WorkflowEngine
    const waits = yield* Waits
    const serviceClock = yield* Clock.Clock
    return WorkflowEngine.WorkflowEngine.of({
      ...engine,
      scheduleClock: (_workflow, options) =>
        Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          yield* waits.record({
            executionId: options.executionId,
            deferredName: options.clock.deferred.name,
            conditions: [],
            deadlineMs: now + Duration.toMillis(options.clock.duration)
          })
        }).pipe(Effect.provideService(Clock.Clock, serviceClock))
    })
  })
)

/** `WorkflowEngine` (on the service's time) and `Waits`; needs the migrated `SqlClient`. */
export const layer = onServiceTime.pipe(
  Layer.provideMerge(Waits.layer(OutreachWorkflow._tag)),
  Layer.provide(cluster)
)
