/**
 * The dispatcher's deliveries on this server: leased and waiting (a queue per
 * endpoint), and in flight, within the limits of attempts at once overall and
 * per endpoint. Synchronous and in memory: whoever picks (a finishing attempt,
 * the loop, the fan-out) sees the others' picks, so the limits hold.
 */

/** What the slots need of a delivery. */
export interface Slotted {
  readonly id: string
  readonly endpointId: string
}

/** The limits the slots keep. */
export interface SlotLimits {
  /** Attempts in flight at once, over all endpoints. */
  readonly concurrency: number
  /** Attempts in flight at once for one endpoint. */
  readonly perEndpoint: number
  /** How long an attempt may take: a delivery whose lease ends sooner is not started. */
  readonly timeoutMs: number
}

interface Waiting<A> {
  readonly target: A
  readonly leasedUntilMs: number
}

/** A first-in first-out queue on an array, taken from its head without moving the rest. */
class Fifo<A> {
  private items: Array<A> = []
  private head = 0
  get size(): number {
    return this.items.length - this.head
  }
  push(item: A): void {
    this.items.push(item)
  }
  shift(): A | undefined {
    if (this.head >= this.items.length) return undefined
    const item = this.items[this.head++]
    // Compacted once half of it is taken, so the array never grows without bound.
    if (this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head)
      this.head = 0
    }
    return item
  }
  drain(): Array<A> {
    const rest = this.items.slice(this.head)
    this.items = []
    this.head = 0
    return rest
  }
}

export interface AttemptSlots<A extends Slotted> {
  /** Leased until `leasedUntilMs`, waiting for a slot. */
  readonly add: (target: A, leasedUntilMs: number) => void
  /**
   * Takes what may start now into flight: endpoints in turn, each up to its limit, until every
   * slot is taken. A delivery whose lease could lapse during its attempt is dropped, to lapse and
   * be leased again.
   */
  readonly pick: (nowMs: number) => Array<A>
  /** The attempt of this delivery is over: its slot is free. */
  readonly finish: (target: A) => void
  /** The endpoint's deliveries held here, in flight or waiting. */
  readonly held: (endpointId: string) => number
  readonly isInFlight: (deliveryId: string) => boolean
  readonly inFlight: () => number
  readonly waiting: () => number
  /** The endpoints with deliveries held here. */
  readonly endpoints: () => ReadonlyArray<string>
  /** The endpoint's waiting deliveries, taken out (to release their leases); those in flight finish. */
  readonly dropEndpoint: (endpointId: string) => Array<A>
  /** Every waiting delivery, taken out (to release their leases). */
  readonly drain: () => Array<A>
}

export const make = <A extends Slotted>(limits: SlotLimits): AttemptSlots<A> => {
  /** Per endpoint, in the order they are served: an endpoint served goes to the back. */
  const queues = new Map<string, Fifo<Waiting<A>>>()
  const busy = new Map<string, number>()
  const flying = new Set<string>()
  let waitingCount = 0

  const add = (target: A, leasedUntilMs: number) => {
    let queue = queues.get(target.endpointId)
    if (queue === undefined) {
      queue = new Fifo()
      queues.set(target.endpointId, queue)
    }
    queue.push({ target, leasedUntilMs })
    waitingCount++
  }

  const pick = (nowMs: number): Array<A> => {
    const picked: Array<A> = []
    /** Endpoints served (to the back) or emptied (out), after the loop: a map is not changed while walked. */
    const visited: Array<string> = []
    for (const [endpointId, queue] of queues) {
      if (flying.size >= limits.concurrency) break
      let endpointBusy = busy.get(endpointId) ?? 0
      const before = endpointBusy
      while (endpointBusy < limits.perEndpoint && flying.size < limits.concurrency) {
        const next = queue.shift()
        if (next === undefined) break
        waitingCount--
        if (next.leasedUntilMs - limits.timeoutMs <= nowMs) continue
        endpointBusy++
        flying.add(next.target.id)
        picked.push(next.target)
      }
      if (endpointBusy > before) busy.set(endpointId, endpointBusy)
      if (endpointBusy > before || queue.size === 0) visited.push(endpointId)
    }
    for (const endpointId of visited) {
      const queue = queues.get(endpointId)
      queues.delete(endpointId)
      if (queue !== undefined && queue.size > 0) queues.set(endpointId, queue)
    }
    return picked
  }

  const finish = (target: A) => {
    if (!flying.delete(target.id)) return
    const left = (busy.get(target.endpointId) ?? 1) - 1
    if (left > 0) busy.set(target.endpointId, left)
    else busy.delete(target.endpointId)
  }

  return {
    add,
    pick,
    finish,
    held: (endpointId) => (busy.get(endpointId) ?? 0) + (queues.get(endpointId)?.size ?? 0),
    isInFlight: (deliveryId) => flying.has(deliveryId),
    inFlight: () => flying.size,
    waiting: () => waitingCount,
    endpoints: () => [...new Set([...queues.keys(), ...busy.keys()])],
    dropEndpoint: (endpointId) => {
      const queue = queues.get(endpointId)
      if (queue === undefined) return []
      queues.delete(endpointId)
      const dropped = queue.drain().map(({ target }) => target)
      waitingCount -= dropped.length
      return dropped
    },
    drain: () => {
      const all = [...queues.values()].flatMap((queue) => queue.drain().map(({ target }) => target))
      queues.clear()
      waitingCount = 0
      return all
    }
  }
}
