/**
 * The attempts of this server: due deliveries leased (and those the fan-out hands over, held
 * unwritten) wait for a slot, and are attempted at most `concurrency` at once and `perEndpoint`
 * per endpoint (`AttemptSlots`), so one slow endpoint never holds up the others. A finished
 * attempt's slot goes to the next leased delivery at once; its outcome goes to the recorder
 * (`AttemptRecorder`). The endpoints of what is held are read again every poll, so one
 * disabled, deleted, moved or rotated meanwhile is attempted as it is now (a disabled one's
 * wait, released).
 *
 * The loop is woken by a finished attempt or a fanned-out batch, else every `pollInterval` of
 * live time (retries come due with time).
 */
import { Cause, Clock, Duration, Effect, Exit, FiberSet, Queue, type Scope } from "effect"
import * as Time from "../domain/Time.ts"
import type { AttemptRecorder } from "./AttemptRecorder.ts"
import type { AttemptSender } from "./AttemptSender.ts"
import * as AttemptSlots from "./AttemptSlots.ts"
import type { DeliveryLeases } from "./DeliveryLeases.ts"
import { DeliveryStore, type DeliveryToAttempt, type DueRow, type HeldDelivery } from "./DeliveryStore.ts"
import { type EndpointSecrets, EndpointTable, type Subscriber } from "./EndpointTable.ts"
import type { HeldWriter } from "./HeldWriter.ts"

/**
 * Deliveries leased ahead: up to this many times `concurrency` (and `perEndpoint` for one endpoint),
 * so a lease statement serves many rounds of attempts (with 4, a backlog past the fan-out's held
 * ones waited for its lease statements every 64 deliveries); leases last far longer than they wait here.
 */
const leaseAhead = 16

/** The limits and pace of the attempts. */
export interface AttemptSettings extends AttemptSlots.SlotLimits {
  /** Live time between polls when nothing wakes the loop. */
  readonly pollInterval: Duration.Duration
}

/** A fan-out's deliveries held here, handed to the attempts once its transaction committed. */
export interface HandedOver {
  readonly claimId: string
  readonly deliveries: ReadonlyArray<HeldDelivery>
  /** The endpoints subscribed to the fan-out's events, as it read them. */
  readonly endpoints: ReadonlyArray<Subscriber>
  /** When the claim's lease ends (real time). */
  readonly leasedUntilMs: number
  /** When they were held (live time). */
  readonly heldAtMs: number
}

export interface Attempts {
  /** Leases what is due and starts what the slots let start. */
  readonly startDue: Effect.Effect<void>
  /** Wakes the loop now. */
  readonly wake: Effect.Effect<void>
  /** How many deliveries of the endpoint are held here (waiting or in flight). */
  readonly held: (endpointId: string) => number
  /** A fan-out's held deliveries, to attempt here. */
  readonly handOver: (handed: HandedOver) => void
}

/**
 * The attempts with their loop running for the scope. On shutdown (after the loop has stopped):
 * attempts in flight finish (within their timeout; one stopped midway may have reached its
 * receiver, and would go again from the next server), what finished is recorded, what was held
 * unwritten is written pending and what was leased ahead is released, all for the next server.
 */
export const make = (options: {
  readonly settings: AttemptSettings
  readonly leases: DeliveryLeases
  readonly send: AttemptSender
  readonly recorder: AttemptRecorder
  readonly writer: HeldWriter
}): Effect.Effect<Attempts, never, DeliveryStore | EndpointTable | Scope.Scope> =>
  Effect.gen(function*() {
    const { leases, recorder, send, settings, writer } = options
    const deliveries = yield* DeliveryStore
    const endpointTable = yield* EndpointTable
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

    /**
     * A delivery's attempt is over (or was not made): its slot goes to the next leased delivery at
     * once, not after the loop's next lease statements; the loop is woken only when it would
     * lease more (a wake per attempt costs a round of the loop per delivery).
     */
    const afterAttempt = (target: DeliveryToAttempt): void => {
      slots.finish(target)
      startReady(leases.now())
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
      if (endpoint === undefined) return Effect.ensuring(writer.letGo([target]), Effect.sync(() => afterAttempt(target)))
      return Effect.onExit(send(target, endpoint), (exit) => {
        if (Exit.isSuccess(exit)) {
          recorder.later({ target, trigger: "automatic", outcome: exit.value, atMs: clock.currentTimeMillisUnsafe() })
        }
        afterAttempt(target)
        // A failing attempt is logged and its lease lapses; it never takes the loop or its siblings down.
        return Exit.isFailure(exit) && !Cause.hasInterruptsOnly(exit.cause)
          ? Effect.logError("webhook attempt crashed", exit.cause)
          : Effect.void
      })
    }

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
      yield* writer.letGo(dropped)
    })

    const startDue = Effect.fn("WebhookDispatcher.startDue")(function*() {
      const now = yield* Time.now
      yield* writer.writeOverdue
      yield* refreshEndpoints()
      startReady(leases.now())
      if (!wouldLeaseMore()) return
      const free = settings.concurrency - slots.inFlight()
      const waiting = slots.waiting()
      const limit = Math.max(free, leaseAhead * settings.concurrency - waiting)
      const candidates = yield* deliveries.due(now.iso, limit * 4, yield* endpointTable.disabled, Time.toIso(leases.now()))
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
      const leasedAtMs = leases.now()
      const leasedUntilMs = leasedAtMs + leases.ms
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
      yield* writer.letGo(disabled)
      startReady(leases.now())
    }, Effect.orDie)

    yield* Effect.addFinalizer(() =>
      Effect.gen(function*() {
        stopping = true
        yield* FiberSet.awaitEmpty(running).pipe(
          Effect.timeoutOption(Duration.millis(settings.timeoutMs)),
          Time.onRealTime
        )
        yield* FiberSet.clear(running)
        yield* writer.exclusive(Effect.andThen(recorder.recordWaiting, writer.writeAll))
        yield* writer.letGo(slots.drain())
      }).pipe(Effect.catchCause((cause) => Effect.logError("handing webhook deliveries over failed", cause)))
    )
    // Live time, not the (possibly test) Clock: polling must go on while a test clock stands still.
    yield* Effect.gen(function*() {
      yield* startDue().pipe(Effect.catchCause((cause) => Effect.logError("webhook dispatcher round failed", cause)))
      yield* Effect.raceFirst(Queue.take(wakeups), Time.liveSleep(settings.pollInterval))
    }).pipe(Effect.forever, Effect.forkScoped)

    return {
      startDue: startDue(),
      wake: Queue.offer(wakeups, true).pipe(Effect.asVoid),
      held: slots.held,
      handOver: ({ claimId, deliveries: kept, endpoints, heldAtMs, leasedUntilMs }) => {
        // Attempted only once claimed for good: a rolled-back fan-out held nothing.
        for (const endpoint of endpoints) endpointViews.set(endpoint.id, endpoint)
        writer.held.hold(claimId, kept, heldAtMs)
        for (const target of kept) slots.add(target, leasedUntilMs)
        startReady(leases.now())
      }
    }
  })
