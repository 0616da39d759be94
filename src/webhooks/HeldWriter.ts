/**
 * Writing what the fan-out held on this server unwritten (`HeldDeliveries`): with its first
 * outcome (`AttemptRecorder`), as pending when it waited too long or will not be attempted here,
 * and every statement that writes one under one lock, so none is written twice: whoever takes one
 * out of `held` writes it before another looks.
 */
import { Duration, Effect, Semaphore } from "effect"
import * as Time from "../domain/Time.ts"
import type { DeliveryLeases } from "./DeliveryLeases.ts"
import { DeliveryStore, type DeliveryToAttempt } from "./DeliveryStore.ts"
import * as HeldDeliveries from "./HeldDeliveries.ts"
import type { Unwritten } from "./HeldDeliveries.ts"

/**
 * How long a delivery the fan-out held may stay unwritten (waiting for a slot, or in flight): then
 * it is written pending, leased here, so the history shows it and a slow endpoint's backlog waits
 * on its own leases. A healthy endpoint's are written once, with their outcome, well before.
 */
const heldUnwrittenAtMost = Duration.seconds(2)

export interface HeldWriter {
  /** What the fan-out held here without writing it, until it is written with its outcome (or as pending). */
  readonly held: HeldDeliveries.HeldDeliveries
  /** Runs `effect` under the lock every statement writing held deliveries takes. */
  readonly exclusive: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /**
   * Held deliveries still unwritten after `heldUnwrittenAtMost` (a slow endpoint's backlog)
   * written as pending, leased here: the history shows them, and they wait on their own leases.
   */
  readonly writeOverdue: Effect.Effect<void>
  /** Held deliveries that will not be attempted here: released, or written pending for any server when unwritten. */
  readonly letGo: (targets: ReadonlyArray<DeliveryToAttempt>) => Effect.Effect<void>
  /** Every one still unwritten written pending for any server (on shutdown). Under `exclusive`. */
  readonly writeAll: Effect.Effect<void>
}

export const make = (leases: DeliveryLeases): Effect.Effect<HeldWriter, never, DeliveryStore> =>
  Effect.gen(function*() {
    const deliveries = yield* DeliveryStore
    const held = HeldDeliveries.make()
    const writing = yield* Semaphore.make(1)
    const exclusive = writing.withPermits(1)

    /**
     * Held deliveries taken out of `held` written as pending (leased here until `untilIso`, or for
     * any server), and the claims they ended, ended. Under `writing`.
     */
    const writePending = (items: ReadonlyArray<Unwritten>, untilIso: string | null) =>
      items.length === 0 ? Effect.void : Effect.andThen(
        deliveries.write(items.map((item) => item.delivery), untilIso),
        deliveries.endClaims(held.written(items))
      )

    const writeOverdue = Effect.gen(function*() {
      const liveMs = yield* Time.liveNow
      const sinceMs = liveMs - Duration.toMillis(heldUnwrittenAtMost)
      // Most rounds (every finished attempt may start one) find nothing overdue: no lock for them.
      const oldestMs = held.oldestSinceMs()
      if (oldestMs === undefined || oldestMs > sinceMs) return
      yield* exclusive(Effect.suspend(() => writePending(held.takeHeldSince(sinceMs), Time.toIso(leases.now() + leases.ms))))
    })

    const letGo = (targets: ReadonlyArray<DeliveryToAttempt>) =>
      targets.length === 0 ? Effect.void : exclusive(Effect.suspend(() => {
        const unwritten: Array<Unwritten> = []
        const leased: Array<string> = []
        for (const target of targets) {
          const item = held.take(target.id)
          if (item === undefined) leased.push(target.id)
          else unwritten.push(item)
        }
        return Effect.andThen(writePending(unwritten, null), deliveries.release(leased))
      }))

    return {
      held,
      exclusive,
      writeOverdue,
      letGo,
      writeAll: Effect.suspend(() => writePending(held.takeAll(), null))
    }
  })
