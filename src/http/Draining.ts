/**
 * The service's stop, as requests see it. When shutdown begins (the first
 * finalizer to run after SIGTERM or SIGINT), open long-polls answer at once
 * with the job as it is, new requests get 503 `unavailable` with
 * `retry-after` (the port keeps accepting connections until the very end),
 * and the requests in flight finish ({@link Draining.settled}) before the
 * routes stop and the server hands its accounts over.
 */
import { Context, Deferred, Effect, Latch, Layer } from "effect"

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
  /** Counts `request` among the requests in flight while it runs. */
  readonly track: <A, E, R>(request: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** Completes when no request counted by `track` is in flight. */
  readonly settled: Effect.Effect<void>
}>()("outreach/Draining") {
  static readonly layer = Layer.effect(
    Draining,
    Effect.gen(function*() {
      const begun = yield* Deferred.make<void>()
      // Open while no tracked request is in flight: a counter and a latch, no fiber per request.
      let inFlight = 0
      const idle = Latch.makeUnsafe(true)
      const ended = Effect.sync(() => {
        if (--inFlight === 0) idle.openUnsafe()
      })
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
        isDrainingUnsafe: () => Deferred.isDoneUnsafe(begun),
        track: (request) =>
          Effect.suspend(() => {
            if (inFlight++ === 0) idle.closeUnsafe()
            return Effect.ensuring(request, ended)
          }),
        settled: idle.await
      })
    })
  )
}
