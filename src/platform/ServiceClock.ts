/**
 * The service's clock. `OUTREACH_CLOCK=system` (default): the real time, which
 * cannot be moved. `OUTREACH_CLOCK=test`: the sandbox's test clock, an Effect
 * `TestClock` installed as the `Clock` (and scheduler) of every layer built on
 * {@link layer}, so request handlers, background fibers and schedules all follow
 * it. It moves only through {@link ServiceClock}'s `advance` and `setTo`, never
 * backwards, and every move is saved in `sandbox_clock` so a restart resumes at
 * the same instant. Several servers on one database share the clock: a move
 * made through one is announced (`Notices`) and made on the others too.
 */
import { Clock, Context, Effect, Layer, Scheduler, Schema, Semaphore, Stream } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import * as Time from "../domain/Time.ts"
import { AppConfig } from "./AppConfig.ts"
import { channels, Notices, resumed } from "./Notices.ts"
import { BigIntNumber } from "./Rows.ts"

/** Which clock the service runs on (`OUTREACH_CLOCK`). */
export type ClockMode = "system" | "test"

/** A move was asked of the system clock, which only the world moves. */
export class ClockNotAdjustable extends Schema.TaggedError<ClockNotAdjustable>()("ClockNotAdjustable", {
  message: Schema.String
}) {}

/** A move would take the clock back in time (or nowhere a date can be). */
export class ClockWouldGoBack extends Schema.TaggedError<ClockWouldGoBack>()("ClockWouldGoBack", {
  /** The clock's time, epoch milliseconds. */
  now: Schema.Number,
  /** The time asked for, epoch milliseconds. */
  requested: Schema.Number,
  message: Schema.String
}) {}

/** Which clock the service runs on, its time, and the only way to move the sandbox's test clock. */
export class ServiceClock extends Context.Service<ServiceClock, {
  readonly mode: ClockMode
  /** The service's current time, epoch milliseconds. */
  readonly now: Effect.Effect<number>
  /**
   * Moves the test clock forward by `ms`, running every sleep due on the way
   * in order; returns the new time. Fails on the system clock or when `ms < 0`.
   */
  readonly advance: (ms: number) => Effect.Effect<number, ClockNotAdjustable | ClockWouldGoBack>
  /**
   * Moves the test clock to the instant `ms` (epoch milliseconds), running every
   * sleep due on the way; returns it. Fails on the system clock or when `ms` is
   * before the current time.
   */
  readonly setTo: (ms: number) => Effect.Effect<number, ClockNotAdjustable | ClockWouldGoBack>
  /**
   * Runs `effect` on the real clock even under the test clock: for operational
   * timeouts (a health check's database probe, graceful shutdown) that must
   * not wait for someone to move the sandbox's time. Identity on the system clock.
   */
  readonly withRealTime: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>()("outreach/ServiceClock") {}

// The latest instant a JavaScript Date can hold; beyond it no time can be shown.
const maxInstant = 8_640_000_000_000_000

// TestClock warns when time is used without being advanced, which is the normal
// state of a sandbox server; a year keeps it quiet (the live timer handles it).
const neverWarn = "365 days"

const notAdjustable = new ClockNotAdjustable({
  message: "The service runs on the system clock, which cannot be moved."
})

/** The system clock: the fiber's `Clock` (the real one in production), never moved. */
export const systemClock: ServiceClock["Service"] = {
  mode: "system",
  now: Clock.currentTimeMillis,
  advance: () => Effect.fail(notAdjustable),
  setTo: () => Effect.fail(notAdjustable),
  withRealTime: (effect) => effect
}

const decodeRows = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ nowMs: BigIntNumber })))

/**
 * Where a test clock keeps its instant, so a restart resumes at it, and how it hears of the moves
 * made by other servers sharing it: the `sandbox_clock` table and `Notices` for the service
 * ({@link layer}), memory for its fake (`ServiceClockMemory.ts`).
 */
export interface ClockStore {
  /** The saved instant (epoch milliseconds), if any. */
  readonly saved: Effect.Effect<number | undefined>
  /** Saves the instant `ms`, moved at the real time `movedAt` (ISO 8601). */
  readonly save: (ms: number, movedAt: string) => Effect.Effect<void>
  /** Tells the servers sharing the clock that it moved to `ms`. */
  readonly announce: (ms: number) => Effect.Effect<void>
  /** The moves the others made: each element reads the instant the clock was moved to. */
  readonly movedElsewhere: Stream.Stream<Effect.Effect<number>>
}

/** The test clock's store: the `sandbox_clock` table, its moves shared through `Notices` with every server of the database. */
export const storedClock = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const notices = yield* Notices
  const saved = sql`SELECT now_ms AS "nowMs" FROM sandbox_clock WHERE id = 1`.pipe(
    Effect.flatMap(decodeRows),
    Effect.map((rows) => rows[0]?.nowMs),
    Effect.orDie
  )
  const store: ClockStore = {
    saved,
    save: (ms, movedAt) =>
      sql`
        INSERT INTO sandbox_clock (id, now_ms, updated_at) VALUES (1, ${ms}, ${movedAt}::timestamptz)
        ON CONFLICT (id) DO UPDATE SET now_ms = excluded.now_ms, updated_at = excluded.updated_at`.pipe(Effect.orDie),
    announce: (ms) => notices.publish(channels.clockMoved, String(ms)),
    // After a gap in listening, the saved instant tells where the others moved it.
    movedElsewhere: Stream.map(
      notices.listen(channels.clockMoved),
      (heard) => heard === resumed ? Effect.map(saved, (ms) => ms ?? 0) : Effect.succeed(Number(heard))
    )
  }
  return store
})

/**
 * Why the test clock at `current` refuses to move to `requested` (both epoch milliseconds): back
 * in time, or beyond the latest instant a date can hold; `undefined` when it may move there.
 */
export const refusedMove = (current: number, requested: number): ClockWouldGoBack | undefined =>
  requested >= current && requested <= maxInstant ? undefined : new ClockWouldGoBack({
    now: current,
    requested,
    message: requested < current
      ? `The clock is at ${Time.toIso(current)} and only moves forward.`
      : "The clock cannot move that far."
  })

/**
 * The test clock on `store`: resumes at the saved instant, or starts at the real
 * current time on first use. The returned context carries the `ServiceClock`,
 * the `Clock` and the tracking `Scheduler` the `TestClock` needs to wake
 * sleepers in order.
 */
export const makeTestClock = (store: ClockStore) => Effect.gen(function*() {
  const clockContext = yield* Layer.build(TestClock.layer({ warningDelay: neverWarn }))
  const testClock = yield* Effect.provideContext(TestClock.testClockWith(Effect.succeed), clockContext)
  const scheduler = Context.get(clockContext, Scheduler.Scheduler)
  const realNow = testClock.withLive(Clock.currentTimeMillis)
  const save = (ms: number) => Effect.flatMap(realNow, (movedAt) => store.save(ms, Time.toIso(movedAt)))

  const saved = yield* store.saved
  const start = saved ?? (yield* realNow)
  if (saved === undefined) yield* save(start)
  yield* testClock.setTime(start)
  yield* Effect.logInfo(
    `clock: test clock at ${Time.toIso(start)} (${saved !== undefined ? "resumed" : "started at the real time"}); ` +
      "it moves only through POST /v1/sandbox/clock"
  )

  // One move at a time, so the saved instant and the clock always agree.
  const lock = yield* Semaphore.make(1)
  const moveTo = (target: (current: number) => number) =>
    lock.withPermits(1)(Effect.gen(function*() {
      const current = testClock.currentTimeMillisUnsafe()
      const requested = target(current)
      const refused = refusedMove(current, requested)
      if (refused !== undefined) return yield* refused
      // Saved first: if saving fails the clock has not moved, so both still agree; and
      // not interruptible (a client hanging up) between the save and the move.
      yield* Effect.uninterruptible(Effect.andThen(save(requested), testClock.setTime(requested)))
      yield* store.announce(requested)
      return requested
    }))

  // Several servers on one database share one test clock: a move made on any of them is made here too.
  yield* store.movedElsewhere.pipe(
    Stream.runForEach((heard) =>
      lock.withPermits(1)(Effect.gen(function*() {
        const to = yield* heard
        if (to > testClock.currentTimeMillisUnsafe()) yield* testClock.setTime(to)
      }))
    ),
    Effect.forkScoped
  )

  const service: ServiceClock["Service"] = {
    mode: "test",
    now: testClock.currentTimeMillis,
    advance: Effect.fn("ServiceClock.advance")((ms: number) => moveTo((current) => current + ms)),
    setTo: Effect.fn("ServiceClock.setTo")((ms: number) => moveTo(() => ms)),
    withRealTime: (effect) => testClock.withLive(effect)
  }
  return Context.make(ServiceClock, service).pipe(
    Context.add(Clock.Clock, testClock),
    Context.add(Scheduler.Scheduler, scheduler)
  )
})

/**
 * The `ServiceClock` for `AppConfig.clock`, with the `Notices` its servers share. In test mode the
 * layer also provides the test clock as `Clock` to every layer built on it: provide it beneath
 * everything that reads the time.
 */
export const layer: Layer.Layer<ServiceClock | Notices, never, AppConfig | SqlClient.SqlClient> = Layer.unwrap(
  Effect.gen(function*() {
    const config = yield* AppConfig
    return config.clock === "test"
      ? Layer.effectContext(Effect.flatMap(storedClock, makeTestClock))
      : Layer.succeed(ServiceClock, ServiceClock.of(systemClock))
  })
).pipe(Layer.provideMerge(Notices.layer))

/**
 * The clock of what is not business time (the rate-limit window, webhook signature timestamps,
 * and who people are: sessions, sign-in lockouts, two-factor codes, invitations, keys, OAuth grants):
 * the real clock beneath the sandbox's test clock under `OUTREACH_CLOCK=test`; otherwise the
 * fiber's `Clock` (the real one in production, a unit test's `TestClock` in tests). Without a
 * `ServiceClock` in context, the fiber's `Clock`.
 */
export const realClock: Effect.Effect<Clock.Clock> = Effect.flatMap(
  Effect.serviceOption(ServiceClock),
  (service) => {
    const current = Effect.clockWith(Effect.succeed)
    return service._tag === "Some" ? service.value.withRealTime(current) : current
  }
)

/**
 * Now on {@link realClock}, for a service to read it with: taken once where the service is built
 * (a request's fiber need not carry the `ServiceClock`).
 */
export const realNow: Effect.Effect<Effect.Effect<{ readonly ms: number; readonly iso: string }>> = Effect.map(
  realClock,
  (clock) =>
    Effect.sync(() => {
      const ms = clock.currentTimeMillisUnsafe()
      return { ms, iso: Time.toIso(ms) }
    })
)
