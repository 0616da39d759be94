/**
 * The time of this server's leases, of deliveries and of fan-outs' claims. They run on real time,
 * even on the sandbox's test clock: a lease lapses when its holder may be gone, which the test
 * clock cannot tell (moved an hour at once, it lapsed leases still held, and their deliveries went
 * out twice). Due times and `createdAt` are business time (`Clock`).
 */
import { Duration, Effect } from "effect"
import * as ServiceClock from "../platform/ServiceClock.ts"

export interface DeliveryLeases {
  /** Real time now (ms). */
  readonly now: () => number
  /** How long a lease lasts (ms): an attempt's time-out and a minute more. */
  readonly ms: number
}

/** The leases of attempts that time out after `timeoutMs`. */
export const make = (timeoutMs: number): Effect.Effect<DeliveryLeases> =>
  Effect.map(ServiceClock.realClock, (clock) => ({
    now: () => clock.currentTimeMillisUnsafe(),
    ms: timeoutMs + Duration.toMillis(Duration.minutes(1))
  }))
