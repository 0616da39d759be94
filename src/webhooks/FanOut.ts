/**
 * Fan-out: the outbox's events past the cursor become one delivery per enabled endpoint of their
 * workspace subscribed to their type (empty list = all), with the body (fat or thin) fixed so
 * every retry signs the same bytes; one `INSERT ... SELECT` per batch of events. The deliveries it
 * writes are written leased to this server (up to `fanOutHeld` of an endpoint held here) and
 * handed to the attempts (`Attempts`) to wait for a slot: a backlog is attempted without a
 * statement to find and lease it again. A fan-out whose server died before writing what it held
 * is fanned out again by another (`reclaimLapsed`).
 *
 * Its loop has its own fiber, so attempts go on while a backlog of events is fanned out: each
 * batch fanned out wakes the attempts at once instead of after the whole backlog. It wakes on
 * `wake` (in process), else polls every `pollInterval` of live time: new events committed by any
 * server are picked up.
 */
import { Duration, Effect, Queue, type Scope } from "effect"
import { SqlClient } from "effect/sql"
import * as Time from "../domain/Time.ts"
import { Outbox } from "../events/Outbox.ts"
import type { Attempts, AttemptSettings } from "./Attempts.ts"
import type { DeliveryLeases } from "./DeliveryLeases.ts"
import { DeliveryStore, fanOutSources } from "./DeliveryStore.ts"
import { EndpointTable } from "./EndpointTable.ts"

/**
 * New deliveries of one endpoint the fan-out writes leased to this server, held here at most: a
 * backlog's are attempted without another statement to lease them. Those beyond wait unleased for
 * any server; a delivery that waits here too long for a slow endpoint lets its lease lapse.
 */
const fanOutHeld = 2_500

/**
 * Live time between two looks for lapsed fan-out claims: they lapse after 70 seconds, so a few
 * seconds more before another server writes what a dead one held costs little, and most polls
 * make no statement for it.
 */
const claimsCheckedEvery = Duration.seconds(5)

/** Events in the first fan-out batch of a backlog (each next batch doubles, up to `fanOutBatch`). */
const firstFanOutBatch = 16

/** The pace of the fan-out: it polls as the attempts do. */
export interface FanOutSettings extends Pick<AttemptSettings, "pollInterval"> {
  /** Events fanned out per transaction. */
  readonly fanOutBatch: number
}

export interface FanOut {
  /** Every settled event past the cursor fanned out, batch by batch, waking the attempts after each. */
  readonly backlog: Effect.Effect<void>
  /** Wakes the loop now: events were committed, fan them out now rather than at the next poll. */
  readonly wake: Effect.Effect<void>
}

/** The fan-out with its loop running for the scope, handing what it holds to `attempts`. */
export const make = (options: {
  readonly settings: FanOutSettings
  readonly leases: DeliveryLeases
  readonly attempts: Attempts
}): Effect.Effect<FanOut, never, SqlClient.SqlClient | Outbox | EndpointTable | DeliveryStore | Scope.Scope> =>
  Effect.gen(function*() {
    const { attempts, leases, settings } = options
    const sql = yield* SqlClient.SqlClient
    const outbox = yield* Outbox
    const endpointTable = yield* EndpointTable
    const deliveries = yield* DeliveryStore
    let claimsCheckedMs = 0

    // Most rounds find nothing new: one plain read says so, without taking the cursor's lock.
    const anyNew = outbox.anyAfter(sql`COALESCE((SELECT last_seq FROM webhook_dispatch_cursor WHERE id = 1), 0)`)

    /**
     * One batch of settled events past the cursor fanned out, in one transaction. The deliveries it
     * held here (up to `fanOutHeld` of an endpoint) wait for a slot once it commits, unwritten: each
     * is written once, with its first outcome. False when there was none.
     */
    const fanOut = Effect.fn("WebhookDispatcher.fanOut")(function*(batchSize: number) {
      if (!(yield* anyNew)) return false
      const now = yield* Time.now
      const leasedUntilMs = leases.now() + leases.ms
      const claimId = crypto.randomUUID()
      const done = yield* sql.withTransaction(Effect.gen(function*() {
        const cursor = yield* sql<{ lastSeq: unknown }>`
          SELECT last_seq AS "lastSeq" FROM webhook_dispatch_cursor WHERE id = 1 FOR UPDATE`
        const lastSeq = Number(cursor[0]?.lastSeq ?? 0)
        // Taken before the events are read: a writer running then is still counted if it commits in between.
        const horizon = yield* outbox.writerHorizon
        const events = yield* outbox.fanOutBatch(lastSeq, horizon, batchSize)
        // A lower seq may still be committed by an older transaction: stop before it could be skipped.
        const firstUnsettled = events.findIndex((event) => !event.settled)
        const settled = firstUnsettled === -1 ? events : events.slice(0, firstUnsettled)
        if (settled.length === 0) return undefined
        const subscribers = yield* endpointTable.subscribers([...new Set(settled.map((event) => event.workspaceId))])
        const kept = yield* deliveries.fanOut(fanOutSources(settled, subscribers), subscribers, now.iso, {
          claimId,
          untilIso: Time.toIso(leasedUntilMs),
          capOf: (endpointId) => Math.max(0, fanOutHeld - attempts.held(endpointId))
        })
        yield* sql`UPDATE webhook_dispatch_cursor SET last_seq = ${settled[settled.length - 1].seq} WHERE id = 1`
        return { kept, subscribers }
      }))
      if (done === undefined) return false
      attempts.handOver({
        claimId,
        deliveries: done.kept,
        endpoints: done.subscribers,
        leasedUntilMs,
        heldAtMs: yield* Time.liveNow
      })
      return true
    }, Effect.orDie)

    /**
     * Fan-outs whose claims lapsed (their server died, or stalled past the lease, before writing
     * what it held) fanned out again, looked for at most once per `claimsCheckedEvery` of live
     * time: their deliveries not written yet are written pending for any server, with the ids
     * they had.
     */
    const reclaimLapsed = Effect.fn("WebhookDispatcher.reclaimLapsed")(function*() {
      const liveMs = yield* Time.liveNow
      if (liveMs - claimsCheckedMs < Duration.toMillis(claimsCheckedEvery)) return
      claimsCheckedMs = liveMs
      const now = yield* Time.now
      yield* sql.withTransaction(Effect.gen(function*() {
        for (const claim of yield* deliveries.lapsedClaims(Time.toIso(leases.now()), 16)) {
          const events = (yield* outbox.fanOutBatch(claim.firstSeq - 1, "0", claim.lastSeq - claim.firstSeq + 1))
            .filter((event) => event.seq <= claim.lastSeq)
          const subscribers = yield* endpointTable.subscribers([...new Set(events.map((event) => event.workspaceId))])
          yield* deliveries.fanOut(fanOutSources(events, subscribers), subscribers, now.iso, {
            claimId: claim.id,
            untilIso: Time.toIso(leases.now()),
            capOf: () => 0
          })
          yield* deliveries.endClaims([claim.id])
          yield* Effect.logWarning("webhook fan-out claim lapsed: its deliveries not written yet are now pending").pipe(
            Effect.annotateLogs({ claimId: claim.id, firstSeq: claim.firstSeq, lastSeq: claim.lastSeq })
          )
        }
      }))
    }, Effect.orDie)

    /**
     * The first batch is small and each next one twice the last, up to `fanOutBatch`: a backlog's
     * first attempts start after a few rows are written, not after the first full batch.
     */
    const backlog = Effect.gen(function*() {
      let batchSize = Math.min(firstFanOutBatch, settings.fanOutBatch)
      while (yield* fanOut(batchSize)) {
        yield* attempts.wake
        batchSize = Math.min(batchSize * 2, settings.fanOutBatch)
        // A turn of the event loop between batches: on PGlite the statements run on this thread,
        // and without it the attempts' connections and answers waited for the whole backlog.
        yield* Time.liveSleep(Duration.zero)
      }
    })

    /** Set by `wake`: events were committed, fan them out now rather than at the next poll. */
    const newEvents = yield* Queue.sliding<true>(1)
    // Live time, not the (possibly test) Clock: polling must go on while a test clock stands still.
    yield* Effect.gen(function*() {
      yield* backlog.pipe(Effect.catchCause((cause) => Effect.logError("webhook fan-out failed", cause)))
      yield* reclaimLapsed().pipe(Effect.catchCause((cause) => Effect.logError("reclaiming webhook fan-outs failed", cause)))
      yield* Effect.raceFirst(Queue.take(newEvents), Time.liveSleep(settings.pollInterval))
    }).pipe(Effect.forever, Effect.forkScoped)

    return { backlog, wake: Queue.offer(newEvents, true).pipe(Effect.asVoid) }
  })
