/**
 * Writes a runner runs at once, over all its accounts: each account runs one at a time, and when
 * thousands of accounts are due together (a takeover, working hours opening) their writes queue here
 * instead of all holding transactions and connections at once (`GovernorSettings.writeConcurrency`).
 */
import { Effect, Semaphore } from "effect"

/** The runner's write slots, `concurrency` of them. */
export const make = (concurrency: number) =>
  Effect.gen(function*() {
    const slots = yield* Semaphore.make(concurrency)
    /** Writes waiting for a slot. */
    const waits = { count: 0 }

    /** Runs `run` in a write slot once one is free. */
    const run = <A>(run: Effect.Effect<A>) =>
      Effect.suspend(() => {
        let waiting = true
        waits.count++
        const leave = Effect.sync(() => {
          if (waiting) waits.count--
          waiting = false
        })
        return slots.withPermits(1)(Effect.andThen(leave, run)).pipe(Effect.ensuring(leave))
      })

    return {
      run,
      /** Writes waiting for a slot. */
      waiting: Effect.sync(() => waits.count)
    }
  })
