/**
 * Fenced writes (issue #29): how the owner of an account lets one of its
 * writes reach the network, and what it does when it may have lost the
 * account.
 *
 * - Every write attempt carries a fencing token, the account's owner epoch
 *   (`JobStore.takeAccount`), which only grows. The attempt is recorded in
 *   PostgreSQL with it right before the driver call, and the record is refused
 *   once a newer owner exists; the token goes to the driver too, so a network
 *   with conditional requests refuses a stale attempt itself.
 * - Right before the call, the runner's lease of the account's shard
 *   (`platform/Leases.ts`) must outlast what is left of the write's deadline
 *   (`writeDeadline`, counted from the record's send); otherwise the write is
 *   given up without calling. The call is cut off at the deadline.
 * - When the runner finds it may have lost shards (a lock refresh that no longer
 *   holds them, a pause, a clock jump), every call still in flight on them is
 *   interrupted before anything else; its job stays running, and is settled by
 *   whoever owns the account next, once the lease rule allows it.
 * - When the database fails around a commit, the answer is found out before
 *   acting again: `durably` retries a guarded (idempotent) statement while the
 *   lease holds.
 */
import { Cause, Duration, Effect, Exit, Fiber, Option, Stream } from "effect"
import { EntityId, Sharding } from "effect/cluster"
import * as Time from "../domain/Time.ts"
import type { NetworkError } from "../network/NetworkErrors.ts"
import { type LeaseLoss, ShardLeases } from "../platform/Leases.ts"
import { GaveUp, Unanswered, type WriteGate } from "./Executor.ts"
import type { JobRow } from "./JobRow.ts"
import { JobStore } from "./JobStore.ts"
import { GovernorSettings } from "./GovernorSettings.ts"

/** What a runner's writes need of its fencing; built once per Governor. */
export const make = (options: {
  /** Told after the calls on the lost shards were stopped: the actors of those accounts take them again before writing. */
  readonly onLoss: (lost: (accountId: string) => boolean) => Effect.Effect<void>
}) =>
  Effect.gen(function*() {
    const leases = yield* ShardLeases
    const store = yield* JobStore
    const settings = yield* GovernorSettings
    const sharding = yield* Sharding.Sharding
    const scope = yield* Effect.scope
    const deadlineMs = Duration.toMillis(settings.writeDeadline)
    /** Driver calls in flight, with the shard of their account. */
    const sending = new Map<Fiber.Fiber<unknown, unknown>, string>()

    const shardOf = (accountId: string) => sharding.getShardId(EntityId.make(accountId), "default")
    const leaseLeft = (accountId: string) => leases.remaining(shardOf(accountId))
    /** Whether a write of the account may start now: the lease outlasts a whole deadline. */
    const holds = (accountId: string) => Effect.map(leaseLeft(accountId), (left) => left > deadlineMs)

    const covers = (loss: LeaseLoss) => (shard: string) => loss.shards === "all" || loss.shards.has(shard)

    yield* leases.losses.pipe(
      Stream.runForEach((loss) =>
        Effect.gen(function*() {
          const lost = covers(loss)
          // First of all: stop every call that may still reach the network on a lost shard.
          const stopping = [...sending].filter(([, shard]) => lost(shard)).map(([fiber]) => fiber)
          yield* Fiber.interruptAll(stopping)
          yield* options.onLoss((accountId) => lost(String(shardOf(accountId))))
          yield* Effect.logError(`lease lost: stopped ${stopping.length} write calls in flight; their accounts' owners settle them`)
        })
      ),
      Effect.forkScoped
    )

    /**
     * Runs `attempt` until it succeeds, every half second while the account's lease still holds: a statement
     * whose commit's answer was lost is guarded so that running it again finds out what was committed.
     * None when the lease ended first (the account's next owner settles what is left).
     */
    const durably = <A>(accountId: string, attempt: Effect.Effect<A>): Effect.Effect<Option.Option<A>> =>
      Effect.gen(function*() {
        while (true) {
          const exit = yield* Effect.exit(attempt)
          if (Exit.isSuccess(exit)) return Option.some(exit.value)
          if ((yield* leaseLeft(accountId)) <= 0) {
            yield* Effect.logWarning("the database did not answer while the lease held; leaving it to the account's next owner", exit.cause)
            return Option.none()
          }
          yield* Time.liveSleep(Duration.millis(500))
        }
      })

    /** The gate of one attempt of `job`, as the owner of epoch `fence`. */
    const gate = (job: JobRow, fence: number): WriteGate => ({
      fence,
      send: <A>(call: Effect.Effect<A, NetworkError>) =>
        Effect.gen(function*() {
          const sentAt = yield* Time.monotonicMs
          const deadlineAt = sentAt + deadlineMs
          const attempt = job.attempt + 1
          // The attempt's record, found out again if its commit's answer is lost; none once the deadline passed.
          const recorded = yield* durably(
            job.accountId,
            Effect.flatMap(Time.monotonicMs, (now) =>
              now >= deadlineAt ? Effect.succeed(false) : store.recordAttempt(job, fence, attempt))
          )
          if (Option.isNone(recorded) || !recorded.value) {
            return yield* new GaveUp({ reason: "its attempt could not be recorded under this owner's token (a newer owner exists, or the database did not answer in time)" })
          }
          const now = yield* Time.monotonicMs
          const left = deadlineAt - now
          const lease = yield* leaseLeft(job.accountId)
          if (left <= 0 || lease <= left) {
            return yield* new GaveUp({ reason: `the lease of its account's shard has ${Math.round(lease)} ms left, not more than the ${Math.max(0, Math.round(left))} ms its deadline has` })
          }
          // Cut off at the deadline in real time (the call itself runs on the service's clock).
          const bounded = Effect.raceFirst(Effect.map(call, Option.some), Effect.as(Time.liveSleep(Duration.millis(left)), Option.none()))
          const fiber = yield* Effect.forkIn(Effect.interruptible(bounded), scope)
          sending.set(fiber, String(shardOf(job.accountId)))
          const exit = yield* Fiber.await(fiber).pipe(Effect.ensuring(Effect.sync(() => sending.delete(fiber))))
          if (Exit.isSuccess(exit)) {
            if (Option.isSome(exit.value)) return exit.value.value
            return yield* new Unanswered({ reason: `the network did not answer within its ${deadlineMs} ms deadline` })
          }
          if (!Cause.hasInterruptsOnly(exit.cause)) return yield* Effect.failCause(exit.cause)
          return yield* new Unanswered({ reason: "its call was stopped: this runner lost its lease" })
        })
    })

    return { holds, durably, gate, deadlineMs }
  })
