/**
 * The Governor: one supervised fiber per account that runs its writes one at
 * a time, in order, inside working hours, budgets, warm-up, health and
 * pacing; reads run beside it without waiting for the writes.
 *
 * The work itself lives in PostgreSQL (the `jobs` table is the durable queue);
 * each account's fiber has a bounded mailbox of wake-ups (a new job, an
 * approval, a change to the account). It looks at the head of the account's
 * queue, asks `planJob` whether it may run now, and either starts it
 * (recording the attempt first, so a crash never runs a write twice), fails
 * it, or records why it waits and sleeps on the `Clock` until then or until
 * woken. After a restart every account with open work gets its fiber back;
 * a job left `running` by a dead process is reconciled: a read runs again; a
 * write is settled by asking the network driver whether it happened
 * (`outcomeOf`): completed with its result if it did, run again if it surely
 * did not, and failed as `interrupted` only when the driver cannot tell.
 *
 * @since 1.0.0
 */
import { Context, Duration, Effect, FiberMap, FiberSet, Layer, PubSub, Queue, Random, Semaphore } from "effect"
import { SqlClient } from "effect/sql"
import { AccountChanges } from "../accounts/AccountChanges.ts"
import { type JobFailure, runnableStatuses } from "../domain/Job.ts"
import * as Time from "../domain/Time.ts"
import { accountFacts, type PlanRow } from "./AccountFacts.ts"
import { ApprovalStore } from "./ApprovalStore.ts"
import { categoryOfJob, Executor } from "./Executor.ts"
import type { JobRow } from "./JobRow.ts"
import { JobStore } from "./JobStore.ts"
import { JobWatch } from "./JobWatch.ts"
import { pacingGap, planJob } from "./Plan.ts"

/** Tuning of the Governor; override with `Layer.succeed(GovernorSettings, {...})`. */
export interface GovernorSettings {
  /** Reads running at once, over all accounts. */
  readonly readConcurrency: number
  /** A job still `running` this long after its attempt started belongs to a dead process. */
  readonly staleAfter: Duration.Duration
  /** Wake-ups an account's mailbox holds (more are merged: the queue is in the database). */
  readonly mailbox: number
}

export const GovernorSettings = Context.Reference<GovernorSettings>("outreach/GovernorSettings", {
  defaultValue: () => ({ readConcurrency: 16, staleAfter: Duration.minutes(2), mailbox: 1 })
})

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

export class Governor extends Context.Service<Governor, {
  /** Hands a just-created job to its account (after it is committed). */
  readonly submit: (job: JobRow) => Effect.Effect<void>
  /** Makes the account look at its queue again now (an approval, a cancellation). */
  readonly wake: (accountId: string) => Effect.Effect<void>
  /** Accounts with a running fiber. */
  readonly actors: Effect.Effect<number>
}>()("outreach/Governor") {
  /** The Governor, running for the layer's lifetime; needs the job stores, executor, watch and account changes. */
  static readonly layerNoDeps = Layer.effect(
    Governor,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const store = yield* JobStore
      const approvals = yield* ApprovalStore
      const executor = yield* Executor
      const watch = yield* JobWatch
      const changes = yield* AccountChanges
      const settings = yield* GovernorSettings

      const mailboxes = new Map<string, Queue.Queue<true>>()
      const actors = yield* FiberMap.make<string>()
      const reads = yield* FiberSet.make()
      const readPermits = yield* Semaphore.make(settings.readConcurrency)
      const readsInFlight = new Set<string>()
      const approvalWake = yield* Queue.sliding<true>(1)

      const facts = (accountId: string) => accountFacts(sql, accountId)

      const finish = (job: JobRow, ending: Parameters<typeof store.finish>[1], from: Parameters<typeof store.finish>[2]) =>
        Effect.gen(function*() {
          const done = yield* store.finish(job, ending, from)
          if (done !== undefined) {
            yield* watch.finished(job.id)
            yield* Effect.logInfo(`job ${done.status}`).pipe(
              Effect.annotateLogs({ jobId: job.id, accountId: job.accountId, kind: job.kind })
            )
          }
        })

      /** When the account may write again after a write attempt: now plus a pacing gap. */
      const nextWriteAt = Effect.map(Effect.zip(Time.now, Random.next), ([now, draw]) => now.ms + pacingGap(draw))

      /** Starts a job the plan let through, runs it, records the ending. */
      const start = (job: JobRow, row: PlanRow) =>
        Effect.gen(function*() {
          if (!(yield* store.claim(job))) return false
          const outcome = yield* executor.run(job, row)
          // Every write that was attempted spaces the next one, whatever its outcome.
          const writesNotBefore = job.isWrite ? yield* nextWriteAt : null
          yield* finish(
            job,
            outcome._tag === "Completed"
              ? { _tag: "Completed", result: outcome.result, spend: outcome.spend, writesNotBefore }
              : { _tag: "Failed", error: outcome.error, writesNotBefore },
            ["running"]
          )
          return true
        })

      /** Waits for a wake-up, or until `until` (epoch ms on the Clock) when given. */
      const idle = (mailbox: Queue.Queue<true>, until: number | null) =>
        Effect.gen(function*() {
          if (until === null) return yield* Queue.take(mailbox)
          const now = yield* Time.now
          yield* Effect.raceFirst(Queue.take(mailbox), Effect.sleep(Duration.millis(Math.max(0, until - now.ms))))
        })

      const failUnstarted = (job: JobRow, error: JobFailure) =>
        finish(job, { _tag: "Failed", error, writesNotBefore: null }, runnableStatuses)

      /**
       * Plans a job that has not started from its account's state now. A refusal fails it and a wait is
       * recorded on it here; what is left to the caller is starting it, or sleeping until the wait's end.
       */
      const decide = (job: JobRow) =>
        Effect.gen(function*() {
          const current = yield* facts(job.accountId)
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

      /** One look at the head of the account's write queue; then waits as long as there is nothing to do. */
      const step = (accountId: string, mailbox: Queue.Queue<true>) =>
        Effect.gen(function*() {
          const job = yield* store.headWrite(accountId)
          if (job === undefined) return yield* idle(mailbox, null)
          const decision = yield* decide(job)
          switch (decision._tag) {
            case "Run": {
              if (yield* start(job, decision.row)) return
              // Another server holds the account's write slot or its pacing gate: look again shortly.
              return yield* idle(mailbox, decision.nowMs + 5_000)
            }
            case "Wait":
              return yield* idle(mailbox, decision.until)
            case "Done":
              return
          }
        })

      const actorLoop = (accountId: string, mailbox: Queue.Queue<true>) =>
        step(accountId, mailbox).pipe(
          // Supervision: a crash is logged and the account's fiber goes on a little later.
          Effect.catchCause((cause) =>
            Effect.logError("governor step crashed; retrying in 5 seconds", cause).pipe(
              Effect.andThen(Effect.sleep(Duration.seconds(5)))
            )
          ),
          Effect.forever,
          Effect.annotateLogs({ accountId })
        )

      /** Wakes the account's actor, or starts it: a new actor looks at its queue first thing, so it needs no wake-up. */
      const wakeActor = (accountId: string) =>
        Effect.gen(function*() {
          const existing = mailboxes.get(accountId)
          if (existing !== undefined) return yield* Effect.asVoid(Queue.offer(existing, true))
          const mailbox = yield* Queue.sliding<true>(settings.mailbox)
          mailboxes.set(accountId, mailbox)
          yield* FiberMap.run(actors, accountId, actorLoop(accountId, mailbox))
        })

      /** Runs (or parks) one read; reads never queue behind writes. */
      const runRead = (jobId: string): Effect.Effect<void> =>
        Effect.gen(function*() {
          const job = yield* store.byId(jobId)
          if (job === undefined || !runnableStatuses.includes(job.status)) return
          const decision = yield* decide(job)
          if (decision._tag === "Run") return yield* Effect.asVoid(start(job, decision.row))
          // A wait without an end lasts until the account changes (AccountChanges wakes it).
          if (decision._tag === "Wait" && decision.until !== null) {
            const delay = Math.max(0, decision.until - decision.nowMs)
            yield* FiberSet.run(reads, Effect.andThen(Effect.sleep(Duration.millis(delay)), submitRead(job.id)))
          }
        }).pipe(
          Semaphore.withPermits(readPermits, 1),
          Effect.catchCause((cause) => Effect.logError("read job crashed", cause)),
          Effect.ensuring(Effect.sync(() => readsInFlight.delete(jobId)))
        )

      const submitRead = (jobId: string): Effect.Effect<void> =>
        Effect.suspend(() => {
          if (readsInFlight.has(jobId)) return Effect.void
          readsInFlight.add(jobId)
          return Effect.asVoid(FiberSet.run(reads, runRead(jobId)))
        })

      const submit = (job: JobRow) => job.isWrite ? wakeActor(job.accountId) : submitRead(job.id)

      /** The account changed: its writes are looked at again, and its parked reads retried. */
      const accountChanged = (accountId: string) =>
        Effect.gen(function*() {
          if (mailboxes.has(accountId)) yield* wakeActor(accountId)
          const parked = yield* store.openReads(accountId)
          yield* Effect.forEach(parked, (job) => submitRead(job.id), { discard: true })
        })

      /** A write a dead process left running: settled by what the network knows of it, never sent twice. */
      const settleWrite = (job: JobRow) =>
        Effect.gen(function*() {
          const recovery = yield* executor.recover(job)
          const log = (message: string) =>
            Effect.logWarning(message).pipe(Effect.annotateLogs({ jobId: job.id, accountId: job.accountId, kind: job.kind }))
          switch (recovery._tag) {
            case "Completed": {
              yield* finish(job, { ...recovery, writesNotBefore: yield* nextWriteAt }, ["running"])
              return yield* log("write left running by a restart had reached the network: completed with its result")
            }
            case "NotReached":
              yield* store.requeue(job.id)
              return yield* log("write left running by a restart had not reached the network: queued again")
            case "Unknown":
              yield* finish(job, { _tag: "Failed", error: interrupted, writesNotBefore: null }, ["running"])
              return yield* log("write left running by a restart: the network cannot tell whether it went out, so it failed")
          }
        })

      /** Jobs left running by a dead process: reads go back in the queue, writes are settled by the network's word. */
      const reconcile = Effect.gen(function*() {
        const now = yield* Time.now
        const stale = yield* store.staleRunning(now.ms - Duration.toMillis(settings.staleAfter))
        for (const job of stale) {
          if (job.isWrite) {
            yield* settleWrite(job)
          } else {
            yield* store.requeue(job.id)
            yield* submitRead(job.id)
          }
          yield* wakeActor(job.accountId)
        }
        return stale.length
      })

      /**
       * Expires approvals as their 72 hours end: sleeps on the Clock until the next one is due, or until one
       * is created here, or a minute of real time passes (approvals created by other servers).
       */
      const expiryLoop = Effect.gen(function*() {
        const expired = yield* approvals.expireDue
        if (expired > 0) yield* Effect.logInfo(`expired ${expired} approvals`)
        const next = yield* approvals.nextExpiry
        const now = yield* Time.now
        const dueSleep = next === null ? Effect.never : Effect.sleep(Duration.millis(Math.max(0, next - now.ms)))
        yield* Effect.raceAll([Queue.take(approvalWake), dueSleep, Time.liveSleep(Duration.minutes(1))])
      })

      // Start-up: reconcile, then give every account with open work its fiber and every open read a run.
      const stale = yield* reconcile
      const open = yield* store.accountsWithOpenWork
      yield* Effect.forEach(open, wakeActor, { discard: true })
      const openReads = yield* store.openReads()
      yield* Effect.forEach(openReads, (job) => submitRead(job.id), { discard: true })
      if (open.length > 0 || stale > 0) {
        yield* Effect.logInfo("governor resumed").pipe(
          Effect.annotateLogs({ accounts: open.length, reads: openReads.length, reconciled: stale })
        )
      }
      // Jobs still running now may belong to a live server: look once more when they would be stale.
      yield* Effect.sleep(settings.staleAfter).pipe(Effect.andThen(reconcile), Effect.forkScoped)

      const subscription = yield* changes.subscribe
      yield* PubSub.take(subscription).pipe(
        Effect.flatMap(accountChanged),
        Effect.catchCause((cause) => Effect.logError("governor could not follow an account change", cause)),
        Effect.forever,
        Effect.forkScoped
      )
      yield* expiryLoop.pipe(
        Effect.catchCause((cause) => Effect.logError("approval expiry failed", cause)),
        Effect.forever,
        Effect.forkScoped
      )

      return Governor.of({
        submit: (job) =>
          job.status === "awaiting_approval"
            ? Queue.offer(approvalWake, true).pipe(Effect.asVoid)
            : submit(job),
        wake: wakeActor,
        actors: Effect.sync(() => mailboxes.size)
      })
    })
  )
}
