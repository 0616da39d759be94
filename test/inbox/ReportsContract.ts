/**
 * What `Reports` promises the Health report's route, run against the stored reports
 * (`ReportsStored.test.ts`, the core on a database) and against the in-memory ones the fast route
 * tests use (`ReportsMemory.test.ts`): the same expectations, so the fake cannot drift from the
 * service it stands in for. Accounts connect as the sandbox connects them (a premium seat, without
 * Sales Navigator, so no SSI is read), and their invitations are recorded as syncing records them.
 * The Daily brief is the stored reports' alone (`Reports.test.ts`).
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Accounts } from "../../src/accounts/Accounts.ts"
import { Missing } from "../../src/domain/Failures.ts"
import * as Time from "../../src/domain/Time.ts"
import { nextOf } from "../../src/http/ServiceErrors.ts"
import { Reports } from "../../src/inbox/Reports.ts"
import type { SyncedInvitation } from "../../src/network/Sync.ts"
import type { Backend, TwoWorkspaces } from "../support/Backends.ts"

/** The two workspaces, and how connected accounts and the invitations they sent are made on the backend. */
export interface ReportsFixture extends TwoWorkspaces {
  /** A new account of the workspace, connected; its id. */
  readonly account: (workspaceId: string) => Effect.Effect<string>
  /** An invitation the account sent, recorded as syncing records it. */
  readonly synced: (accountId: string, invitation: SyncedInvitation) => Effect.Effect<void>
}

/** The profile the accounts connect with: a premium seat without Sales Navigator. */
export const premiumSeat = { tier: "premium", products: [], connections: 640 } as const

const DAY_MS = 86_400_000

/** An invitation sent `daysAgo` before `nowMs`, still pending or accepted a day later. */
const sentDaysAgo = (id: string, nowMs: number, daysAgo: number, accepted = false): SyncedInvitation => {
  const sentAt = Time.toIso(nowMs - daysAgo * DAY_MS)
  const answeredAt = accepted ? Time.toIso(nowMs - (daysAgo - 1) * DAY_MS) : null
  return {
    invitationId: id,
    providerId: `ACo-${id}`,
    note: null,
    status: accepted ? "accepted" : "pending",
    sentAt,
    acceptedAt: answeredAt,
    resolvedAt: answeredAt
  }
}

export const reportsExpectations = <R>(backend: Backend<R, Reports | Accounts, ReportsFixture>) =>
  layer(backend.services)(`Reports (${backend.name})`, (it) => {
    it.effect("the Health report reads the account, its network, stale invitations and its warm-up", () =>
      backend.withFixture(({ workspaceId, account, synced }) =>
        Effect.gen(function*() {
          const reports = yield* Reports
          const id = yield* account(workspaceId)
          const now = yield* Time.now
          yield* synced(id, sentDaysAgo("inv-stale", now.ms, 30))
          yield* synced(id, sentDaysAgo("inv-older", now.ms, 25))
          yield* synced(id, sentDaysAgo("inv-fresh", now.ms, 1))
          yield* synced(id, sentDaysAgo("inv-yes", now.ms, 5, true))
          yield* synced(id, sentDaysAgo("inv-long-ago", now.ms, 45, true))

          const report = yield* reports.healthReport(workspaceId, id)
          assert.deepStrictEqual(report.account, yield* (yield* Accounts).get(workspaceId, id))
          assert.strictEqual(report.network.connections, premiumSeat.connections)
          assert.strictEqual(report.network.size, "medium")
          assert.deepInclude(report.invitations, { pending: 3, stale: 2 })
          assert.match(report.invitations.proposedCleanup ?? "", /^Withdraw the 2 invitations pending more than 21 days/)
          assert.include(report.invitations.proposedCleanup ?? "", `the oldest sent ${Time.toIso(now.ms - 30 * DAY_MS).slice(0, 10)}`)
          assert.isNull(report.ssi)
          assert.strictEqual(report.warmup?.day, 1)
          assert.strictEqual(report.warmup?.of, report.account.warmup.of)
          assert.match(report.warmup?.note ?? "", /^Day 1 of \d+: budgets run at \d+% of their limits and reach them on \d{4}-\d{2}-\d{2}\.$/)
          assert.isTrue(report.recommendations.some((line) => line.includes("withdraw")), JSON.stringify(report.recommendations))
        })))

    it.effect("the acceptance rate counts the invitations of the last 30 days only", () =>
      backend.withFixture(({ workspaceId, account, synced }) =>
        Effect.gen(function*() {
          const id = yield* account(workspaceId)
          const now = yield* Time.now
          // Ten in the last 30 days, one accepted; the twenty accepted before do not count.
          yield* Effect.forEach(Array.from({ length: 10 }, (_, i) => i), (i) => synced(id, sentDaysAgo(`inv-${i}`, now.ms, 2 + i, i === 0)), {
            discard: true
          })
          yield* Effect.forEach(Array.from({ length: 20 }, (_, i) => i), (i) => synced(id, sentDaysAgo(`inv-old-${i}`, now.ms, 31 + i, true)), {
            discard: true
          })
          const { recommendations } = yield* (yield* Reports).healthReport(workspaceId, id)
          assert.isTrue(
            recommendations.some((line) => line.startsWith("Only 10% of the 10 invitations sent in the last 30 days were accepted")),
            JSON.stringify(recommendations)
          )
        })))

    it.effect("an account with nothing sent has no cleanup to propose", () =>
      backend.withFixture(({ workspaceId, account }) =>
        Effect.gen(function*() {
          const id = yield* account(workspaceId)
          const report = yield* (yield* Reports).healthReport(workspaceId, id.toUpperCase())
          assert.strictEqual(report.account.id, id)
          assert.deepStrictEqual(report.invitations, { pending: 0, stale: 0, proposedCleanup: null })
        })))

    it.effect("the Health report of an account of another workspace, or none, is not found", () =>
      backend.withFixture(({ workspaceId, otherWorkspaceId, account }) =>
        Effect.gen(function*() {
          const reports = yield* Reports
          const id = yield* account(workspaceId)
          for (const [workspace, accountId] of [[otherWorkspaceId, id], [workspaceId, crypto.randomUUID()]] as const) {
            const missing = yield* Effect.flip(reports.healthReport(workspace, accountId))
            assert.instanceOf(missing, Missing)
            assert.strictEqual(missing.message, `No account ${accountId} in this workspace.`)
            assert.strictEqual(nextOf(missing.advice), "List the workspace's accounts with GET /v1/accounts.")
          }
        })))
  })
