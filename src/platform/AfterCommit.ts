/**
 * Effects that must wait until the transaction around them commits: telling
 * another part (or another server) about a row it would otherwise look for
 * and not yet see. Outside such a transaction, {@link defer} runs the effect
 * at once; inside {@link collecting}, it is kept and run after the commit (and
 * dropped when the transaction rolls back, since the row never existed).
 */
import { Context, Effect } from "effect"

/** The effects kept for after the commit of the surrounding transaction. */
class Pending extends Context.Service<Pending, Array<Effect.Effect<void>>>()("outreach/AfterCommit/Pending") {}

/** Runs `effect` now, or after the surrounding {@link collecting} transaction commits. */
export const defer = (effect: Effect.Effect<void>): Effect.Effect<void> =>
  Effect.flatMap(Effect.serviceOption(Pending), (pending) => {
    if (pending._tag === "None") return effect
    pending.value.push(effect)
    return Effect.void
  })

/**
 * Runs `transaction` (which must commit as one: wrap it in `sql.withTransaction`), keeping what it
 * {@link defer}s; once it succeeded, runs those, in order.
 */
export const collecting = <A, E, R>(transaction: Effect.Effect<A, E, R>): Effect.Effect<A, E, Exclude<R, Pending>> =>
  Effect.suspend(() => {
    const pending: Array<Effect.Effect<void>> = []
    return transaction.pipe(
      Effect.provideService(Pending, pending),
      Effect.tap(() => Effect.forEach(pending, (effect) => effect, { discard: true }))
    )
  })
