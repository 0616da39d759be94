/**
 * The durable workflow engine: `effect/workflow` on the service's cluster
 * (`platform/Cluster.ts`), the same runners as the accounts. Executions,
 * activity results and deferred results are persisted in the service's
 * database, so a workflow resumes after a restart, or on another server when
 * its server dies, where it stopped, and an activity that finished is never
 * run again.
 *
 * Two clocks: the cluster's own machinery (shard locks, polling its storage,
 * every 50 ms to 10 s) runs on real time, as it must keep going while the
 * sandbox's test clock stands still, and could not survive a jump of days.
 * The workflows' time is the service's: `DurableClock` sleeps become
 * {@link Waits} with a deadline on the service's clock, and activities run on
 * that clock too (see `Run.ts`).
 */
import { Clock, Duration, Effect, Layer } from "effect"
import { ClusterWorkflowEngine } from "effect/cluster"
import { WorkflowEngine } from "effect/workflow"
import * as Time from "../domain/Time.ts"
import { JobWatch } from "../jobs/JobWatch.ts"
import { OutreachWorkflow } from "./OutreachWorkflow.ts"
import { Waits } from "./Waits.ts"

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
      // Calls into the cluster from a request or a job run on real time: the cluster retries a send its
      // routing refused (shards still settling) after 100 ms on the caller's Clock, which on the sandbox's
      // test clock stands still until someone moves it (as the Governor's messages, `jobs/Governor.ts`).
      execute: (workflow, options) => Time.onRealTime(engine.execute(workflow, options)),
      poll: (workflow, executionId) => Time.onRealTime(engine.poll(workflow, executionId)),
      interrupt: (workflow, executionId) => Time.onRealTime(engine.interrupt(workflow, executionId)),
      resume: (workflow, executionId) => Time.onRealTime(engine.resume(workflow, executionId)),
      deferredDone: (deferred, options) => Time.onRealTime(engine.deferredDone(deferred, options)),
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

/** `WorkflowEngine` (on the service's time) and `Waits`; needs the cluster (`platform/Cluster.ts`), `Notices` and the migrated `SqlClient`. */
export const layer = onServiceTime.pipe(
  Layer.provideMerge(Waits.layer(OutreachWorkflow._tag)),
  Layer.provide([ClusterWorkflowEngine.layer, JobWatch.layer])
)
