/**
 * What an account's actor (`AccountActor.ts`) keeps of its account's facts for planning (`AccountFacts.ts`), so
 * that a burst of the account's jobs does not read the account from the database at every job.
 */
import { Clock, Duration, Effect } from "effect"
import * as Time from "../domain/Time.ts"
import { factsAt, loadFacts, sameDay } from "./AccountFacts.ts"
import type { ActorContext } from "./ActorContext.ts"
import type { Actor } from "./ActorState.ts"

/** The facts cache of the actors of one runner: it keeps what it read for `settings.factsFor`. */
export const make = ({ settings, sql }: Pick<ActorContext, "sql" | "settings">) => {
  /** The facts the actor keeps, as of now, while they hold (`factsOf`); else undefined, to be read again. */
  const keptFacts = (actor: Actor) =>
    Effect.gen(function*() {
      const nowMs = yield* Clock.currentTimeMillis
      const live = yield* Time.liveNow
      const kept = actor.facts
      return kept !== undefined && live < kept.until && sameDay(kept.loaded, nowMs) ? factsAt(kept.loaded, nowMs) : undefined
    })

  /** Reads the account's facts and keeps them, unless the account changed meanwhile; undefined once it is removed. */
  const readFacts = (actor: Actor) =>
    Effect.gen(function*() {
      const now = yield* Time.now
      const changes = actor.changes
      const loaded = yield* loadFacts(sql, actor.accountId, now.ms)
      if (actor.changes === changes) {
        const live = yield* Time.liveNow
        actor.facts = loaded === undefined ? undefined : { loaded, until: live + Duration.toMillis(settings.factsFor) }
      }
      return loaded === undefined ? undefined : factsAt(loaded, now.ms)
    })

  return {
    /**
     * The account's facts now: read from the database at most every `factsFor` (real time), or when the
     * account changed or its local day turned; in between, the actor counts its own jobs into them. The
     * account's reads that find them out of date together read them once (a burst's first reads would
     * otherwise each read the account).
     */
    factsOf: (actor: Actor) =>
      Effect.flatMap(keptFacts(actor), (kept) =>
        kept !== undefined ? Effect.succeed(kept) : actor.reading.withPermits(1)(
          Effect.flatMap(keptFacts(actor), (again) => again !== undefined ? Effect.succeed(again) : readFacts(actor))
        )),

    /** The account changed: what the actor read of it, or is reading, is read again. */
    forgetFacts: (actor: Actor) => {
      actor.facts = undefined
      actor.changes++
    }
  }
}
