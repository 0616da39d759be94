/**
 * Delivers the outbox's events to webhook endpoints, durably.
 *
 * Two steps, both in PostgreSQL so a restart (or another server) resumes
 * where the last one stopped:
 *
 * 1. Fan-out: events past the cursor become one delivery per enabled endpoint
 *    of their workspace subscribed to their type (empty list = all), with
 *    the body (fat or thin) fixed so every retry signs the same bytes; one
 *    `INSERT ... SELECT` per batch of events. The deliveries it writes are
 *    written leased to this server (up to `fanOutHeld` of an endpoint held
 *    here) and wait for a slot: a backlog is attempted without a statement
 *    to find and lease it again. The endpoints of what is held are read
 *    again every poll, so one disabled, deleted, moved or rotated meanwhile
 *    is attempted as it is now (a disabled one's wait, released).
 * 2. Attempts: due deliveries are leased and attempted, at most
 *    `concurrency` at once and `perEndpoint` per endpoint (`AttemptSlots`),
 *    so one slow endpoint never holds up the others. Every attempt
 *    re-resolves a host name (each distinct answer vetted once, `urlVetter`)
 *    and pins the connection to the vetted address (connections are kept
 *    alive per endpoint and address). A failure schedules the next attempt
 *    on the `Backoff` curve from `Clock` time; after 8 the delivery is
 *    `failed`. Outcomes are recorded in batches: whatever finished while the
 *    last batch was written and `recordWindow` after, in one statement
 *    (`DeliveryStore.record`). A finished attempt's slot goes to the next
 *    leased delivery at once. Until it is recorded a delivery stays leased,
 *    so a crash in between means one more attempt later, as a crash during
 *    it does.
 *
 * The two steps are two loops, so attempts go on while a backlog is fanned
 * out. Fan-out wakes on `wake` (in process), attempts on a finished attempt
 * or a fanned-out batch; both otherwise poll every `pollInterval` of LIVE
 * time: new events committed by any server are picked up, and under a test
 * clock (which only moves when told) due times still come from `Clock`.
 * Signature timestamps are real time (`ServiceClock.realClock`): a receiver
 * checks them against its own clock, whatever the sandbox's says.
 */
import { Cause, Clock, Context, Duration, Effect, Exit, FiberSet, Layer, LogLevel, Option, Queue, Random, References, Semaphore } from "effect"
import { SqlClient } from "effect/sql"
import type { Missing } from "../domain/Failures.ts"
import * as Time from "../domain/Time.ts"
import * as ServiceClock from "../platform/ServiceClock.ts"
import { Outbox } from "../events/Outbox.ts"
import { AppConfig } from "../platform/AppConfig.ts"
import { urlVetter, WebhookResolver } from "./AddressGuard.ts"
import * as AttemptSlots from "./AttemptSlots.ts"
import { maxAttempts, nextAttemptAt } from "./Backoff.ts"
import {
  type AttemptOutcome,
  type AttemptRecord,
  type DeliveryChange,
  DeliveryStore,
  type DeliveryToAttempt,
  type DueRow,
  fanOutSource
} from "./DeliveryStore.ts"
import { type EndpointSecrets, EndpointTable } from "./EndpointTable.ts"
import * as HeldDeliveries from "./HeldDeliveries.ts"
import type { Unwritten } from "./HeldDeliveries.ts"
import { type DeliveryRecord, endpointNotFound, WebhookEndpoints } from "./Endpoints.ts"
import { connectionPool, deliver, type DeliveryOutcome, deliveryTimeoutMs } from "./SafeTransport.ts"
import { attemptSigner } from "./Signature.ts"
import { testEventBody, testEventType } from "../domain/WebhookPayload.ts"

/** Tuning of the dispatcher. A reference: the defaults need no wiring. */
export interface DispatcherSettings {
  /** Live time between polls when nothing wakes the loop. */
  readonly pollInterval: Duration.Duration
  /** Attempts in flight at once, over all endpoints. */
  readonly concurrency: number
  /** Attempts in flight at once for one endpoint. */
  readonly perEndpoint: number
  /** The response time-out of one attempt (the spec's 10 seconds). */
  readonly timeoutMs: number
  /** Events fanned out per transaction. */
  readonly fanOutBatch: number
}

/** The dispatcher's settings; override with `Layer.succeed(DispatcherSettings, {...})`. */
export const DispatcherSettings = Context.Reference<DispatcherSettings>("outreach/WebhookDispatcherSettings", {
  defaultValue: () => ({
    pollInterval: Duration.millis(500),
    concurrency: 64,
    perEndpoint: 4,
    timeoutMs: deliveryTimeoutMs,
    fanOutBatch: 500
  })
})

/**
 * Deliveries leased ahead: up to this many times `concurrency` (and `perEndpoint` for one endpoint),
 * so a lease statement serves many rounds of attempts (with 4, a backlog past `fanOutHeld` waited
 * for its lease statements every 64 deliveries); leases last far longer than they wait here.
 */
const leaseAhead = 16

/**
 * New deliveries of one endpoint the fan-out writes leased to this server, held here at most: a
 * backlog's are attempted without another statement to lease them. Those beyond wait unleased for
 * any server; a delivery that waits here too long for a slow endpoint lets its lease lapse.
 */
const fanOutHeld = 2_500

/**
 * How long a delivery the fan-out held may stay unwritten (waiting for a slot, or in flight): then
 * it is written pending, leased here, so the history shows it and a slow endpoint's backlog waits
 * on its own leases. A healthy endpoint's are written once, with their outcome, well before.
 */
const heldUnwrittenAtMost = Duration.seconds(2)

/**
 * Live time between two looks for lapsed fan-out claims: they lapse after 70 seconds, so a few
 * seconds more before another server writes what a dead one held costs little, and most polls
 * make no statement for it.
 */
const claimsCheckedEvery = Duration.seconds(5)

/** Events in the first fan-out batch of a backlog (each next batch doubles, up to `fanOutBatch`). */
const firstFanOutBatch = 16

/** Live time the recorder waits after an outcome for more to record in the same statement. */
const recordWindow = Duration.millis(5)

/** Who started an attempt. */
export type AttemptTrigger = "automatic" | "manual"

/** An attempt made, waiting to be recorded. */
interface Finished {
  readonly target: DeliveryToAttempt
  readonly trigger: AttemptTrigger
  readonly outcome: DeliveryOutcome
  /** When its outcome was known (Clock time). */
  readonly atMs: number
}

export class WebhookDispatcher extends Context.Service<WebhookDispatcher, {
  /** Wakes the loop now (call after committing events, to skip the poll wait). */
  readonly wake: Effect.Effect<void>
  /** One round: fan out new events, start the due attempts. */
  readonly runOnce: Effect.Effect<void>
  /** One manual attempt now, same delivery id; answers with the delivery including it. */
  readonly resend: (
    workspaceId: string,
    endpointId: string,
    deliveryId: string
  ) => Effect.Effect<DeliveryRecord, Missing>
  /**
   * A test event (`webhook.test`) sent to one endpoint now, whatever its events, through the path
   * of every delivery; answers with the delivery, its one attempt and the response.
   */
  readonly sendTest: (workspaceId: string, endpointId: string, sentBy: string) => Effect.Effect<DeliveryRecord, Missing>
}>()("outreach/WebhookDispatcher") {
  /** The dispatcher with its loop running for the layer's lifetime; its endpoints, deliveries and outbox left open. */
  static readonly layerNoDeps = Layer.effect(
    WebhookDispatcher,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const config = yield* AppConfig
      const endpoints = yield* WebhookEndpoints
      const deliveries = yield* DeliveryStore
      const endpointTable = yield* EndpointTable
      const outbox = yield* Outbox
      const settings = yield* DispatcherSettings
      const resolver = yield* WebhookResolver
      const guard = { allowPrivate: config.allowPrivateWebhooks }
      const wakeups = yield* Queue.sliding<true>(1)
      // Of attempts, whose outcomes their own `onExit` takes: the set only keeps them for the scope.
      const running = yield* FiberSet.make<unknown>()
      /** Starts an attempt in `running` from plain code: no effect to build and run per delivery. */
      const startAttempt = yield* FiberSet.runtime(running)<never>()
      // Read once: attempts, whose time is plain code's, see the layer's clock (the sandbox's test clock too).
      const clock = yield* Clock.Clock
      const slots = AttemptSlots.make<DeliveryToAttempt>(settings)
      /**
       * The address, secrets and state of each endpoint with deliveries held here, as last read: at
       * their fan-out or lease, and again every `pollInterval` (`refreshEndpoints`), so a disabled,
       * deleted, moved or rotated endpoint is seen within a poll however many of its deliveries wait.
       */
      const endpointViews = new Map<string, EndpointSecrets>()
      /** The endpoint's view, when it is there to attempt: not deleted, not disabled. */
      const attemptable = (endpointId: string): EndpointSecrets | undefined => {
        const view = endpointViews.get(endpointId)
        return view?.enabled === true ? view : undefined
      }
      let endpointsReadMs = 0
      const connections = yield* connectionPool
      /** Automatic attempts' outcomes waiting to be recorded. */
      const finished = yield* Queue.unbounded<Finished>()
      const leaseMs = settings.timeoutMs + Duration.toMillis(Duration.minutes(1))
      /**
       * Leases (of deliveries and of fan-outs' claims) and signature timestamps run on real time, even
       * on the sandbox's test clock: a lease lapses when its holder may be gone, which the test clock
       * cannot tell (moved an hour at once, it lapsed leases still held, and their deliveries went out
       * twice), and a receiver checks a signature's time against its own clock. Due times and
       * `createdAt` are business time (`Clock`).
       */
      const realClock = yield* ServiceClock.realClock
      const leaseNow = () => realClock.currentTimeMillisUnsafe()
      /** What the fan-out held here without writing it, until it is written with its outcome (or as pending). */
      const held = HeldDeliveries.make()
      /**
       * Taken for every statement that writes held deliveries (outcomes, pending ones), so one is
       * never written twice: whoever takes one out of `held` writes it before another looks.
       */
      const writing = yield* Semaphore.make(1)
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
        const leasedUntilMs = leaseNow() + leaseMs
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
          const kept = yield* deliveries.fanOut(settled.map(fanOutSource), subscribers, now.iso, {
            claimId,
            untilIso: Time.toIso(leasedUntilMs),
            capOf: (endpointId) => Math.max(0, fanOutHeld - slots.held(endpointId))
          })
          yield* sql`UPDATE webhook_dispatch_cursor SET last_seq = ${settled[settled.length - 1].seq} WHERE id = 1`
          return { kept, subscribers }
        }))
        if (done === undefined) return false
        // Attempted only once claimed for good: a rolled-back fan-out held nothing.
        for (const subscriber of done.subscribers) endpointViews.set(subscriber.id, subscriber)
        held.hold(claimId, done.kept, yield* Time.liveNow)
        for (const target of done.kept) slots.add(target, leasedUntilMs)
        startReady(leaseNow())
        return true
      }, Effect.orDie)

      /**
       * Held deliveries taken out of `held` written as pending (leased here until `untilIso`, or for
       * any server), and the claims they ended, ended. Under `writing`.
       */
      const writePending = (items: ReadonlyArray<Unwritten>, untilIso: string | null) =>
        items.length === 0 ? Effect.void : Effect.andThen(
          deliveries.write(items.map((item) => item.delivery), untilIso),
          deliveries.endClaims(held.written(items))
        )

      /**
       * Held deliveries still unwritten after `heldUnwrittenAtMost` (a slow endpoint's backlog)
       * written as pending, leased here: the history shows them, and they wait on their own leases.
       */
      const writeOverdue = Effect.fnUntraced(function*() {
        const liveMs = yield* Time.liveNow
        const sinceMs = liveMs - Duration.toMillis(heldUnwrittenAtMost)
        // Most rounds (every finished attempt may start one) find nothing overdue: no lock for them.
        const oldestMs = held.oldestSinceMs()
        if (oldestMs === undefined || oldestMs > sinceMs) return
        yield* writing.withPermits(1)(Effect.suspend(() => writePending(held.takeHeldSince(sinceMs), Time.toIso(leaseNow() + leaseMs))))
      })

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
          for (const claim of yield* deliveries.lapsedClaims(Time.toIso(leaseNow()), 16)) {
            const events = (yield* outbox.fanOutBatch(claim.firstSeq - 1, "0", claim.lastSeq - claim.firstSeq + 1))
              .filter((event) => event.seq <= claim.lastSeq)
            const subscribers = yield* endpointTable.subscribers([...new Set(events.map((event) => event.workspaceId))])
            yield* deliveries.fanOut(events.map(fanOutSource), subscribers, now.iso, {
              claimId: claim.id,
              untilIso: Time.toIso(leaseNow()),
              capOf: () => 0
            })
            yield* deliveries.endClaims([claim.id])
            yield* Effect.logWarning("webhook fan-out claim lapsed: its deliveries not written yet are now pending").pipe(
              Effect.annotateLogs({ claimId: claim.id, firstSeq: claim.firstSeq, lastSeq: claim.lastSeq })
            )
          }
        }))
      }, Effect.orDie)

      const vet = urlVetter(guard, resolver)
      const signed = attemptSigner()

      /**
       * Vet (a name again at every attempt: DNS answers change), sign with a fresh timestamp, send pinned.
       * A plain function, no span: it runs for every delivery.
       */
      const attempt = (target: DeliveryToAttempt, endpoint: EndpointSecrets): Effect.Effect<DeliveryOutcome> =>
        Effect.matchEffect(vet(endpoint.url), {
          onFailure: (refused) => Effect.succeed<DeliveryOutcome>({ ok: false, status: null, durationMs: 0, error: refused.message }),
          onSuccess: (vetted) => {
            const nowMs = clock.currentTimeMillisUnsafe()
            const overlap = endpoint.previousSecret !== null && endpoint.previousSecretExpiresAt !== null &&
              Date.parse(endpoint.previousSecretExpiresAt) > nowMs
            const headers = signed({
              secret: overlap && endpoint.previousSecret !== null ? endpoint.previousSecret : endpoint.secret,
              nextSecret: overlap ? endpoint.secret : undefined,
              eventType: target.eventType,
              deliveryId: target.id,
              timestampSeconds: Math.floor(realClock.currentTimeMillisUnsafe() / 1000),
              rawBody: target.body
            })
            return deliver({
              url: vetted.url,
              address: vetted.target.address,
              family: vetted.target.family,
              headers,
              body: target.body,
              timeoutMs: settings.timeoutMs,
              connections
            })
          }
        })

      /** What a failed attempt does to its delivery: the next on the `Backoff` curve, or failed for good; a manual one, nothing. */
      const changeOfFailure = Effect.fnUntraced(function*(finished: Finished) {
        if (finished.trigger === "manual") return undefined
        const made = finished.target.attemptCount + 1
        return Option.match(nextAttemptAt(made, finished.atMs, yield* Random.next), {
          onNone: (): DeliveryChange => ({ _tag: "failed", attemptCount: made }),
          onSome: (at): DeliveryChange => ({ _tag: "retry", attemptCount: made, atIso: Time.toIso(at) })
        })
      })

      /** An attempt made, as it is recorded. */
      const attemptRecord = ({ atMs, outcome, target, trigger }: Finished): AttemptRecord => ({
        deliveryId: target.id,
        trigger,
        atIso: Time.toIso(atMs),
        statusCode: outcome.status,
        error: outcome.error ?? null,
        durationMs: Math.round(outcome.durationMs),
        response: outcome.response ?? null,
        succeeded: outcome.ok
      })

      /**
       * Records outcomes, each with its change to its delivery, in one statement; a held delivery
       * still unwritten is written with its outcome, and the claims that leaves with nothing
       * unwritten are ended. Under `writing`.
       */
      const record = Effect.fn("WebhookDispatcher.record")(function*(batch: ReadonlyArray<Finished>) {
        const outcomes: Array<AttemptOutcome> = []
        const written: Array<Unwritten> = []
        for (const finished of batch) {
          const { outcome, target, trigger } = finished
          const fresh = held.take(target.id)
          if (fresh !== undefined) written.push(fresh)
          outcomes.push({
            attempt: attemptRecord(finished),
            change: outcome.ok
              ? { _tag: "succeeded", counted: trigger === "automatic" }
              : yield* changeOfFailure(finished),
            fresh: fresh?.delivery
          })
        }
        yield* deliveries.record(outcomes)
        yield* deliveries.endClaims(held.written(written))
        // A line per delivery only when debug lines are let through: building each one's annotations costs as much as the line.
        const debug = !LogLevel.isGreaterThan(yield* References.MinimumLogLevel, "Debug")
        for (const { outcome, target, trigger } of batch) {
          const failedForGood = !outcome.ok && trigger === "automatic" && target.attemptCount + 1 >= maxAttempts
          if (!failedForGood && !debug) continue
          yield* (outcome.ok ? Effect.logDebug("webhook delivered") : failedForGood
            ? Effect.logWarning("webhook delivery failed after every attempt")
            : Effect.logDebug("webhook attempt failed")).pipe(
              Effect.annotateLogs({ deliveryId: target.id, status: outcome.status ?? "none", error: outcome.error ?? "" })
            )
        }
      })

      /**
       * A delivery's attempt is over (or was not made): its slot goes to the next leased delivery at
       * once, not after the loop's next lease statements; the loop is woken only when it would
       * lease more (a wake per attempt costs a round of the loop per delivery).
       */
      const afterAttempt = (target: DeliveryToAttempt): void => {
        slots.finish(target)
        startReady(leaseNow())
        if (wouldLeaseMore()) Queue.offerUnsafe(wakeups, true)
      }

      /**
       * One attempt of a leased delivery, to its endpoint as last read; its outcome joins the next
       * batch to record, and its slot is free again. None when the endpoint was disabled or deleted
       * since it was picked: it is let go as `refreshEndpoints` lets the endpoint's others go. One
       * `onExit` for the outcome, a crash and the slot: it runs for every delivery.
       */
      const runAttempt = (target: DeliveryToAttempt): Effect.Effect<unknown> => {
        const endpoint = attemptable(target.endpointId)
        if (endpoint === undefined) return Effect.ensuring(letGo([target]), Effect.sync(() => afterAttempt(target)))
        return Effect.onExit(attempt(target, endpoint), (exit) => {
          if (Exit.isSuccess(exit)) {
            Queue.offerUnsafe(finished, { target, trigger: "automatic", outcome: exit.value, atMs: clock.currentTimeMillisUnsafe() })
          }
          afterAttempt(target)
          // A failing attempt is logged and its lease lapses; it never takes the loop or its siblings down.
          return Exit.isFailure(exit) && !Cause.hasInterruptsOnly(exit.cause)
            ? Effect.logError("webhook attempt crashed", exit.cause)
            : Effect.void
        })
      }

      // Whatever finished while the last batch was written makes the next; a batch that fails is logged and its leases lapse.
      const recordFinished = Queue.takeAll(finished).pipe(
        // What finishes within a short wait joins the batch: one statement for many outcomes. The
        // wait is uninterruptible with the statement, so a shutdown never drops what was taken.
        Effect.flatMap((first) =>
          Effect.uninterruptible(Effect.andThen(
            Time.liveSleep(recordWindow),
            writing.withPermits(1)(Effect.flatMap(Queue.clear(finished), (rest) => record([...first, ...rest])))
          ))
        ),
        Effect.catchCause((cause) => Effect.logError("recording webhook attempts failed", cause))
      )
      // On shutdown (after the recorder below has stopped), what is left is recorded rather than attempted again.
      yield* Effect.addFinalizer(() =>
        Queue.clear(finished).pipe(
          Effect.flatMap((batch) => batch.length === 0 ? Effect.void : record(batch)),
          writing.withPermits(1),
          Effect.catchCause((cause) => Effect.logError("recording webhook attempts failed", cause))
        )
      )
      yield* recordFinished.pipe(Effect.forever, Effect.forkScoped)

      /** A slot is free, or half of what is leased ahead is used: leased more now, finishing attempts find some waiting. */
      const wouldLeaseMore = () =>
        slots.inFlight() < settings.concurrency || slots.waiting() < leaseAhead * settings.concurrency / 2

      /** Set when the layer shuts down: nothing more is started. */
      let stopping = false

      /** Starts what the slots let start now. */
      const startReady = (nowMs: number): void => {
        if (stopping) return
        for (const target of slots.pick(nowMs)) startAttempt(runAttempt(target))
      }

      /**
       * Reads again the endpoints with deliveries held here, once per `pollInterval` of live time (as
       * the polls: a test clock may stand still): a deleted or disabled one's waiting deliveries are
       * let go (their leases released, or written pending when the fan-out held them unwritten, so a
       * disabled endpoint's wait for it), the others' address and secrets renewed.
       */
      const refreshEndpoints = Effect.fnUntraced(function*() {
        const liveMs = yield* Time.liveNow
        if (liveMs - endpointsReadMs < Duration.toMillis(settings.pollInterval)) return
        endpointsReadMs = liveMs
        const holding = slots.endpoints()
        const fresh = yield* endpointTable.secretsOf(holding)
        // Views are renewed, not rebuilt: an endpoint the fan-out or a lease brought while this read
        // was out keeps the view they set.
        const dropped: Array<DeliveryToAttempt> = []
        for (const endpointId of holding) {
          const view = fresh.get(endpointId)
          if (view === undefined) endpointViews.delete(endpointId)
          else endpointViews.set(endpointId, view)
          if (attemptable(endpointId) === undefined) {
            dropped.push(...slots.dropEndpoint(endpointId))
          }
        }
        // Views of endpoints with nothing held any more are let go.
        const stillHeld = new Set(slots.endpoints())
        for (const endpointId of endpointViews.keys()) if (!stillHeld.has(endpointId)) endpointViews.delete(endpointId)
        yield* letGo(dropped)
      })

      /** Held deliveries that will not be attempted here: released, or written pending for any server when unwritten. */
      const letGo = (targets: ReadonlyArray<DeliveryToAttempt>) =>
        targets.length === 0 ? Effect.void : writing.withPermits(1)(Effect.suspend(() => {
          const unwritten: Array<Unwritten> = []
          const leased: Array<string> = []
          for (const target of targets) {
            const item = held.take(target.id)
            if (item === undefined) leased.push(target.id)
            else unwritten.push(item)
          }
          return Effect.andThen(writePending(unwritten, null), deliveries.release(leased))
        }))

      const startDue = Effect.fn("WebhookDispatcher.startDue")(function*() {
        const now = yield* Time.now
        yield* writeOverdue()
        yield* refreshEndpoints()
        startReady(leaseNow())
        if (!wouldLeaseMore()) return
        const free = settings.concurrency - slots.inFlight()
        const waiting = slots.waiting()
        const limit = Math.max(free, leaseAhead * settings.concurrency - waiting)
        const candidates = yield* deliveries.due(now.iso, limit * 4, yield* endpointTable.disabled, Time.toIso(leaseNow()))
        const taken = new Map<string, number>()
        const chosen: Array<DueRow> = []
        for (const row of candidates) {
          if (chosen.length >= limit) break
          const endpointHeld = slots.held(row.endpointId) + (taken.get(row.endpointId) ?? 0)
          if (slots.isInFlight(row.id) || endpointHeld >= leaseAhead * settings.perEndpoint) continue
          taken.set(row.endpointId, (taken.get(row.endpointId) ?? 0) + 1)
          chosen.push(row)
        }
        if (chosen.length === 0) return
        const leasedAtMs = leaseNow()
        const leasedUntilMs = leasedAtMs + leaseMs
        // The lease makes the claim exclusive across servers: a row leased by another is skipped.
        const leased = yield* deliveries.lease(chosen.map((row) => row.id), Time.toIso(leasedUntilMs), Time.toIso(leasedAtMs))
        const views = yield* endpointTable.secretsOf([...new Set(leased.map((delivery) => delivery.endpointId))])
        for (const [endpointId, view] of views) endpointViews.set(endpointId, view)
        // A deleted endpoint's deliveries went with it; those of one disabled meanwhile wait, let go.
        const disabled: Array<DeliveryToAttempt> = []
        for (const target of leased) {
          if (attemptable(target.endpointId) !== undefined) slots.add(target, leasedUntilMs)
          else disabled.push(target)
        }
        yield* letGo(disabled)
        startReady(leaseNow())
      }, Effect.orDie)

      /**
       * Fans out every settled event past the cursor, batch by batch, waking the attempts after each.
       * The first batch is small and each next one twice the last, up to `fanOutBatch`: a backlog's
       * first attempts start after a few rows are written, not after the first full batch.
       */
      const fanOutBacklog = Effect.gen(function*() {
        let batchSize = Math.min(firstFanOutBatch, settings.fanOutBatch)
        while (yield* fanOut(batchSize)) {
          yield* Queue.offer(wakeups, true)
          batchSize = Math.min(batchSize * 2, settings.fanOutBatch)
          // A turn of the event loop between batches: on PGlite the statements run on this thread,
          // and without it the attempts' connections and answers waited for the whole backlog.
          yield* Time.liveSleep(Duration.zero)
        }
      })

      /** The whole backlog fanned out, then what is due attempted. */
      const runOnce = Effect.andThen(fanOutBacklog, startDue())

      // Live time, not the (possibly test) Clock: polling must go on while a test clock stands still.
      const polled = Time.liveSleep(settings.pollInterval)
      /** Set by `wake`: events were committed, fan them out now rather than at the next poll. */
      const newEvents = yield* Queue.sliding<true>(1)

      // On shutdown (after the loops below have stopped): attempts in flight finish (within their
      // timeout; one stopped midway may have reached its receiver, and would go again from the next
      // server), what finished is recorded, what was held unwritten is written pending and what was
      // leased ahead is released, all for the next server.
      yield* Effect.addFinalizer(() =>
        Effect.gen(function*() {
          stopping = true
          yield* FiberSet.awaitEmpty(running).pipe(
            Effect.timeoutOption(Duration.millis(settings.timeoutMs)),
            Effect.provideService(Clock.Clock, Clock.Clock.defaultValue())
          )
          yield* FiberSet.clear(running)
          yield* writing.withPermits(1)(Effect.gen(function*() {
            const left = yield* Queue.clear(finished)
            if (left.length > 0) yield* record(left)
            yield* writePending(held.takeAll(), null)
          }))
          yield* letGo(slots.drain())
        }).pipe(Effect.catchCause((cause) => Effect.logError("handing webhook deliveries over failed", cause)))
      )
      // Fan-out has its own fiber, so attempts go on while a backlog of events is fanned out: each
      // batch fanned out wakes the attempts at once instead of after the whole backlog.
      yield* Effect.gen(function*() {
        yield* fanOutBacklog.pipe(Effect.catchCause((cause) => Effect.logError("webhook fan-out failed", cause)))
        yield* reclaimLapsed().pipe(Effect.catchCause((cause) => Effect.logError("reclaiming webhook fan-outs failed", cause)))
        yield* Effect.raceFirst(Queue.take(newEvents), polled)
      }).pipe(Effect.forever, Effect.forkScoped)
      // Attempts: woken by a finished attempt or a fanned-out batch, else every poll (retries come due with time).
      yield* Effect.gen(function*() {
        yield* startDue().pipe(Effect.catchCause((cause) => Effect.logError("webhook dispatcher round failed", cause)))
        yield* Effect.raceFirst(Queue.take(wakeups), polled)
      }).pipe(Effect.forever, Effect.forkScoped)

      const resend = Effect.fn("WebhookDispatcher.resend")(function*(
        workspaceId: string,
        endpointId: string,
        deliveryId: string
      ) {
        yield* endpoints.delivery(workspaceId, endpointId, deliveryId)
        const target = yield* deliveries.toAttempt(deliveryId)
        // By hand, a disabled endpoint's delivery is sent too.
        const endpoint = target === undefined ? undefined : (yield* endpointTable.secretsOf([target.endpointId])).get(target.endpointId)
        if (target !== undefined && endpoint !== undefined) {
          const outcome = yield* attempt(target, endpoint)
          const atMs = (yield* Time.now).ms
          yield* writing.withPermits(1)(record([{ target, trigger: "manual", outcome, atMs }]))
        }
        return yield* endpoints.delivery(workspaceId, endpointId, deliveryId)
      })

      const sendTest = Effect.fn("WebhookDispatcher.sendTest")(function*(
        workspaceId: string,
        endpointId: string,
        sentBy: string
      ) {
        const webhook = yield* endpoints.get(workspaceId, endpointId)
        // By hand, as a resend: a disabled endpoint, or one whose events leave tests out, is sent it too.
        const endpoint = (yield* endpointTable.secretsOf([endpointId])).get(endpointId)
        if (endpoint === undefined) return yield* endpointNotFound(endpointId)
        const now = yield* Time.now
        const eventId = crypto.randomUUID()
        const body = testEventBody({ id: eventId, createdAt: now.iso, webhookId: endpointId, sentBy }, webhook.mode)
        const target: DeliveryToAttempt = {
          id: crypto.randomUUID(),
          endpointId,
          eventType: testEventType,
          body,
          status: "pending",
          attemptCount: 0
        }
        // The path of every delivery: vetted, signed with a fresh timestamp, sent pinned; then written
        // once with its outcome, as a held delivery is. Not retried: a test is answered now or not.
        const outcome = yield* attempt(target, endpoint)
        const finished: Finished = { target, trigger: "manual", outcome, atMs: (yield* Time.now).ms }
        yield* writing.withPermits(1)(deliveries.record([{
          attempt: attemptRecord(finished),
          change: outcome.ok ? { _tag: "succeeded", counted: false } : { _tag: "failed", attemptCount: 0 },
          fresh: { ...target, workspaceId, eventId, createdAtIso: now.iso }
        }]))
        return yield* endpoints.delivery(workspaceId, endpointId, target.id)
      })

      const wake = Queue.offer(newEvents, true).pipe(Effect.asVoid)

      return WebhookDispatcher.of({ wake, runOnce, resend, sendTest })
    })
  )

  /** `layerNoDeps` with its services' layers. */
  static readonly layer = WebhookDispatcher.layerNoDeps.pipe(Layer.provide([DeliveryStore.layer, Outbox.layer, WebhookEndpoints.layer, EndpointTable.layer]))
}

