/**
 * `ServiceClock` in memory, for fast tests of the sandbox clock's routes without a database: the
 * service's own test clock (`ServiceClock.makeTestClock`: the same moves, refusals and sleepers
 * woken in order) on a {@link store} in memory rather than the `sandbox_clock` table, for one
 * process (no other server hears of its moves). A clock built again on the same store resumes at
 * its instant, as the service does after a restart. On the system clock, the service's own.
 */
import { Effect, Layer, Stream } from "effect"
import { type ClockMode, type ClockStore, makeTestClock, ServiceClock, systemClock } from "./ServiceClock.ts"

/** A test clock's instant kept in memory, for the clocks built on it one after another. */
export const store = (): ClockStore => {
  let instant: number | undefined
  return {
    saved: Effect.sync(() => instant),
    save: (ms) =>
      Effect.sync(() => {
        instant = ms
      }),
    announce: () => Effect.void,
    movedElsewhere: Stream.empty
  }
}

/**
 * The in-memory `ServiceClock` of `mode`. In test mode the layer also provides the test clock as
 * `Clock` (and its `Scheduler`) to what is built on it, as the service's layer does.
 */
export const layer = (mode: ClockMode = "test", kept: ClockStore = store()): Layer.Layer<ServiceClock> =>
  mode === "test" ? Layer.effectContext(makeTestClock(kept)) : Layer.succeed(ServiceClock, ServiceClock.of(systemClock))
