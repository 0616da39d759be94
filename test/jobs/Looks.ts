/**
 * Driving an account's Governor on the test clock, look by look: wait (in
 * real time) until its actor sleeps until a later instant, then move the
 * clock exactly there. Nothing is skipped and nothing waits on a guess.
 */
import { Clock, Effect } from "effect"
import { TestClock } from "effect/testing"
import { Governor } from "../../src/jobs/Governor.ts"
import { eventually } from "../support/Eventually.ts"

/** The actor's state is in memory: probe it every millisecond, since a run of looks waits for it once a look, hundreds of looks a run. */
const probeEvery = 1

/** Until when the account's actor sleeps, once it sleeps past now (null: until woken). */
export const nextLook = (accountId: string) =>
  Effect.gen(function*() {
    const governor = yield* Governor
    const probe = Effect.zip(governor.sleepingUntil(accountId), Clock.currentTimeMillis)
    const [until] = yield* eventually(
      `the Governor of ${accountId} to sleep`,
      probe,
      ([until, now]) => until === null || (until !== undefined && until > now),
      30_000,
      probeEvery
    )
    return until ?? null
  })

/**
 * Moves the clock from look to look until `done` holds (checked whenever the actor sleeps), at most
 * `maxLooks` times. An actor asleep with no end waits for a message (a job just created wakes it): the
 * clock stays until it wakes, or `done` holds.
 */
export const runLooks = <R>(accountId: string, done: Effect.Effect<boolean, never, R>, maxLooks = 5_000) =>
  Effect.gen(function*() {
    const governor = yield* Governor
    for (let looks = 0; looks < maxLooks; looks++) {
      const until = yield* nextLook(accountId)
      if (yield* done) return looks
      if (until === null) {
        yield* eventually(
          `the Governor of ${accountId} to wake, or the work to be done`,
          Effect.zip(done, governor.sleepingUntil(accountId)),
          ([finished, sleeping]) => finished || sleeping !== null,
          30_000
        )
        continue
      }
      const now = yield* Clock.currentTimeMillis
      yield* TestClock.adjust(until - now)
    }
    return yield* Effect.die(new Error(`not done after ${maxLooks} looks`))
  })
