/**
 * How an account's actor (`AccountActor.ts`) waits between its writes: sleeping on the `Clock` until a wait's
 * end or a wake-up, recording on its jobs what they wait for, and keeping its entity in memory while it has open
 * work or a short wait (`Entity.keepAlive`), letting it leave once idle otherwise.
 */
import { Duration, Effect, Queue } from "effect"
import { Entity } from "effect/cluster"
import type { WaitReason } from "../domain/Job.ts"
import * as Time from "../domain/Time.ts"
import type { ActorContext } from "./ActorContext.ts"
import type { Actor } from "./ActorState.ts"
import type { JobRow } from "./JobRow.ts"
import type { Choice } from "./Plan.ts"

/** Waits for a wake-up, or until `until` (epoch ms on the Clock) when given. */
const idle = (actor: Actor, until: number | null) =>
  Effect.gen(function*() {
    if (until === null) return yield* Queue.take(actor.mailbox)
    const now = yield* Time.now
    yield* Effect.raceFirst(Queue.take(actor.mailbox), Effect.sleep(Duration.millis(Math.max(0, until - now.ms))))
  })

/** Waits like `idle`, showing until when (`sleepingUntil`). */
export const sleep = (actor: Actor, until: number | null) =>
  Effect.suspend(() => {
    actor.sleepingUntil = until
    return idle(actor, until)
  }).pipe(Effect.ensuring(Effect.sync(() => actor.sleepingUntil = undefined)))

/**
 * Waits for a message, or in real time until `at` (monotonic ms; a second when null, at most ten): a write
 * left running by a previous owner is settled then.
 */
export const lookAgainAt = (actor: Actor, at: number | null) =>
  Effect.gen(function*() {
    const now = yield* Time.monotonicMs
    const wait = at === null ? 1_000 : Math.min(10_000, Math.max(50, at - now))
    yield* Effect.raceFirst(Queue.take(actor.mailbox), Time.liveSleep(Duration.millis(wait)))
  })

/** The job as the actor keeps it once a wait is recorded on it (`JobStore.setWaiting`). */
const waitingAs = (job: JobRow, reason: WaitReason, until: number | null): JobRow => {
  const at = until === null ? null : Time.toIso(until)
  return { ...job, status: until === null ? "queued" : "scheduled", eta: at, waitingReason: reason, waitingUntil: at }
}

/** Keeps the account's entity in memory (`open`), or lets it leave once idle. */
export const keepAlive = (actor: Actor, open: boolean) =>
  Effect.gen(function*() {
    if (open === actor.kept) return
    actor.kept = open
    yield* Entity.keepAlive(open)
  })

/** The waits of the actors of one runner that it records on their jobs. */
export const make = ({ settings, store }: Pick<ActorContext, "settings" | "store">) => {
  const leaveMemoryAfterMs = Duration.toMillis(settings.leaveMemoryAfter)

  return {
    /**
     * Before the actor sleeps on a wait of its writes: an account whose wait is long (or lasts until the account
     * changes), with no read of its own in hand, may leave memory; its wake-up is the wait's end already recorded
     * on its jobs. The writes behind the one that waits are shown waiting behind it first, so that none of them
     * reads as never looked at, or as due at an instant already past, while the account is out of memory.
     */
    rest: (actor: Actor, choice: Extract<Choice, { _tag: "Wait" }>, shown: ReadonlySet<number>, nowMs: number) =>
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
      }),

    /**
     * Records the waits `chooseWrite` found for the account's writes: the one that meets a wait of the whole
     * account, and each that waits for its own category's budget. Those following them keep what they showed
     * (`queue` when never looked at). A wait already recorded is not written again. Answers the indexes of the
     * writes whose wait it shows.
     */
    recordWaits: (actor: Actor, choice: Choice) =>
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
  }
}
