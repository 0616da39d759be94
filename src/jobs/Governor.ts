/**
 * The Governor: one actor per account ({@link AccountActor}) that runs its writes one at a time, in
 * order, inside working hours, budgets, warm-up, health and pacing. Reads run beside it without
 * waiting for the writes.
 *
 * Each account is an `effect/cluster` entity ({@link AccountEntity}), so
 * exactly one runner of the cluster owns it, and its actor lives there, in the
 * entity's scope. Any server hands it work by an entity message; the work itself
 * lives in PostgreSQL (the `jobs` table is the durable queue). The Governor is
 * that wiring: it registers the entity, sends its messages (or hands the work
 * straight to an actor living in this process), brings the accounts of this
 * runner's shards with work due into memory ({@link Takeover}), wakes those whose
 * message was lost, and tells what lives here.
 */
import { Clock, Context, Effect, FiberSet, Layer, Option } from "effect"
import { Entity, EntityId, Sharding, ShardingConfig } from "effect/cluster"
import { AccountChanges } from "../accounts/AccountChanges.ts"
import * as Time from "../domain/Time.ts"
import { channels, Notices } from "../platform/Notices.ts"
import * as Spans from "../platform/Spans.ts"
import * as AccountActor from "./AccountActor.ts"
import { AccountEntity } from "./AccountEntity.ts"
import { Executor } from "./Executor.ts"
import type { JobRow } from "./JobRow.ts"
import { JobEndings } from "./Endings.ts"
import { JobStore } from "./JobStore.ts"
import { GovernorSettings } from "./GovernorSettings.ts"
import { JobWatch } from "./JobWatch.ts"
import * as MemoryReport from "./MemoryReport.ts"
import * as Takeover from "./Takeover.ts"

export class Governor extends Context.Service<Governor, {
  /** Hands a just-created job to its account's owner (after it is committed). */
  readonly submit: (job: JobRow) => Effect.Effect<void>
  /** Makes the account look at its queue again now (an approval, a cancellation). */
  readonly wake: (accountId: string) => Effect.Effect<void>
  /** Accounts whose actor lives on this runner. */
  readonly actors: Effect.Effect<number>
  /** Whether the account's actor is in memory on this runner. */
  readonly resident: (accountId: string) => Effect.Effect<boolean>
  /** Writes of this runner's accounts that wait for a write slot (`GovernorSettings.writeConcurrency`). */
  readonly writesWaiting: Effect.Effect<number>
  /** Of those, the actors with nothing to do, waiting for a message. */
  readonly waiting: Effect.Effect<number>
  /**
   * Until when the account's actor (when it lives here) sleeps between writes: epoch ms on the Clock, null
   * without an end, undefined when it is not asleep (acting, or not here). Lets a test move a test clock to
   * exactly the Governor's next look.
   */
  readonly sleepingUntil: (accountId: string) => Effect.Effect<number | null | undefined>
}>()("outreach/Governor") {
  /**
   * The Governor, running for the layer's lifetime; needs the cluster's `Sharding`, `Notices`, the job stores,
   * executor, watch and account changes.
   */
  static readonly layerNoDeps = Layer.effect(
    Governor,
    Effect.gen(function*() {
      const store = yield* JobStore
      const changes = yield* AccountChanges
      const settings = yield* GovernorSettings
      const sharding = yield* Sharding.Sharding
      const cluster = yield* ShardingConfig.ShardingConfig
      const runner = Option.match(cluster.runnerAddress, { onNone: () => "client", onSome: (address) => `${address.host}:${address.port}` })
      const client = yield* AccountEntity.client
      /**
       * A message to the account's owner, sent on real time. The cluster retries a send its routing refused
       * (a shard moving between runners, as when servers start together) after `sendRetryInterval` on the
       * caller's Clock: on the sandbox's test clock that retry, and the caller with it, waited until the clock
       * next moved.
       */
      const tell = <A, E>(accountId: string, message: (account: ReturnType<typeof client>) => Effect.Effect<A, E>) =>
        Time.onRealTime(message(client(accountId)))
      // The cluster runs its entities on real time; the accounts live on the service's (the sandbox's test clock).
      const serviceClock = yield* Clock.Clock
      const onServiceTime = Effect.provideService(Clock.Clock, serviceClock)

      /**
       * Reads created on this server, until their owner takes them: when the owner is this runner too it
       * starts them from these rows instead of reading them again. Those whose owner is elsewhere are
       * forgotten in bulk.
       */
      const createdHere = new Map<string, JobRow>()
      const sends = yield* FiberSet.make()
      const notices = yield* Notices

      const accountActors = yield* AccountActor.make({ runner, onServiceTime })
      const { actors, submitRead } = accountActors

      // The account entity: built when the account's first message reaches this runner (or its owner
      // moves here); its actor lives in the entity's scope, so it stops when the account leaves.
      yield* sharding.registerEntity(
        AccountEntity,
        Effect.gen(function*() {
          const address = yield* Entity.CurrentAddress
          const actor = yield* accountActors.activate(address.entityId)
          const wake = accountActors.wake(actor)
          return AccountEntity.of({
            Wake: () => wake,
            Changed: () => onServiceTime(accountActors.changed(actor)),
            Read: ({ payload }) =>
              onServiceTime(Effect.suspend(() => {
                const known = createdHere.get(payload.jobId)
                createdHere.delete(payload.jobId)
                return submitRead(actor, payload.jobId, known)
              }))
          })
        }),
        // Its spans (one per message) carry the account (`entity.id`) and the runner it lives on.
        { spanAttributes: { runner } }
      )

      /** Sends a message to the account's owner without waiting for it; a runner moving shards delays it. */
      const send = (accountId: string, message: (account: ReturnType<typeof client>) => Effect.Effect<unknown, unknown>) =>
        FiberSet.run(
          sends,
          tell(accountId, message).pipe(
            Effect.timeoutOption(settings.sendTimeout),
            Time.onRealTime,
            Effect.catchCause((cause) => Effect.logWarning("could not reach the account's owner; its takeover will look at it", cause)),
            Effect.annotateLogs({ accountId })
          )
        ).pipe(Effect.asVoid)

      /** The account's actor, when it lives here and its shard is still this runner's: no message needed. */
      const residentHere = (accountId: string) => {
        const actor = actors.get(accountId)
        return actor !== undefined && sharding.hasShardId(sharding.getShardId(EntityId.make(accountId), "default"))
          ? actor
          : undefined
      }

      const wake = (accountId: string) =>
        Effect.suspend(() => {
          const actor = residentHere(accountId)
          return actor !== undefined ? accountActors.wake(actor) : send(accountId, (account) => account.Wake(undefined, { discard: true }))
        })

      const atServiceNow = <A>(query: (nowMs: number) => Effect.Effect<A>) => onServiceTime(Effect.flatMap(Time.now, (now) => query(now.ms)))
      const takeover = yield* Takeover.run({
        residents: actors,
        wake,
        dueWork: atServiceNow(store.dueAccounts),
        wakeUpsDue: atServiceNow((nowMs) => store.wakeUpsDue(nowMs, settings.wakeUpsPerLook)),
        writesWaiting: accountActors.writesWaiting
      })

      /**
       * Finds work whose message to its owner was lost (with its connection, say): an open job of an account of this
       * runner that no actor has looked at for a whole round and that no actor here holds is woken for, so none waits
       * longer than a few seconds for no reason of its own.
       */
      let unlookedBefore = new Set<string>()
      const sweepUnlooked = Effect.gen(function*() {
        const found = yield* store.unlooked(2_000)
        const unlooked = new Set<string>()
        const accounts = new Set<string>()
        for (const { accountId, id } of found) {
          if (!sharding.hasShardId(sharding.getShardId(EntityId.make(accountId), "default"))) continue
          unlooked.add(id)
          if (!unlookedBefore.has(id) || accountActors.holds(accountId, id)) continue
          accounts.add(accountId)
        }
        unlookedBefore = unlooked
        for (const accountId of accounts) {
          const actor = residentHere(accountId)
          // Not in memory: woken with the accounts taken over, under their limits (a dead runner's writes read
          // as unlooked here, thousands at once, and woken directly they passed the cap on accounts in memory).
          if (actor === undefined) {
            yield* takeover.takeOver(accountId)
            continue
          }
          yield* accountActors.wake(actor)
          yield* accountActors.retryOpenReads(actor)
        }
        if (accounts.size > 0) {
          yield* Effect.logWarning(`woke ${accounts.size} accounts whose work no actor had looked at (a message to their owner was lost)`)
        }
      })
      yield* sweepUnlooked.pipe(
        Effect.catchCause((cause) => Effect.logWarning("looking for work left unlooked failed", cause)),
        Effect.andThen(Time.liveSleep(settings.unlookedEvery)),
        Effect.forever,
        (loop) => onServiceTime(loop),
        Effect.forkScoped
      )

      // An account changed on this server: its owner forgets what it read of it, looks at its writes again and
      // retries its parked reads, before the change's request answers.
      yield* changes.follow((accountId) => tell(accountId, (account) => account.Changed(undefined)))
      const counts = {
        accounts: Effect.sync(() => actors.size),
        waiting: accountActors.waiting,
        writesWaiting: accountActors.writesWaiting
      }
      yield* MemoryReport.run(counts)

      return Governor.of({
        submit: (job) =>
          job.status === "awaiting_approval"
            // Nothing to run until a person decides; the approvals' expiry (approvals/ApprovalExpiry.ts) hears of it.
            ? notices.publish(channels.approvalCreated, job.id)
            : job.isWrite
            ? wake(job.accountId)
            : Effect.suspend(() => {
              const actor = residentHere(job.accountId)
              // Handed over in this process, traced as the entity message it stands for.
              if (actor !== undefined) {
                return submitRead(actor, job.id, job).pipe(
                  Effect.withSpan("Account.Read", { attributes: { "entity.id": job.accountId, runner } }, Spans.perJob)
                )
              }
              if (createdHere.size >= 10_000) createdHere.clear()
              createdHere.set(job.id, job)
              return send(job.accountId, (account) => account.Read({ jobId: job.id }, { discard: true }))
            }),
        wake,
        actors: counts.accounts,
        resident: (accountId) => Effect.sync(() => actors.has(accountId)),
        writesWaiting: counts.writesWaiting,
        waiting: counts.waiting,
        sleepingUntil: (accountId) => Effect.sync(() => actors.get(accountId)?.sleepingUntil)
      })
    })
  )

  /** `layerNoDeps` with its services' layers. */
  static readonly layer = Governor.layerNoDeps.pipe(Layer.provide([AccountChanges.layer, Executor.layer, JobEndings.layer, JobStore.layer, JobWatch.layer]))
}
