/**
 * The service's stop, as requests see it. When shutdown begins (the first
 * finalizer to run after SIGTERM or SIGINT, before the server waits for
 * requests in flight), open long-polls answer at once with the job as it is,
 * new requests get 503 `unavailable` with `retry-after`, and the requests in
 * flight finish.
 *
 * @since 1.0.0
 */
import { Context, Deferred, Effect, Layer } from "effect"

export class Draining extends Context.Service<Draining, {
  /** Marks the start of the shutdown (once; later calls do nothing). */
  readonly begin: Effect.Effect<void>
  /** Completes when the shutdown has begun. */
  readonly started: Effect.Effect<void>
  /**
   * Whether the shutdown has begun: a plain read, since the gate asks on every request, before
   * and after it is served.
   */
  readonly isDrainingUnsafe: () => boolean
}>()("outreach/Draining") {
  static readonly layer = Layer.effect(
    Draining,
    Effect.gen(function*() {
      const begun = yield* Deferred.make<void>()
      return Draining.of({
        begin: Deferred.succeed(begun, undefined).pipe(
          Effect.flatMap((first) =>
            first
              ? Effect.logInfo(
                "shutdown began: open long-polls answer now, requests in flight finish, new requests get 503"
              )
              : Effect.void
          )
        ),
        started: Deferred.await(begun),
        isDrainingUnsafe: () => Deferred.isDoneUnsafe(begun)
      })
    })
  )
}
