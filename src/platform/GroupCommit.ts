/**
 * Group commit: many fibers' small writes to the database, gathered into one
 * batch and one transaction. A `RequestResolver` whose batches run one at a
 * time: requests made while a batch is in flight wait, and go together in the
 * next one (up to `max`). With nothing in flight a request goes at once, so an
 * idle service pays no window; under load the batches grow by themselves.
 *
 * When a batch fails as a whole (one item breaks a constraint, say), each of
 * its items is tried again on its own, so one bad item fails only itself.
 */
import { Array as Arr, Effect, Exit, Latch, Request, RequestResolver } from "effect"

/** A request carrying `item`, answered with `A`. */
export interface Item<I, A> extends Request.Request<A> {
  readonly item: I
}

/** A group-committing resolver of items `I` answered with `A`. */
export interface GroupCommit<I, A> {
  /** Adds `item` to the next batch and waits for its answer. */
  readonly submit: (item: I) => Effect.Effect<A>
}

/**
 * Items go through `run` in batches, in order: `run` answers with one result per item, in the
 * same order.
 */
export const make = <I, A>(
  run: (items: Arr.NonEmptyReadonlyArray<I>) => Effect.Effect<ReadonlyArray<A>>,
  options: { readonly max: number }
): GroupCommit<I, A> => {
  // Open while no batch of this resolver is in flight.
  const idle = Latch.makeUnsafe(true)
  type Entry = Request.Entry<Item<I, A>>

  /** Runs `entries` as one batch and answers each; false when the batch failed as a whole. */
  const attempt = (entries: Arr.NonEmptyReadonlyArray<Entry>) =>
    run(Arr.map(entries, (entry) => entry.request.item)).pipe(
      Effect.flatMap((results) =>
        results.length === entries.length
          ? Effect.succeed(results)
          : Effect.die(new Error(`group commit: ${results.length} answers for ${entries.length} items`))
      ),
      Effect.exit,
      Effect.map((exit) => {
        if (Exit.isSuccess(exit)) {
          entries.forEach((entry, index) => entry.completeUnsafe(Exit.succeed(exit.value[index])))
          return true
        }
        if (entries.length > 1) return false
        entries[0].completeUnsafe(Exit.failCause(exit.cause))
        return true
      })
    )

  const resolver = RequestResolver.make<Item<I, A>>((entries) =>
    Effect.gen(function*() {
      yield* idle.close
      if (yield* attempt(entries)) return
      yield* Effect.logWarning(`a batch of ${entries.length} failed; each of its items goes on its own`)
      yield* Effect.forEach(entries, (entry) => attempt([entry]), { discard: true })
    }).pipe(Effect.ensuring(idle.open))
  ).pipe(
    RequestResolver.setDelayEffect(Effect.andThen(Effect.yieldNow, idle.await)),
    RequestResolver.batchN(options.max)
  )
  const request = Request.of<Item<I, A>>()
  return { submit: (item) => Effect.request(request({ item }), resolver) }
}
