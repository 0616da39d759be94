/**
 * In-process news that an account changed (status, settings, limits, removal),
 * published after the change commits. The Governor follows it so a resumed
 * account, a longer working day or a raised limit takes effect at once
 * instead of at the next planned wake-up, and so an account's actor never
 * plans a job created after the change from what it read before it: the
 * request that changed the account answers only once every follower has taken
 * the change in (each given at most {@link followTimeout} of real time).
 */
import { Context, Duration, Effect, Layer, type Scope } from "effect"
import * as Time from "../domain/Time.ts"

/** How long publishing waits for one follower; one that takes longer is logged and left behind. */
export const followTimeout = Duration.seconds(5)

export class AccountChanges extends Context.Service<AccountChanges, {
  /** Announces that the account changed, to every follower; call after the change commits. */
  readonly publish: (accountId: string) => Effect.Effect<void>
  /** Runs `follower` for every account changed from now on, for the scope's lifetime; publishing waits for it. */
  readonly follow: (follower: (accountId: string) => Effect.Effect<void, unknown>) => Effect.Effect<void, never, Scope.Scope>
}>()("outreach/AccountChanges") {
  static readonly layer = Layer.sync(AccountChanges, () => {
    const followers = new Set<(accountId: string) => Effect.Effect<void, unknown>>()
    return AccountChanges.of({
      publish: (accountId) =>
        Effect.forEach(
          [...followers],
          (follower) =>
            follower(accountId).pipe(
              Effect.timeoutOption(followTimeout),
              // A bound on how long a request waits: real time, also on the sandbox's test clock.
              Time.onRealTime,
              Effect.flatMap((done) => done._tag === "None" ? Effect.logWarning("an account change was not taken in in time") : Effect.void),
              Effect.catchCause((cause) => Effect.logWarning("an account change could not be followed", cause)),
              Effect.annotateLogs({ accountId })
            ),
          { concurrency: "unbounded", discard: true }
        ),
      follow: (follower) =>
        Effect.acquireRelease(
          Effect.sync(() => followers.add(follower)),
          () => Effect.sync(() => followers.delete(follower))
        ).pipe(Effect.asVoid)
    })
  })
}
