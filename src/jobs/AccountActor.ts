/**
 * An account's actor, on the runner that owns the account (`Governor.ts`): it runs the account's
 * writes one at a time, in order, inside working hours, budgets, warm-up, health and pacing; a write
 * waiting for its own category's budget lets the writes of other categories pass (`chooseWrite`).
 * Reads run beside it without waiting for the writes (`ActorReads.ts`, `ReadPool.ts`).
 *
 * The actor asks `chooseWrite` which of the account's queued writes may run now, and
 * either starts it (recording the attempt first, so a crash never runs a write
 * twice), fails it, or records why it waits and sleeps on the `Clock` until
 * then or until woken (`ActorWaits.ts`). While the account has work to run now, or a short
 * wait, it keeps its entity alive (`Entity.keepAlive`). An account with nothing
 * to do, or whose writes wait for a later instant (working hours, a budget's
 * next period, a long pacing gap, warm-up) or for a change to the account,
 * leaves memory once idle (`OUTREACH_ACCOUNT_IDLE_TIME`): the wait's end is
 * recorded on its jobs (their `eta`), a durable wake-up that the runner owning
 * the account then finds (`Takeover.ts`), whatever restarted or moved in
 * between (issue #36).
 *
 * A runner that takes an account over (a restart, or a dead runner's shards
 * moving to it) first settles what the account's previous owner left
 * `running` (`LeftRunning.ts`).
 *
 * What the actor holds is `ActorState.ts`; what the actors of a runner share, `ActorContext.ts`; what an
 * actor keeps of its account's facts, `KeptFacts.ts`.
 */
import { Duration, Effect, Exit, Option, Queue } from "effect"
import { runnableStatuses } from "../domain/Job.ts"
import * as Spans from "../platform/Spans.ts"
import { afterJob, type PlanRow } from "./AccountFacts.ts"
import * as ActorContext from "./ActorContext.ts"
import * as ActorReads from "./ActorReads.ts"
import * as ActorState from "./ActorState.ts"
import type { Actor } from "./ActorState.ts"
import * as ActorWaits from "./ActorWaits.ts"
import type { Ending } from "./Endings.ts"
import type { JobRow } from "./JobRow.ts"
import * as KeptFacts from "./KeptFacts.ts"
import * as LeftRunning from "./LeftRunning.ts"
import { chooseWrite } from "./Plan.ts"
import { queuedWriteOf } from "./WriteTarget.ts"

/**
 * The actors of one runner, for the scope's lifetime: what they share (the runner's write slots, its read pool,
 * the fencing of its writes, the jobs its fibers run) and each account's actor, brought to life by `activate`.
 */
export const make = (options: {
  /** The runner's address, on the spans of the jobs it starts. */
  readonly runner: string
  /** Runs an actor's work on the service's clock (the cluster runs its entities on real time). */
  readonly onServiceTime: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}) =>
  Effect.gen(function*() {
    const { onServiceTime, runner } = options
    const context = yield* ActorContext.make(options)
    const { actors, executor, failUnstarted, fencing, finish, inFlight, log, nextWriteAt, store, take, writeSlots } = context
    /** Actors with nothing to do, waiting for a message. */
    const waiting = { count: 0 }

    const readEndings = yield* ActorReads.endings(context)

    /**
     * Claims a job (a write as the owner of epoch `fence`). When the claim's answer is lost with its connection,
     * what was committed is read back before anything else: a write whose running mark cannot be seen is not sent.
     */
    const claimed = (job: JobRow, fence: number | null) =>
      Effect.gen(function*() {
        const exit = yield* Effect.exit(store.claim(job, fence))
        // A write's claim may have committed in a batch whose answer was lost, and be refused when tried again alone.
        if (Exit.isSuccess(exit) && (exit.value || fence === null)) return exit.value
        const row = yield* fencing.durably(job.accountId, store.byId(job.id))
        const mine = Option.isSome(row) && row.value?.status === "running" && (fence === null || row.value.fence === fence)
        if (Exit.isFailure(exit)) yield* log(job, `the answer to its claim was lost; it was ${mine ? "" : "not "}committed`)
        return mine
      })

    /**
     * Starts a job the plan let through, runs it, records the ending. A write waits for one of the runner's
     * write slots first; it is not interrupted once claimed: a runner handing its accounts over (a rolling
     * restart) lets it finish first. A read gives its place in the read pool back once it ran: its ending
     * waits for its batch on a fiber of its own (the job stays in flight until it is recorded), as
     * graphile-worker's completions do, so the pool's places run reads rather than wait for commits.
     */
    const start = (actor: Actor, job: JobRow, row: PlanRow) => {
      /** Whether the ending went on on a fiber of its own, which takes the job out of `inFlight` once recorded. */
      let handedOver = false
      return Effect.gen(function*() {
        const fence = job.isWrite ? actor.epoch : null
        if (fence === undefined || !(yield* claimed(job, fence))) return false
        const outcome = yield* executor.run(job, row, fence === null ? null : fencing.gate(job, fence))
        if (outcome._tag === "NotSent" || outcome._tag === "Unsettled") {
          actor.stale = true
          if (outcome._tag === "NotSent") {
            yield* log(job, `write given up before it was sent, queued again: ${outcome.reason}`)
            yield* fencing.durably(job.accountId, store.requeue(job.id, fence))
            return true
          }
          // Its outcome is unknown: the account is taken anew, and the write settled once the lease rule allows.
          actor.epoch = undefined
          yield* log(job, `write cut off before the network answered, settled later by what the network knows: ${outcome.reason}`)
          return true
        }
        // Every write that was attempted spaces the next one, whatever its outcome.
        const writesNotBefore = job.isWrite ? yield* nextWriteAt : null
        // What the actor knows of its account counts this job's spend and gate at once.
        if (actor.facts !== undefined) {
          const spend = outcome._tag === "Completed" ? outcome.spend : null
          actor.facts = { ...actor.facts, loaded: afterJob(actor.facts.loaded, spend, writesNotBefore) }
        }
        const ending: Ending = outcome._tag === "Completed"
          ? { _tag: "Completed", result: outcome.result, spend: outcome.spend, writesNotBefore }
          : { _tag: "Failed", error: outcome.error, writesNotBefore }
        // A lost answer to the ending's commit is found out by finishing again (guarded by status and fence).
        const record = Effect.flatMap(fencing.durably(job.accountId, finish(job, ending, ["running"], fence)), (recorded) =>
          Effect.sync(() => {
            if (Option.isSome(recorded)) return
            actor.epoch = undefined
            actor.stale = true
          }))
        if (job.isWrite) {
          yield* record
          return true
        }
        yield* readEndings.handOver(job.id, record, () => handedOver = true)
        return true
      }).pipe(
        (run) => Effect.andThen(Effect.sync(() => inFlight.add(job.id)), run),
        Effect.ensuring(Effect.sync(() => handedOver || inFlight.delete(job.id))),
        (run) => job.isWrite ? writeSlots.run(Effect.uninterruptible(run)) : run,
        Effect.withSpan("Governor.start", { attributes: { jobId: job.id, kind: job.kind, accountId: job.accountId, runner } }, Spans.perJob)
      )
    }

    const { factsOf, forgetFacts } = KeptFacts.make(context)

    /** Tells an actor its queue changed: it looks at it again. */
    const wakeActor = (actor: Actor) =>
      Effect.suspend(() => {
        actor.stale = true
        return Effect.asVoid(Queue.offer(actor.mailbox, true))
      })

    const reads = yield* ActorReads.make(context, { factsOf, start })
    const { retryOpenReads, retryReads, submitRead } = reads
    const leftRunning = LeftRunning.make(context, submitRead)

    /**
     * Reads the account's open work again: its writes not started, in memory from now on; and settles its
     * running jobs that no fiber here runs: this runner owns the account, so they belong to a process that
     * died (or to this runner's previous life). Returns the open reads and how many jobs it settled.
     */
    const look = (actor: Actor) =>
      Effect.gen(function*() {
        actor.stale = false
        const open = yield* store.openOf(actor.accountId)
        actor.writes = open.filter((job) => job.isWrite && runnableStatuses.includes(job.status))
        const left = open.filter((job) => job.status === "running" && !inFlight.has(job.id))
        const { settled, settleAt } = yield* leftRunning.settle(actor, left)
        if (left.some((job) => job.isWrite)) actor.stale = true
        actor.settleAt = settleAt
        return { reads: open.filter(ActorReads.isOpenRead), settled, settleAt }
      })

    const { recordWaits, rest } = ActorWaits.make(context)

    /** Takes a write out of the actor's queue (it started or finished). */
    const dropWrite = (actor: Actor, job: JobRow) => {
      actor.writes = actor.writes.filter((write) => write.id !== job.id)
    }

    /**
     * One look at the account's write queue: `chooseWrite` names the write to act on (the oldest, unless it
     * waits for its category's budget); then waits as long as there is nothing to do.
     */
    const step = (actor: Actor) =>
      Effect.gen(function*() {
        if (actor.stale) yield* look(actor)
        if (actor.writes.length === 0) {
          yield* ActorWaits.keepAlive(actor, actor.parked.size > 0 || actor.reads > 0)
          // With nothing queued, a write a previous owner left running still wakes it when the lease rule allows.
          if (actor.settleAt !== null) return yield* ActorWaits.lookAgainAt(actor, actor.settleAt)
          waiting.count++
          return yield* ActorWaits.sleep(actor, null).pipe(Effect.ensuring(Effect.sync(() => waiting.count--)))
        }
        const current = yield* factsOf(actor)
        if (current === undefined) {
          const [job] = actor.writes
          yield* failUnstarted(job, ActorContext.removed)
          return dropWrite(actor, job)
        }
        const choice = chooseWrite(actor.writes.map(queuedWriteOf), current.account, current.nowMs)
        const shown = yield* recordWaits(actor, choice)
        switch (choice._tag) {
          case "Run": {
            yield* ActorWaits.keepAlive(actor, true)
            const job = actor.writes[choice.index]
            // A write is started only while this runner's lease of the account holds, under its owner epoch.
            const holds = (yield* fencing.holds(actor.accountId)) && (yield* take(actor)) !== undefined
            if (holds && (yield* start(actor, job, current.row))) return dropWrite(actor, job)
            // The write slot is taken by a write no fiber here runs (a previous owner's): settle it, then look again.
            const looked = yield* look(actor)
            if (looked.settled > 0) return
            // Or the lease rule holds it back, the lease does not hold, or the pacing gate moved: look again then.
            return yield* ActorWaits.lookAgainAt(actor, looked.settleAt)
          }
          case "Fail": {
            const job = actor.writes[choice.index]
            yield* failUnstarted(job, choice.error)
            return dropWrite(actor, job)
          }
          case "Wait":
            yield* rest(actor, choice, shown, current.nowMs)
            return yield* ActorWaits.sleep(actor, choice.until)
        }
      })

    /** The account's actor: settles what a previous owner left, retries its reads, then runs its writes. */
    const actorLoop = (actor: Actor) =>
      Effect.gen(function*() {
        const { reads } = yield* look(actor)
        yield* retryReads(actor, reads)
        yield* step(actor).pipe(
          // Supervision: a crash is logged and the account's actor goes on a little later, looking again.
          Effect.catchCause((cause) =>
            Effect.logError("governor step crashed; retrying in 5 seconds", cause).pipe(
              Effect.andThen(Effect.sync(() => actor.stale = true)),
              Effect.andThen(Effect.sleep(Duration.seconds(5)))
            )
          ),
          Effect.forever
        )
      }).pipe(Effect.annotateLogs({ accountId: actor.accountId }))

    /**
     * Brings the account's actor to life on this runner, in the caller's scope (its entity's): it stops, and
     * leaves `actors`, when the scope closes.
     */
    const activate = (accountId: string) =>
      Effect.gen(function*() {
        const actor = yield* ActorState.make(accountId)
        actors.set(accountId, actor)
        yield* Effect.addFinalizer(() => Effect.sync(() => actors.delete(accountId)))
        yield* Effect.forkScoped(onServiceTime(actorLoop(actor)))
        return actor
      })

    const residents: ReadonlyMap<string, Actor> = actors
    return {
      /** The accounts whose actor lives here. */
      actors: residents,
      activate,
      wake: wakeActor,
      /** The account changed: the actor forgets what it read of it, looks at its writes again and retries its reads. */
      changed: (actor: Actor) =>
        Effect.andThen(Effect.andThen(Effect.sync(() => forgetFacts(actor)), wakeActor(actor)), retryOpenReads(actor)),
      retryOpenReads,
      submitRead,
      /** Whether an actor here holds the job: a fiber runs it, the read pool has it, or its actor keeps it queued. */
      holds: (accountId: string, jobId: string) =>
        inFlight.has(jobId) || reads.starting(jobId) || actors.get(accountId)?.writes.some((write) => write.id === jobId) === true,
      /** Actors with nothing to do, waiting for a message. */
      waiting: Effect.sync(() => waiting.count),
      writesWaiting: writeSlots.waiting
    }
  })
