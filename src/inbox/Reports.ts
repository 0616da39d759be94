/**
 * The Daily brief and the Health report of an account: the facts gathered
 * from what syncing recorded, the jobs and the account, then read through
 * the pure rules of `domain/Brief.ts` and `domain/HealthReport.ts`.
 *
 * @since 1.0.0
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Accounts } from "../accounts/Accounts.ts"
import { warmupOf } from "../accounts/AccountRow.ts"
import type { NotFound } from "../api/Errors.ts"
import type { Brief, HealthReport } from "../api/InboxApi.ts"
import { headline, inPriorityOrder, suggestedOpener } from "../domain/Brief.ts"
import { invitationsOf, networkOf, recommendationsOf, weakestPillar } from "../domain/HealthReport.ts"
import * as Time from "../domain/Time.ts"
import { rampFactor, warmupFinishesOn } from "../domain/Warmup.ts"
import { localDate } from "../domain/WorkingHours.ts"
import { accountFacts } from "../jobs/AccountFacts.ts"
import { NetworkDriver } from "../network/NetworkDriver.ts"
import { BigIntNumber, Timestamp } from "../platform/Rows.ts"
import { TriageClass } from "../domain/TriageClass.ts"

const DAY_MS = 86_400_000

const ReplyRow = Schema.Struct({
  chatId: Schema.String,
  from: Schema.NullOr(Schema.String),
  class: TriageClass,
  text: Schema.NullOr(Schema.String),
  suggestedReply: Schema.NullOr(Schema.String),
  receivedAt: Timestamp
})
const decodeReplies = Schema.decodeUnknownEffect(Schema.Array(ReplyRow))

const ReadyRow = Schema.Struct({
  providerId: Schema.String,
  name: Schema.NullOr(Schema.String),
  note: Schema.NullOr(Schema.String),
  acceptedAt: Timestamp
})
const decodeReady = Schema.decodeUnknownEffect(Schema.Array(ReadyRow))

const QueueRow = Schema.Struct({ status: Schema.String, kind: Schema.String, count: BigIntNumber })
const decodeQueue = Schema.decodeUnknownEffect(Schema.Array(QueueRow))

const PendingRow = Schema.Struct({ sentAtMs: BigIntNumber })
const decodePending = Schema.decodeUnknownEffect(Schema.Array(PendingRow))

const RateRow = Schema.Struct({ sent: BigIntNumber, accepted: BigIntNumber })
const decodeRate = Schema.decodeUnknownEffect(Schema.Array(RateRow))

/** How many new connections the brief lists at most. */
const READY_MAX = 50

export class Reports extends Context.Service<Reports, {
  /** The Daily brief; replies of the last `hours` hours. */
  readonly brief: (workspaceId: string, accountId: string, hours: number) => Effect.Effect<Brief, NotFound>
  /** The Health report. */
  readonly healthReport: (workspaceId: string, accountId: string) => Effect.Effect<HealthReport, NotFound>
}>()("outreach/Reports") {
  static readonly layer = Layer.effect(
    Reports,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const accounts = yield* Accounts
      const network = yield* NetworkDriver

      const brief = Effect.fn("Reports.brief")(function*(workspaceId: string, accountId: string, hours: number) {
        const account = yield* accounts.get(workspaceId, accountId)
        const now = yield* Time.now
        const since = Time.toIso(now.ms - hours * 3_600_000)
        const replies = yield* sql`
          SELECT m.chat_id AS "chatId", who.name AS "from", COALESCE(m.triage_class, 'other') AS class, m.text,
                 m.suggested_reply AS "suggestedReply", m.sent_at AS "receivedAt"
          FROM inbox_messages m
          LEFT JOIN LATERAL (
            SELECT i.name FROM invitations i
            WHERE i.account_id = m.account_id AND i.provider_id = m.sender_provider_id AND i.name IS NOT NULL LIMIT 1
          ) who ON true
          WHERE m.account_id = ${accountId} AND m.sent_at >= ${since}::timestamptz`.pipe(
          Effect.flatMap(decodeReplies),
          Effect.orDie
        )
        // Accepted, and neither written to (a sent message) nor writing (a reply) yet.
        const ready = yield* sql`
          SELECT i.provider_id AS "providerId", i.name, i.note, i.accepted_at AS "acceptedAt"
          FROM invitations i
          WHERE i.account_id = ${accountId} AND i.status = 'accepted' AND i.accepted_at IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM inbox_messages m WHERE m.account_id = i.account_id AND m.sender_provider_id = i.provider_id)
            AND NOT EXISTS (
              SELECT 1 FROM jobs j WHERE j.account_id = i.account_id AND j.kind = 'send_message'
                AND j.result ->> 'recipientProviderId' = i.provider_id)
          ORDER BY i.accepted_at DESC LIMIT ${READY_MAX}`.pipe(Effect.flatMap(decodeReady), Effect.orDie)
        const open = yield* sql`
          SELECT status, kind, count(*) AS count FROM jobs
          WHERE account_id = ${accountId} AND status IN ('queued', 'scheduled', 'awaiting_approval', 'running')
          GROUP BY status, kind`.pipe(Effect.flatMap(decodeQueue), Effect.orDie)
        const countOf = (status: string) =>
          open.filter((row) => row.status === status).reduce((sum, row) => sum + row.count, 0)
        const byKind: Record<string, number> = {}
        for (const row of open) byKind[row.kind] = (byKind[row.kind] ?? 0) + row.count
        const sorted = inPriorityOrder(replies)
        const queue = {
          queued: countOf("queued"),
          scheduled: countOf("scheduled"),
          awaitingApproval: countOf("awaiting_approval"),
          byKind
        }
        const result: Brief = {
          account: {
            id: account.id,
            label: account.label,
            health: account.health.level,
            mode: account.mode,
            warmupDay: account.warmup.day
          },
          date: localDate(account.workingHours.timezone, now.ms),
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
          })
        }
        return result
      })

      const healthReport = Effect.fn("Reports.healthReport")(function*(workspaceId: string, accountId: string) {
        const account = yield* accounts.get(workspaceId, accountId)
        const facts = yield* accountFacts(sql, accountId)
        const now = yield* Time.now
        const pending = yield* sql`
          SELECT (extract(epoch FROM sent_at) * 1000)::bigint AS "sentAtMs" FROM invitations
          WHERE account_id = ${accountId} AND status = 'pending'`.pipe(Effect.flatMap(decodePending), Effect.orDie)
        const since = Time.toIso(now.ms - 30 * DAY_MS)
        const [rate] = yield* sql`
          SELECT count(*) AS sent, count(*) FILTER (WHERE status = 'accepted') AS accepted FROM invitations
          WHERE account_id = ${accountId} AND sent_at >= ${since}::timestamptz`.pipe(Effect.flatMap(decodeRate), Effect.orDie)
        const ssi = account.products.includes("sales_navigator")
          ? yield* network.read(accountId, "ssi", {}).pipe(Effect.orElseSucceed(() => null))
          : null
        const invitations = invitationsOf(pending, account.settings.autoWithdrawDays, now.ms)
        const warmup = facts === undefined ? null : warmupOf(facts.row)
        const warming = warmup !== null && account.warmup.day >= 1 && account.warmup.day < account.warmup.of
        const finishesOn = warming ? warmupFinishesOn(warmup, account.workingHours.timezone) : null
        const weeklyInvites = facts?.account.limits.find((limit) => limit.category === "invites" && limit.period === "weekly")
        const network_ = networkOf(account.connections)
        const report: HealthReport = {
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
            sentLast30Days: rate?.sent ?? 0,
            acceptedLast30Days: rate?.accepted ?? 0,
            minInviteQuality: account.settings.minInviteQuality,
            warmupDay: account.warmup.day,
            warmupOf: account.warmup.of,
            warmupFinishesOn: finishesOn,
            weeklyInvites: weeklyInvites === undefined || !weeklyInvites.isEnabled ? null : weeklyInvites.maxValue,
            weakestSsi: ssi === null ? null : weakestPillar(ssi.pillars)
          })
        }
        return report
      })

      return Reports.of({ brief, healthReport })
    })
  )
}
