/**
 * The deliveries a fan-out held on this server without writing them
 * (migrations/0190), and the claims that cover them: which are still
 * unwritten and since when, and which claims have nothing left unwritten.
 * Synchronous and in memory; whoever takes a delivery out writes it (with
 * its first outcome, or as pending), then says so with `written`.
 */
import type { NewDelivery } from "./DeliveryStore.ts"

/** A delivery held unwritten. */
export interface Unwritten {
  readonly delivery: NewDelivery
  readonly claimId: string
  /** Live time it was held at. */
  readonly heldSinceMs: number
}

export interface HeldDeliveries {
  /** The deliveries one fan-out held, under its claim. */
  readonly hold: (claimId: string, deliveries: ReadonlyArray<NewDelivery>, nowMs: number) => void
  /** The delivery, when it is still unwritten: taken out, for its taker to write. */
  readonly take: (deliveryId: string) => Unwritten | undefined
  /** Those held since `sinceMs` or earlier, taken out, oldest first. */
  readonly takeHeldSince: (sinceMs: number) => Array<Unwritten>
  /** Every one still unwritten, taken out. */
  readonly takeAll: () => Array<Unwritten>
  /** These taken out were written: the claims left with nothing unwritten, forgotten (for their rows to be deleted). */
  readonly written: (items: ReadonlyArray<Unwritten>) => Array<string>
  /** How many are still unwritten. */
  readonly size: () => number
  /** Since when the oldest still unwritten was held (live time); none when none is. */
  readonly oldestSinceMs: () => number | undefined
}

export const make = (): HeldDeliveries => {
  /** In the order they were held (a Map keeps insertion order): the oldest first. */
  const unwritten = new Map<string, Unwritten>()
  /** Per claim, how many of its deliveries are not written yet (taken out or not). */
  const left = new Map<string, number>()

  const takeWhile = (keep: (item: Unwritten) => boolean): Array<Unwritten> => {
    const taken: Array<Unwritten> = []
    for (const [id, item] of unwritten) {
      if (!keep(item)) break
      taken.push(item)
      unwritten.delete(id)
    }
    return taken
  }

  return {
    hold: (claimId, deliveries, nowMs) => {
      if (deliveries.length === 0) return
      for (const delivery of deliveries) unwritten.set(delivery.id, { delivery, claimId, heldSinceMs: nowMs })
      left.set(claimId, (left.get(claimId) ?? 0) + deliveries.length)
    },
    take: (deliveryId) => {
      const item = unwritten.get(deliveryId)
      if (item !== undefined) unwritten.delete(deliveryId)
      return item
    },
    takeHeldSince: (sinceMs) => takeWhile((item) => item.heldSinceMs <= sinceMs),
    takeAll: () => takeWhile(() => true),
    written: (items) => {
      const ended: Array<string> = []
      for (const { claimId } of items) {
        const remaining = (left.get(claimId) ?? 0) - 1
        if (remaining > 0) {
          left.set(claimId, remaining)
        } else if (left.delete(claimId)) {
          ended.push(claimId)
        }
      }
      return ended
    },
    size: () => unwritten.size,
    oldestSinceMs: () => {
      for (const item of unwritten.values()) return item.heldSinceMs
      return undefined
    }
  }
}
