/**
 * In-process news that an account changed (status, settings, limits, removal),
 * published after the change commits. The Governor listens so a resumed
 * account, a longer working day or a raised limit takes effect at once
 * instead of at the next planned wake-up.
 *
 * @since 1.0.0
 */
import { Context, Effect, Layer, PubSub, type Scope } from "effect"

export class AccountChanges extends Context.Service<AccountChanges, {
  /** Announces that the account changed; call after the change commits. */
  readonly publish: (accountId: string) => Effect.Effect<void>
  /** Every account id published from now on, for the scope's lifetime. */
  readonly subscribe: Effect.Effect<PubSub.Subscription<string>, never, Scope.Scope>
}>()("outreach/AccountChanges") {
  static readonly layer = Layer.effect(
    AccountChanges,
    Effect.gen(function*() {
      // Sliding: a listener that falls behind loses old news, never blocks a request.
      const hub = yield* PubSub.sliding<string>(4096)
      return AccountChanges.of({
        publish: (accountId) => PubSub.publish(hub, accountId).pipe(Effect.asVoid),
        subscribe: PubSub.subscribe(hub)
      })
    })
  )
}
