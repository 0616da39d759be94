/**
 * An account's actor, on the runner that owns the account (`Governor.ts`): it runs the account's
 * writes one at a time, in order, inside working hours, budgets, warm-up, health and pacing; a write
 * waiting for its own category's budget lets the writes of other categories pass (`chooseWrite`).
 * Reads run beside it without waiting for the writes (`ReadPool.ts`).
 *
 * The actor asks `chooseWrite` which of the account's queued writes may run now, and
 * either starts it (recording the attempt first, so a crash never runs a write
 * twice), fails it, or records why it waits and sleeps on the `Clock` until
 * then or until woken. While the account has work to run now, or a short
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
 * `running`: the owner is the only runner that runs the account's jobs, so a
 * running job no fiber of its own runs belongs to a dead process. A read runs
 * again; a write is settled by asking the network driver whether it happened
 * (`outcomeOf`): completed with its result if it did, run again if it surely
 * did not, and failed as `interrupted` only when the driver cannot tell.
 */
import { Clock, Duration, Effect, Exit, FiberSet, Option, Queue, Random, Semaphore } from "effect"
import { Entity } from "effect/cluster"
import { SqlClient } from "effect/sql"
import { categoryOfJob } from "../domain/Commands.ts"
import { type JobFailure, type JobStatus, runnableStatuses, type WaitReason } from "../domain/Job.ts"
import * as Time from "../domain/Time.ts"
import * as Spans from "../platform/Spans.ts"
import { afterJob, factsAt, loadFacts, type LoadedFacts, type PlanRow, sameDay } from "./AccountFacts.ts"
import { type Ending, JobEndings } from "./Endings.ts"
import { Executor } from "./Executor.ts"
import * as Fencing from "./Fencing.ts"
import { GovernorSettings } from "./GovernorSettings.ts"
import type { JobRow } from "./JobRow.ts"
import { JobStore } from "./JobStore.ts"
import { JobWatch } from "./JobWatch.ts"
import { type Choice, chooseWrite, pacingGap, planJob } from "./Plan.ts"
import * as ReadPool from "./ReadPool.ts"
import { queuedWriteOf } from "./WriteTarget.ts"
import * as WriteSlots from "./WriteSlots.ts"

const interrupted: JobFailure = {
  type: "interrupted",
  message:
    "The service stopped while this write was in flight, and the network cannot tell whether it went out, so it is not tried again: a write never runs twice.",
  next: "Check the account on the network (list_invites, get_conversation...) and create the job again if it did not go out."
}

const removed: JobFailure = {
  type: "accountRemoved",
  message: "The account was removed before this job ran.",
  next: "Connect the account again and create the job anew."
}

/**
 * An account's actor on this runner: its wake-ups, the fibers of its reads, and what it knows of its
 * queue. The owner is the only runner that starts the account's jobs, so after one look at the
 * database it keeps its writes in memory, and looks again only when told its queue changed.
 */
interface Actor {
  readonly accountId: string
  readonly mailbox: Queue.Queue<true>
  /** The fibers of its reads waiting for an instant (a budget's next day, say). */
  readonly fibers: FiberSet.FiberSet
  /** Its reads queued, running or waiting for an instant. */
  reads: number
  /** Its writes not started (queued or scheduled), oldest first, as last read. */
  writes: Array<JobRow>
  /** The queue changed since it was read (a new write, an approval, a cancellation). */
  stale: boolean
  /** Reads waiting for the account to change, with no end of their own. */
  readonly parked: Set<string>
  /** Whether its entity is kept in memory (it has open work). */
  kept: boolean
  /** What it read of its account for planning, and until when (real time, epoch ms) it goes by it. */
  facts: { readonly loaded: LoadedFacts; readonly until: number } | undefined
  /** One read of its facts at a time: its other reads wait for that one instead of reading the account again. */
  readonly reading: Semaphore.Semaphore
  /** How often the account changed (`changed`): facts read while it changed are not kept. */
  changes: number
  /** While it sleeps between its writes: until when (epoch ms on the Clock), null without an end; else undefined. */
  sleepingUntil: number | null | undefined
  /**
   * Its owner epoch of the account: the fencing token of its writes (`JobStore.takeAccount`). Undefined until it
   * first needs one, and again once this runner may have lost the account: taken anew before the next write.
   */
  epoch: number | undefined
  /** When (monotonic real time, ms) it took the account under `epoch`. */
  takenAt: number
  /** When (monotonic real time, ms) the lease rule lets it settle writes a previous owner left running; null: none wait. */
  settleAt: number | null
}


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
    const sql = yield* SqlClient.SqlClient
    const store = yield* JobStore
    const endings = yield* JobEndings
    const executor = yield* Executor
    const watch = yield* JobWatch
    const settings = yield* GovernorSettings

    /** The accounts whose actor lives here. */
    const actors = new Map<string, Actor>()
    /** Jobs a fiber of this process is running: any other running job of an account owned here is a dead process's. */
    const inFlight = new Set<string>()
    /** Actors with nothing to do, waiting for a message. */
    const waiting = { count: 0 }

    const fencing = yield* Fencing.make({
      onLoss: (lost) =>
        Effect.sync(() => {
          for (const actor of actors.values()) if (lost(actor.accountId)) actor.epoch = undefined
        })
    })
    /** A write left running by a previous owner is settled this long after its account was taken. */
    const settleAfterMs = fencing.deadlineMs + 1_000

    const aboutJob = (job: JobRow) => Effect.annotateLogs({ jobId: job.id, accountId: job.accountId, kind: job.kind })
    const log = (job: JobRow, message: string) => Effect.logWarning(message).pipe(aboutJob(job))

    const finish = (
      job: JobRow,
      ending: Ending,
      from: ReadonlyArray<JobStatus>,
      fence?: number | null
    ) =>
      Effect.gen(function*() {
        const done = yield* endings.finish(job, ending, from, fence)
        if (done !== undefined) {
          yield* watch.finished(job.id)
          yield* Effect.logInfo(`job ${done.status}`).pipe(aboutJob(job))
        }
      })

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
     * Takes the account for this actor's writes (a new owner epoch), while this runner's lease of its shard
     * holds; the epoch, or undefined when the lease does not hold.
     */
    const take = (actor: Actor) =>
      Effect.gen(function*() {
        if (actor.epoch !== undefined) return actor.epoch
        if (!(yield* fencing.holds(actor.accountId))) return undefined
        const epoch = yield* store.takeAccount(actor.accountId, runner)
        actor.takenAt = yield* Time.monotonicMs
        actor.epoch = epoch
        yield* Effect.logDebug(`took the account for its writes (epoch ${epoch})`)
        return epoch
      })

    const writeSlots = yield* WriteSlots.make(settings.writeConcurrency)

    /** When the account may write again after a write attempt: now plus a pacing gap. */
    const nextWriteAt = Effect.map(Effect.zip(Time.now, Random.next), ([now, draw]) => now.ms + pacingGap(draw))

    /** The endings of reads that gave their place in the read pool back (`start`), until recorded. */
    const readEndings = yield* FiberSet.make()
    /**
     * Reads whose endings wait for their batch, at most 8 times the pool's places (a batch ends up to 500): beyond
     * that a place waits for an ending to be recorded, so a slow database holds reads back rather than piling
     * their endings up in memory.
     */
    const endingsWaiting = yield* Semaphore.make(settings.readConcurrency * 8)

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
        // The permit, once taken, goes with the ending's fiber (no interruption in between to lose it).
        yield* Effect.uninterruptibleMask((restore) =>
          Effect.andThen(restore(endingsWaiting.take(1)), () => {
            handedOver = true
            return FiberSet.run(
              readEndings,
              Effect.ensuring(record, Effect.andThen(Effect.sync(() => inFlight.delete(job.id)), endingsWaiting.release(1)))
            )
          })
        )
        return true
      }).pipe(
        (run) => Effect.andThen(Effect.sync(() => inFlight.add(job.id)), run),
        Effect.ensuring(Effect.sync(() => handedOver || inFlight.delete(job.id))),
        (run) => job.isWrite ? writeSlots.run(Effect.uninterruptible(run)) : run,
        Effect.withSpan("Governor.start", { attributes: { jobId: job.id, kind: job.kind, accountId: job.accountId, runner } }, Spans.perJob)
      )
    }

    /** Waits for a wake-up, or until `until` (epoch ms on the Clock) when given. */
    const idle = (actor: Actor, until: number | null) =>
      Effect.gen(function*() {
        if (until === null) return yield* Queue.take(actor.mailbox)
        const now = yield* Time.now
        yield* Effect.raceFirst(Queue.take(actor.mailbox), Effect.sleep(Duration.millis(Math.max(0, until - now.ms))))
      })

    const failUnstarted = (job: JobRow, error: JobFailure) =>
      finish(job, { _tag: "Failed", error, writesNotBefore: null }, runnableStatuses)

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

    /**
     * The account's facts now: read from the database at most every `factsFor` (real time), or when the
     * account changed or its local day turned; in between, the actor counts its own jobs into them. The
     * account's reads that find them out of date together read them once (a burst's first reads would
     * otherwise each read the account).
     */
    const factsOf = (actor: Actor) =>
      Effect.flatMap(keptFacts(actor), (kept) =>
        kept !== undefined ? Effect.succeed(kept) : actor.reading.withPermits(1)(
          Effect.flatMap(keptFacts(actor), (again) => again !== undefined ? Effect.succeed(again) : readFacts(actor))
        ))

    /**
     * Plans a job that has not started from its account's state now. A refusal fails it and a wait is
     * recorded on it here; what is left to the caller is starting it, or sleeping until the wait's end.
     */
    const decide = (actor: Actor, job: JobRow) =>
      Effect.gen(function*() {
        const current = yield* factsOf(actor)
        if (current === undefined) {
          yield* failUnstarted(job, removed)
          return { _tag: "Done" } as const
        }
        const plan = planJob({
          nowMs: current.nowMs,
          job: { isWrite: job.isWrite, category: categoryOfJob(job.kind, job.input) },
          account: current.account
        })
        switch (plan._tag) {
          case "Run":
            return { _tag: "Run", row: current.row, nowMs: current.nowMs } as const
          case "Fail":
            yield* failUnstarted(job, plan.error)
            return { _tag: "Done" } as const
          case "Wait":
            yield* store.setWaiting(job.id, plan.reason, plan.until)
            return { _tag: "Wait", until: plan.until, nowMs: current.nowMs } as const
        }
      })

    /** Runs (or parks) one read of an account owned here; reads never queue behind writes. */
    const runRead = (actor: Actor, jobId: string, known: JobRow | undefined): Effect.Effect<void> =>
      Effect.gen(function*() {
        const job = known ?? (yield* store.byId(jobId))
        if (job === undefined || !runnableStatuses.includes(job.status)) return
        const decision = yield* decide(actor, job)
        if (decision._tag === "Run") return yield* Effect.asVoid(start(actor, job, decision.row))
        // A wait without an end lasts until the account changes (a `Changed` message retries it).
        if (decision._tag === "Wait" && decision.until === null) actor.parked.add(job.id)
        if (decision._tag === "Wait" && decision.until !== null) {
          const delay = Math.max(0, decision.until - decision.nowMs)
          yield* busyWith(actor, Effect.andThen(Effect.sleep(Duration.millis(delay)), submitRead(actor, job.id)))
        }
      }).pipe(Effect.catchCause((cause) => Effect.logError("read job crashed", cause)))

    /** The account changed: what the actor read of it, or is reading, is read again. */
    const forgetFacts = (actor: Actor) => {
      actor.facts = undefined
      actor.changes++
    }

    /** Tells an actor its queue changed: it looks at it again. */
    const wakeActor = (actor: Actor) =>
      Effect.suspend(() => {
        actor.stale = true
        return Effect.asVoid(Queue.offer(actor.mailbox, true))
      })

    /**
     * Ends a piece of an account's open work: the actor looks again when the account's last one is done (an
     * account with nothing left may leave memory), or while it does not keep the account in memory yet (it
     * keeps it while reads are open); not at every read of a burst.
     */
    const doneWith = (actor: Actor) =>
      Effect.suspend(() => --actor.reads === 0 || !actor.kept ? Effect.asVoid(Queue.offer(actor.mailbox, true)) : Effect.void)

    /** Runs `work` (a read's wait for its turn) in the account's scope, counted as the account's open work. */
    const busyWith = (actor: Actor, work: Effect.Effect<void>) =>
      Effect.suspend(() => {
        actor.reads++
        return Effect.asVoid(FiberSet.run(actor.fibers, work.pipe(Effect.ensuring(doneWith(actor)))))
      })

    const readPool = yield* ReadPool.make<Actor>({
      concurrency: settings.readConcurrency,
      run: (actor, jobId, known) => onServiceTime(runRead(actor, jobId, known)),
      stillHere: (actor) => actors.get(actor.accountId) === actor,
      running: (jobId) => inFlight.has(jobId),
      done: doneWith
    })
    const submitRead = readPool.submit

    /** Gives these reads of the account (not started yet) a run: at activation, and when the account changed. */
    const retryReads = (actor: Actor, reads: ReadonlyArray<JobRow>) =>
      Effect.forEach(reads, (job) => {
        actor.parked.delete(job.id)
        return submitRead(actor, job.id, job)
      }, { discard: true })

    const isOpenRead = (job: JobRow) => !job.isWrite && runnableStatuses.includes(job.status)

    /**
     * A write a previous owner left running (a dead process, a runner that lost the account, or this one before it
     * took the account anew), once the lease rule allows: settled by what the network knows of it, asked as the
     * owner of epoch `epoch`, never sent twice. Each ending is guarded by the fence the job was read with.
     */
    const settleWrite = (job: JobRow, epoch: number) =>
      Effect.gen(function*() {
        const recovery = yield* executor.recover(job, epoch)
        switch (recovery._tag) {
          case "Completed": {
            yield* finish(job, { ...recovery, writesNotBefore: yield* nextWriteAt }, ["running"], job.fence)
            return yield* log(job, "write left running by a previous owner had reached the network: completed with its result")
          }
          case "Failed": {
            yield* finish(job, { _tag: "Failed", error: recovery.error, writesNotBefore: yield* nextWriteAt }, ["running"], job.fence)
            return yield* log(job, "write left running by a previous owner had been refused by the network: failed with its error, not sent again")
          }
          case "NotReached":
            yield* store.requeue(job.id, job.fence)
            return yield* log(job, "write left running by a previous owner had not reached the network: queued again")
          case "Unknown":
            yield* finish(job, { _tag: "Failed", error: interrupted, writesNotBefore: null }, ["running"], job.fence)
            return yield* log(job, "write left running by a previous owner: the network cannot tell whether it went out, so it failed")
        }
      })

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
        let settled = 0
        /** When (monotonic ms) to look again for the writes left running that could not be settled yet. */
        let settleAt: number | null = null
        const later = (at: number) => settleAt = settleAt === null ? at : Math.min(settleAt, at)
        for (const job of left) {
          if (!job.isWrite) {
            yield* store.requeue(job.id)
            yield* log(job, "read left running by a dead process: queued again")
            yield* submitRead(actor, job.id)
            settled++
            continue
          }
          // This actor's own attempt whose ending it could not record: the account is taken anew first.
          if (actor.epoch !== undefined && job.fence === actor.epoch) actor.epoch = undefined
          const epoch = yield* take(actor)
          const now = yield* Time.monotonicMs
          if (epoch === undefined || (job.fence !== null && job.fence > epoch)) {
            // This runner's lease does not hold, or a newer owner wrote: nothing to settle here.
            actor.epoch = undefined
            later(now + 1_000)
            continue
          }
          // The lease rule: the previous owner's lease lapsed before this one took the account; its call, cut off
          // at its deadline, has then been over for a whole deadline more.
          if (now < actor.takenAt + settleAfterMs) {
            later(actor.takenAt + settleAfterMs)
            continue
          }
          yield* settleWrite(job, epoch)
          settled++
        }
        if (left.some((job) => job.isWrite)) actor.stale = true
        actor.settleAt = settleAt
        return { reads: open.filter(isOpenRead), settled, settleAt }
      })

    /** The job as the actor keeps it once a wait is recorded on it (`JobStore.setWaiting`). */
    const waitingAs = (job: JobRow, reason: WaitReason, until: number | null): JobRow => {
      const at = until === null ? null : Time.toIso(until)
      return { ...job, status: until === null ? "queued" : "scheduled", eta: at, waitingReason: reason, waitingUntil: at }
    }

    /** Keeps the account's entity in memory (`open`), or lets it leave once idle. */
    const keepAlive = (actor: Actor, open: boolean) =>
      Effect.gen(function*() {
        if (open === actor.kept) return
        actor.kept = open
        yield* Entity.keepAlive(open)
      })

    const leaveMemoryAfterMs = Duration.toMillis(settings.leaveMemoryAfter)

    /**
     * Before the actor sleeps on a wait of its writes: an account whose wait is long (or lasts until the account
     * changes), with no read of its own in hand, may leave memory; its wake-up is the wait's end already recorded
     * on its jobs. The writes behind the one that waits are shown waiting behind it first, so that none of them
     * reads as never looked at, or as due at an instant already past, while the account is out of memory.
     */
    const rest = (actor: Actor, choice: Extract<Choice, { _tag: "Wait" }>, shown: ReadonlySet<number>, nowMs: number) =>
      Effect.gen(function*() {
        const leaves = actor.reads === 0 && (choice.until === null || choice.until - nowMs >= leaveMemoryAfterMs)
        if (!leaves) return yield* keepAlive(actor, true)
        const behind = actor.writes.filter((job, index) =>
          !shown.has(index) &&
          (job.waitingReason === null || (job.waitingUntil !== null && Date.parse(job.waitingUntil) <= nowMs))
        )
        yield* store.markBehind(behind.map((job) => job.id))
        const marked = new Set(behind.map((job) => job.id))
        actor.writes = actor.writes.map((job) => marked.has(job.id) ? waitingAs(job, "queue", null) : job)
        yield* keepAlive(actor, false)
      })

    /**
     * Records the waits `chooseWrite` found for the account's writes: the one that meets a wait of the whole
     * account, and each that waits for its own category's budget. Those following them keep what they showed
     * (`queue` when never looked at). A wait already recorded is not written again. Answers the indexes of the
     * writes whose wait it shows.
     */
    const recordWaits = (actor: Actor, choice: Choice) =>
      Effect.gen(function*() {
        const waits = choice.held.filter((write) => write.direct)
        const shown = choice._tag === "Wait" && choice.index !== null
          ? [...waits, { index: choice.index, reason: choice.reason, until: choice.until }]
          : waits
        const indexes = new Set<number>()
        for (const { index, reason, until } of shown) {
          const job = actor.writes[index]
          const recorded = job.waitingUntil === null ? null : Date.parse(job.waitingUntil)
          indexes.add(index)
          if (job.waitingReason === reason && recorded === until) continue
          yield* store.setWaiting(job.id, reason, until)
          actor.writes[index] = waitingAs(job, reason, until)
        }
        return indexes
      })

    /** Takes a write out of the actor's queue (it started or finished). */
    const dropWrite = (actor: Actor, job: JobRow) => {
      actor.writes = actor.writes.filter((write) => write.id !== job.id)
    }

    /** Waits like `idle`, showing until when (`sleepingUntil`). */
    const sleep = (actor: Actor, until: number | null) =>
      Effect.suspend(() => {
        actor.sleepingUntil = until
        return idle(actor, until)
      }).pipe(Effect.ensuring(Effect.sync(() => actor.sleepingUntil = undefined)))

    /**
     * Waits for a message, or in real time until `at` (monotonic ms; a second when null, at most ten): a write
     * left running by a previous owner is settled then.
     */
    const lookAgainAt = (actor: Actor, at: number | null) =>
      Effect.gen(function*() {
        const now = yield* Time.monotonicMs
        const wait = at === null ? 1_000 : Math.min(10_000, Math.max(50, at - now))
        yield* Effect.raceFirst(Queue.take(actor.mailbox), Time.liveSleep(Duration.millis(wait)))
      })

    /**
     * One look at the account's write queue: `chooseWrite` names the write to act on (the oldest, unless it
     * waits for its category's budget); then waits as long as there is nothing to do.
     */
    const step = (actor: Actor) =>
      Effect.gen(function*() {
        if (actor.stale) yield* look(actor)
        if (actor.writes.length === 0) {
          yield* keepAlive(actor, actor.parked.size > 0 || actor.reads > 0)
          // With nothing queued, a write a previous owner left running still wakes it when the lease rule allows.
          if (actor.settleAt !== null) return yield* lookAgainAt(actor, actor.settleAt)
          waiting.count++
          return yield* sleep(actor, null).pipe(Effect.ensuring(Effect.sync(() => waiting.count--)))
        }
        const current = yield* factsOf(actor)
        if (current === undefined) {
          const [job] = actor.writes
          yield* failUnstarted(job, removed)
          return dropWrite(actor, job)
        }
        const choice = chooseWrite(actor.writes.map(queuedWriteOf), current.account, current.nowMs)
        const shown = yield* recordWaits(actor, choice)
        switch (choice._tag) {
          case "Run": {
            yield* keepAlive(actor, true)
            const job = actor.writes[choice.index]
            // A write is started only while this runner's lease of the account holds, under its owner epoch.
            const holds = (yield* fencing.holds(actor.accountId)) && (yield* take(actor)) !== undefined
            if (holds && (yield* start(actor, job, current.row))) return dropWrite(actor, job)
            // The write slot is taken by a write no fiber here runs (a previous owner's): settle it, then look again.
            const looked = yield* look(actor)
            if (looked.settled > 0) return
            // Or the lease rule holds it back, the lease does not hold, or the pacing gate moved: look again then.
            return yield* lookAgainAt(actor, looked.settleAt)
          }
          case "Fail": {
            const job = actor.writes[choice.index]
            yield* failUnstarted(job, choice.error)
            return dropWrite(actor, job)
          }
          case "Wait":
            yield* rest(actor, choice, shown, current.nowMs)
            return yield* sleep(actor, choice.until)
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

    /** Gives the account's open reads (not started yet) a run: when the account changed, or its message was lost. */
    const retryOpenReads = (actor: Actor) =>
      Effect.flatMap(store.openOf(actor.accountId), (open) => retryReads(actor, open.filter(isOpenRead)))

    /**
     * Brings the account's actor to life on this runner, in the caller's scope (its entity's): it stops, and
     * leaves `actors`, when the scope closes.
     */
    const activate = (accountId: string) =>
      Effect.gen(function*() {
        const actor: Actor = {
          accountId,
          mailbox: yield* Queue.sliding<true>(1),
          fibers: yield* FiberSet.make(),
          reads: 0,
          writes: [],
          stale: false,
          parked: new Set(),
          kept: false,
          facts: undefined,
          reading: yield* Semaphore.make(1),
          changes: 0,
          sleepingUntil: undefined,
          epoch: undefined,
          takenAt: 0,
          settleAt: null
        }
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
        inFlight.has(jobId) || readPool.starting(jobId) || actors.get(accountId)?.writes.some((write) => write.id === jobId) === true,
      /** Actors with nothing to do, waiting for a message. */
      waiting: Effect.sync(() => waiting.count),
      writesWaiting: writeSlots.waiting
    }
  })
