/**
 * The Daily brief and the Health report of an account: the facts gathered
 * from what syncing recorded, the jobs and the account, then read through
 * the pure rules of `domain/Brief.ts` and `domain/HealthReport.ts`; the
 * brief's line on tomorrow comes from the forecast.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Accounts } from "../accounts/Accounts.ts"
import { warmupOf } from "../accounts/AccountRow.ts"
import type { Account as AccountSchema } from "../domain/AccountRecord.ts"
import type { Brief, HealthReport } from "../domain/InboxRecords.ts"
import type { Limit } from "../domain/Limits.ts"
import type { Missing } from "../domain/Failures.ts"
import { headline, inPriorityOrder, suggestedOpener } from "../domain/Brief.ts"
import { invitationsOf, networkOf, recommendationsOf, weakestPillar } from "../domain/HealthReport.ts"
import * as Time from "../domain/Time.ts"
import { rampFactor, type Warmup, warmupFinishesOn } from "../domain/Warmup.ts"
import { localDate, startOfNextLocalDay } from "../domain/WorkingHours.ts"
import { accountFacts } from "../jobs/AccountFacts.ts"
import { expectedOn, Forecasts } from "../jobs/Forecasts.ts"
import { JobStore } from "../jobs/JobStore.ts"
import { NetworkDriver } from "../network/NetworkDriver.ts"
import { Invitations } from "../accounts/Invitations.ts"
import { Messages } from "../people/Messages.ts"
import { readyForFirstMessage } from "./FirstMessages.ts"

type Account = typeof AccountSchema.Type

const DAY_MS = 86_400_000

/** How many new connections the brief lists at most. */
const READY_MAX = 50

/** The SSI of an account with Sales Navigator, as the network reads it (null without it, or when the network refuses). */
export const ssiOf = (network: NetworkDriver["Service"], account: Account) =>
  account.products.includes("sales_navigator")
    ? network.read(account.id, "ssi", {}).pipe(Effect.orElseSucceed(() => null))
    : Effect.succeed(null)

/** Where the Health report's acceptance rate starts at `nowMs`: 30 days before. */
export const acceptanceSince = (nowMs: number) => Time.toIso(nowMs - 30 * DAY_MS)

/** What the Health report is read from: the account, its warm-up and limits in force, its invitations and its SSI. */
export interface HealthReportFacts {
  readonly account: Account
  readonly warmup: Warmup | null
  readonly limits: ReadonlyArray<Limit>
  readonly nowMs: number
  /** The account's pending invitations, when each was sent (epoch ms). */
  readonly pending: ReadonlyArray<{ readonly sentAtMs: number }>
  /** What it sent in the last 30 days, and how much of it was accepted. */
  readonly rate: { readonly sent: number; readonly accepted: number }
  readonly ssi: HealthReport["ssi"]
}

/** The Health report of these facts. */
export const healthReportOf = (facts: HealthReportFacts): HealthReport => {
  const { account, ssi, warmup, nowMs, rate } = facts
  const invitations = invitationsOf(facts.pending, account.settings.autoWithdrawDays, nowMs)
  const warming = warmup !== null && account.warmup.day >= 1 && account.warmup.day < account.warmup.of
  const finishesOn = warming ? warmupFinishesOn(warmup, account.workingHours.timezone) : null
  const weeklyInvites = facts.limits.find((limit) => limit.category === "invites" && limit.period === "weekly")
  const network_ = networkOf(account.connections)
  return {
    account,
    network: network_,
    invitations,
    ssi,
    warmup: finishesOn === null ? null : {
      day: account.warmup.day,
      of: account.warmup.of,
      finishesOn,
      todayInvites: account.budgets?.invites.today ?? 0,
      note: `Day ${account.warmup.day} of ${account.warmup.of}: budgets run at ${
        Math.round(rampFactor(account.warmup.day) * 100)
      }% of their limits and reach them on ${finishesOn}.`
    },
    recommendations: recommendationsOf({
      status: account.status,
      healthLevel: account.health.level,
      healthReason: account.health.reason,
      network: network_.size,
      pending: invitations.pending,
      stale: invitations.stale,
      autoWithdrawDays: account.settings.autoWithdrawDays,
      sentLast30Days: rate.sent,
      acceptedLast30Days: rate.accepted,
      minInviteQuality: account.settings.minInviteQuality,
      warmupDay: account.warmup.day,
      warmupOf: account.warmup.of,
      warmupFinishesOn: finishesOn,
      weeklyInvites: weeklyInvites === undefined || !weeklyInvites.isEnabled ? null : weeklyInvites.maxValue,
      weakestSsi: ssi === null ? null : weakestPillar(ssi.pillars)
    })
  }
}

/** What the Daily brief reads, each from its owner (the stored services, or their in-memory fakes in `ReportsMemory.ts`). */
export interface BriefOwners {
  readonly accounts: Pick<Accounts["Service"], "get">
  readonly messages: Pick<Messages["Service"], "repliesSince" | "whoHaveWritten">
  readonly invitations: Pick<Invitations["Service"], "acceptedOf">
  readonly jobs: Pick<JobStore["Service"], "openCounts" | "messagedAmong">
  readonly forecasts: Pick<Forecasts["Service"], "forecast">
}

/**
 * The Daily brief on these owners, replies of the last `hours` hours: the account, the replies in priority order, the
 * new connections ready for a first message, the open jobs counted, and the forecast's line on tomorrow.
 */
export const briefOf = (owners: BriefOwners) =>
  Effect.fn("Reports.brief")(function*(workspaceId: string, accountId: string, hours: number) {
    const { accounts, messages, jobs, forecasts } = owners
    const account = yield* accounts.get(workspaceId, accountId)
    // The account's own id from here on: the one asked for may differ in the case of its letters.
    const id = account.id
    const now = yield* Time.now
    const since = Time.toIso(now.ms - hours * 3_600_000)
    const replies = yield* messages.repliesSince(id, since)
    const ready = yield* readyForFirstMessage(owners, id, READY_MAX)
    const open = yield* jobs.openCounts(id)
    const countOf = (status: string) =>
      open.filter((row) => row.status === status).reduce((sum, row) => sum + row.count, 0)
    const byKind: Record<string, number> = {}
    for (const row of open) byKind[row.kind] = (byKind[row.kind] ?? 0) + row.count
    const sorted = inPriorityOrder(replies)
    const timezone = account.workingHours.timezone
    const forecast = yield* forecasts.forecast(workspaceId, id, { limit: 1 }).pipe(
      Effect.catchTag("Invalid", Effect.die)
    )
    const queue = {
      queued: countOf("queued"),
      scheduled: countOf("scheduled"),
      awaitingApproval: countOf("awaiting_approval"),
      byKind
    }
    const result: Brief = {
      account: {
        id,
        label: account.label,
        health: account.health.level,
        mode: account.mode,
        warmupDay: account.warmup.day
      },
      date: localDate(timezone, now.ms),
      replies: sorted,
      readyForFirstMessage: ready.map((row) => ({
        providerId: row.providerId,
        name: row.name,
        acceptedAt: row.acceptedAt,
        suggestedOpener: suggestedOpener(row.name, row.note)
      })),
      queue,
      approvals: queue.awaitingApproval,
      budgets: account.budgets,
      workingHours: { openNow: account.workingHours.openNow, nextOpening: account.workingHours.nextOpening },
      headline: headline({
        status: account.status,
        replies: sorted,
        readyForFirstMessage: ready.length,
        approvals: queue.awaitingApproval,
        queued: queue.queued + queue.scheduled,
        openNow: account.workingHours.openNow,
        nextOpening: account.workingHours.nextOpening,
        hours
      }),
      tomorrow: expectedOn(forecast, localDate(timezone, startOfNextLocalDay(timezone, now.ms)))
    }
    return result
  })

export class Reports extends Context.Service<Reports, {
  /** The Daily brief; replies of the last `hours` hours. */
  readonly brief: (workspaceId: string, accountId: string, hours: number) => Effect.Effect<Brief, Missing>
  /** The Health report. */
  readonly healthReport: (workspaceId: string, accountId: string) => Effect.Effect<HealthReport, Missing>
}>()("outreach/Reports") {
  static readonly layerNoDeps = Layer.effect(
    Reports,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const accounts = yield* Accounts
      const network = yield* NetworkDriver
      const jobs = yield* JobStore
      const forecasts = yield* Forecasts
      const invitationStore = yield* Invitations
      const messages = yield* Messages

      const brief = briefOf({ accounts, messages, invitations: invitationStore, jobs, forecasts })

      const healthReport = Effect.fn("Reports.healthReport")(function*(workspaceId: string, accountId: string) {
        const account = yield* accounts.get(workspaceId, accountId)
        const facts = yield* accountFacts(sql, accountId)
        const now = yield* Time.now
        return healthReportOf({
          account,
          warmup: facts === undefined ? null : warmupOf(facts.row),
          limits: facts?.account.limits ?? [],
          nowMs: now.ms,
          pending: yield* invitationStore.pendingSentAt(accountId),
          rate: yield* invitationStore.acceptanceSince(accountId, acceptanceSince(now.ms)),
          ssi: yield* ssiOf(network, account)
        })
      })

      return Reports.of({ brief, healthReport })
    })
  )

  /** `layerNoDeps` with its services' layers. */
  static readonly layer = Reports.layerNoDeps.pipe(Layer.provide([Accounts.layer, JobStore.layer, Forecasts.layer, Invitations.layer, Messages.layer]))
}
