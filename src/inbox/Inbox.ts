/**
 * Syncing: background work (it creates no jobs and sends no job events) that
 * asks the network what changed for each connected account — invitations it
 * sent, messages it received — and records it. Each account is synced at the
 * cadence of `syncCadence` (`Cadence.ts`: every 10 minutes of the service's
 * clock) while its working hours are open and its `list_polls` budget has
 * room (one unit a sync); its status must allow reads. A change to the
 * account (hours, limits, status) lets it be synced again without waiting
 * for what held it, but never within an interval of its last sync.
 *
 * What a sync finds is written in one transaction with its events and the
 * account's cursor: an invitation that became accepted emits
 * `invitation.accepted` once, a message seen for the first time emits
 * `message.received` (with its triage) once, each person named is touched
 * in People, and a restart resumes from the cursor, so nothing is reported
 * twice or lost.
 *
 * Invitations the service's own `connect` jobs sent are recorded (`svc`) when
 * those jobs end (`Invitations.ts`); syncing records the rest (`external`)
 * and every change of status.
 *
 * Invitations pending longer than the account's `autoWithdrawDays` (null
 * turns it off) are withdrawn through the Governor by a job of the service's
 * own, which sends no job events; the service proposes each one once.
 *
 * One loop, a fiber of the layer's scope, looks every second of real time
 * ({@link dueScan}) for accounts whose next sync is due on the service's
 * clock and claims them (`FOR UPDATE SKIP LOCKED`, so two servers never sync
 * one account at once): under the sandbox's test clock, a jump of days syncs
 * each account once, not once per interval skipped. A failing sync or look
 * is logged and the loop goes on.
 */
import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { AccountChanges } from "../accounts/AccountChanges.ts"
import { accountNotFound } from "../accounts/Accounts.ts"
import { AccountStore } from "../accounts/AccountStore.ts"
import { Budgets } from "../accounts/Budgets.ts"
import { type Invitation, INVITATION_LIST_MAX, type InvitationFilter } from "../domain/InboxRecords.ts"
import type { Missing } from "../domain/Failures.ts"
import { readableStatuses } from "../domain/Account.ts"
import * as Time from "../domain/Time.ts"
import { isOpen, nextOpening } from "../domain/WorkingHours.ts"
import type { NewEvent } from "../domain/Events.ts"
import { Outbox } from "../events/Outbox.ts"
import { accountFacts } from "../jobs/AccountFacts.ts"
import { Jobs } from "../jobs/Jobs.ts"
import { JobStore } from "../jobs/JobStore.ts"
import { planJob } from "../jobs/Plan.ts"
import { driverOf, NetworkDriver } from "../network/NetworkDriver.ts"
import { PersonTouches } from "../people/People.ts"
import type { InboundMessage, SyncedInvitation } from "../network/Sync.ts"
import { AppConfig } from "../platform/AppConfig.ts"
import { Triage } from "../triage/Triage.ts"
import { isUnsure, type TriageResult } from "../domain/TriageClass.ts"
import { dueScan, InboxSettings, nextSyncAt, type SyncAttempt } from "./Cadence.ts"
import { Invitations } from "../accounts/Invitations.ts"
import { Messages } from "../people/Messages.ts"

/** How far each sync reaches back before the previous one's end. */
export const SYNC_OVERLAP_MS = 60_000

/** What one sync of one account did. */
export type SyncOutcome =
  | {
    readonly _tag: "Synced"
    readonly invitations: number
    readonly accepted: number
    readonly messages: number
    /** Stale invitations handed to the Governor for withdrawal. */
    readonly withdrawing: number
  }
  | { readonly _tag: "Skipped"; readonly reason: "removed" | "status" | "hours" | "budget" | "network" }


export class Inbox extends Context.Service<Inbox, {
  /**
   * Syncs one account now, if its status, hours and budget allow; records when it is next due.
   * `onRequest`: someone asked for it (the sandbox, after an event it would otherwise learn of at
   * the next sync): like any read, it runs outside working hours too.
   */
  readonly syncAccount: (accountId: string, options?: { readonly onRequest?: boolean }) => Effect.Effect<SyncOutcome>
  /** Claims the accounts whose next sync is due (up to `InboxSettings.batch`) and syncs them; returns how many. */
  readonly syncDue: Effect.Effect<number>
  /** The invitations an account of the workspace sent, newest first, up to 200; `all` or one status. */
  readonly invitations: (
    workspaceId: string,
    accountId: string,
    status: typeof InvitationFilter.Type
  ) => Effect.Effect<ReadonlyArray<Invitation>, Missing>
}>()("outreach/Inbox") {
  /** The inbox; with `inboxSync` on (the default) its loop syncs due accounts for the layer's lifetime. */
  static readonly layerNoDeps = Layer.effect(
    Inbox,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const network = yield* NetworkDriver
      const outbox = yield* Outbox
      const triage = yield* Triage
      const jobs = yield* Jobs
      const jobStore = yield* JobStore
      const config = yield* AppConfig
      const settings = yield* InboxSettings
      const changes = yield* AccountChanges
      const accounts = yield* AccountStore
      const budgets = yield* Budgets
      const invitationStore = yield* Invitations
      const messageStore = yield* Messages
      const people = yield* PersonTouches

      /** Records when the account is next due after an attempt at `nowMs`. */
      const scheduleNext = (accountId: string, attempt: SyncAttempt, nowMs: number) =>
        nextSyncAt(attempt, nowMs).pipe(
          Effect.flatMap((atMs) => accounts.scheduleSync(accountId, atMs))
        )

      /**
       * The profile address of each person a sync names, for People. One the driver cannot identify is left
       * out: then only a person already known is touched.
       */
      const profileUrlsOf = (workspaceId: string, providerIds: ReadonlyArray<string>) =>
        Effect.forEach(new Set(providerIds), (providerId) =>
          Effect.flatMap(driverOf(network, workspaceId), (driver) => driver.identify(providerId)).pipe(
            Effect.map((identity): ReadonlyArray<readonly [string, string]> => [[providerId, identity.profileUrl]]),
            Effect.catchTag("NetworkError", (error) =>
              Effect.as(Effect.logWarning("the network could not identify a person it reported", error), []))
          )).pipe(Effect.map((pairs) => new Map(pairs.flat())))

      /** Records what the network reported, its events, the spend and the cursor, in one transaction. */
      const record = (
        accountId: string,
        workspaceId: string,
        nowMs: number,
        syncedUntil: number,
        invitations: ReadonlyArray<SyncedInvitation>,
        messages: ReadonlyArray<{ readonly message: InboundMessage; readonly triage: TriageResult }>
      ) =>
        Effect.gen(function*() {
          const nextAt = yield* nextSyncAt({ heldUntil: null }, nowMs)
          const profileUrls = yield* profileUrlsOf(workspaceId, [
            ...invitations.map((invitation) => invitation.providerId),
            ...messages.map(({ message }) => message.senderProviderId)
          ])
          return yield* sql.withTransaction(Effect.gen(function*() {
            // One sync of an account at a time, across servers: the status before decides the events.
            yield* accounts.lockForSync(accountId)
            const events: Array<NewEvent> = []
            for (const invitation of invitations) {
              const recorded = yield* invitationStore.recordSynced(accountId, invitation)
              yield* people.touch(
                workspaceId,
                { providerId: invitation.providerId, profileUrl: profileUrls.get(invitation.providerId) ?? null },
                invitation.resolvedAt ?? invitation.sentAt
              )
              if (invitation.status === "accepted" && recorded.statusBefore !== "accepted") {
                events.push({
                  type: "invitation.accepted",
                  data: {
                    accountId,
                    invitationId: invitation.invitationId,
                    providerId: invitation.providerId,
                    via: recorded.source,
                    ...(recorded.name === null ? {} : { name: recorded.name })
                  }
                })
              }
            }
            let received = 0
            for (const { message, triage: triaged } of messages) {
              if (!(yield* messageStore.recordReceived(accountId, message, triaged))) continue
              received++
              yield* people.touch(
                workspaceId,
                { providerId: message.senderProviderId, profileUrl: profileUrls.get(message.senderProviderId) ?? null },
                message.sentAt
              )
              events.push({
                type: "message.received",
                data: {
                  accountId,
                  chatId: message.chatId,
                  messageId: message.messageId,
                  senderProviderId: message.senderProviderId,
                  text: message.text,
                  sentAt: message.sentAt,
                  triage: {
                    class: triaged.class,
                    suggestedReply: triaged.suggestedReply,
                    confidence: triaged.confidence,
                    unsure: isUnsure(triaged.confidence)
                  }
                }
              })
            }
            yield* outbox.append(workspaceId, events)
            yield* budgets.recordSpend({
              accountId,
              category: "list_polls",
              units: 1,
              jobId: null,
              atIso: Time.toIso(nowMs)
            })
            yield* accounts.recordSync(accountId, syncedUntil, nextAt)
            return {
              _tag: "Synced",
              invitations: invitations.length,
              accepted: events.filter((event) => event.type === "invitation.accepted").length,
              messages: received
            } as const
          }))
        }).pipe(Effect.orDie)

      /**
       * Invitations pending longer than the account's `autoWithdrawDays` get a `withdraw_invite` job of the
       * service's own (no job events), which the Governor runs like any write. The service proposes each
       * invitation's withdrawal once: not again after a person rejected it or it failed, nor while a
       * withdrawal of anyone's is on its way.
       */
      const withdrawStale = (accountId: string, workspaceId: string, autoWithdrawDays: number | null, nowMs: number) =>
        Effect.gen(function*() {
          if (autoWithdrawDays === null) return 0
          const pending = yield* invitationStore.staleOf(accountId, autoWithdrawDays, Time.toIso(nowMs))
          const proposed = yield* jobStore.withdrawalsProposed(accountId, pending)
          const stale = pending.filter((invitationId) => !proposed.has(invitationId))
          yield* Effect.forEach(stale, (invitationId) =>
            jobs.create({
              workspaceId,
              accountId,
              command: "withdraw_invite",
              input: { invitationId },
              origin: "service"
            }).pipe(Effect.orDie), { discard: true })
          return stale.length
        })

      const syncAccount = Effect.fn("Inbox.syncAccount")(function*(
        accountId: string,
        options?: { readonly onRequest?: boolean }
      ) {
        const current = yield* accountFacts(sql, accountId)
        if (current === undefined) return { _tag: "Skipped", reason: "removed" } as const
        const { account, nowMs, row } = current
        if (!readableStatuses.has(account.status)) {
          yield* scheduleNext(accountId, { heldUntil: null }, nowMs)
          return { _tag: "Skipped", reason: "status" } as const
        }
        if (options?.onRequest !== true && !isOpen(account.hours, nowMs)) {
          yield* scheduleNext(accountId, { heldUntil: nextOpening(account.hours, nowMs) }, nowMs)
          return { _tag: "Skipped", reason: "hours" } as const
        }
        const plan = planJob({ nowMs, job: { isWrite: false, category: "list_polls" }, account })
        if (plan._tag !== "Run") {
          yield* scheduleNext(accountId, { heldUntil: plan._tag === "Wait" ? plan.until : null }, nowMs)
          return { _tag: "Skipped", reason: "budget" } as const
        }
        const cursor = yield* accounts.syncCursor(accountId)
        if (cursor === undefined) return { _tag: "Skipped", reason: "removed" } as const
        // The windows overlap a little: a change stamped with the very instant the last sync read up to
        // (the service's own withdrawal right after it) is seen again rather than missed; recording is idempotent.
        const since = Math.max(0, (cursor.syncedUntil ?? cursor.connectedAt ?? nowMs) - SYNC_OVERLAP_MS)
        const result = yield* network.sync(accountId, since).pipe(
          Effect.tapError((error) => Effect.logWarning("the network refused a sync", error)),
          Effect.option
        )
        if (result._tag === "None") {
          yield* scheduleNext(accountId, { heldUntil: null }, nowMs)
          return { _tag: "Skipped", reason: "network" } as const
        }
        const messages = yield* Effect.forEach(result.value.messages, (message) =>
          Effect.map(triage.classify(message.text), (triaged) => ({ message, triage: triaged })))
        const synced = yield* record(
          accountId,
          cursor.workspaceId,
          nowMs,
          result.value.syncedUntil,
          result.value.invitations,
          messages
        )
        const withdrawing = yield* withdrawStale(accountId, cursor.workspaceId, row.autoWithdrawDays, nowMs)
        return { ...synced, withdrawing }
      })

      /**
       * Claims the accounts whose next sync is due (their next sync moves an interval on, so another server
       * skips them and a sync that crashes waits for it) and syncs them one after the other.
       */
      const syncDue = Effect.gen(function*() {
        const now = yield* Time.now
        const leaseUntil = yield* nextSyncAt({ heldUntil: null }, now.ms)
        const due = yield* accounts.claimDueSyncs(now.ms, leaseUntil, settings.batch)
        yield* Effect.forEach(due, (accountId) =>
          syncAccount(accountId).pipe(
            Effect.catchCause((cause) =>
              Effect.logError("inbox sync failed; the account is tried again at its next interval", cause).pipe(
                Effect.annotateLogs({ accountId })
              )
            )
          ), { discard: true })
        return due.length
      })

      /**
       * An account changed (its hours, limits or status): what held its syncs may hold no longer, so it is
       * due again an interval after its last sync at the latest (at once when it was never synced). The
       * cadence still holds: a change never brings a sync within an interval of the previous one.
       */
      const accountChanged = (accountId: string) =>
        Effect.gen(function*() {
          const cursor = yield* accounts.syncedUntil(accountId)
          if (cursor === undefined) return
          const dueBy = cursor.syncedUntil === null ? null : yield* nextSyncAt({ heldUntil: null }, cursor.syncedUntil)
          yield* accounts.bringSyncForward(accountId, dueBy)
        })

      if (config.inboxSync) {
        yield* changes.follow((accountId) =>
          accountChanged(accountId).pipe(
            Effect.catchCause((cause) => Effect.logError("inbox could not follow an account change", cause))
          )
        )
        // The looks follow real time (dueScan); what they sync follows the service's clock.
        const serviceClock = yield* Clock.Clock
        yield* syncDue.pipe(
          Effect.catchCause((cause) => Effect.logError("inbox: looking for due accounts failed", cause)),
          Effect.provideService(Clock.Clock, serviceClock),
          Effect.repeat(dueScan(settings)),
          Time.onRealTime,
          Effect.forkScoped
        )
      }

      const invitations = Effect.fn("Inbox.invitations")(
        function*(workspaceId: string, accountId: string, status: typeof InvitationFilter.Type) {
          if (!(yield* accounts.exists(workspaceId, accountId))) return yield* Effect.fail(accountNotFound(accountId))
          return yield* invitationStore.listOf(accountId, status, INVITATION_LIST_MAX)
        }
      )

      return Inbox.of({ syncAccount, syncDue, invitations })
    })
  )

  /** `layerNoDeps` with its services' layers. */
  static readonly layer = Inbox.layerNoDeps.pipe(Layer.provide([AccountChanges.layer, AccountStore.layer, Budgets.layer, Invitations.layer, Messages.layer, PersonTouches.layer, JobStore.layer, Jobs.layer, Outbox.layer]))
}
