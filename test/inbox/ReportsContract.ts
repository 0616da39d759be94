/**
 * What `Reports` promises the Health report's and the Daily brief's routes, run against the stored
 * reports (`ReportsStored.test.ts`, the core on a database) and against the in-memory ones the fast
 * route tests use (`ReportsMemory.test.ts`): the same expectations, so the fake cannot drift from
 * the service it stands in for. Accounts connect as the sandbox connects them (a premium seat,
 * without Sales Navigator, so no SSI is read); their invitations are recorded as syncing records
 * them, or as a `connect` job's ending does (with the person's name), the messages people sent as
 * syncing records them (`Messages.recordReceived`), and jobs are created with `Jobs` of the same
 * backend. Writes that must stay queued are kept out of the working hours (the rest of today is
 * closed), so that nothing runs on the stored side either.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Accounts } from "../../src/accounts/Accounts.ts"
import type { InvitationSent } from "../../src/domain/CommandResults.ts"
import { Missing } from "../../src/domain/Failures.ts"
import * as Time from "../../src/domain/Time.ts"
import type { TriageClass } from "../../src/domain/TriageClass.ts"
import { nextOf } from "../../src/http/ServiceErrors.ts"
import { Reports } from "../../src/inbox/Reports.ts"
import { Jobs } from "../../src/jobs/Jobs.ts"
import type { SyncedInvitation } from "../../src/network/Sync.ts"
import { Messages } from "../../src/people/Messages.ts"
import { sentBy } from "../people/MessagesContract.ts"
import type { Backend, TwoWorkspaces } from "../support/Backends.ts"

/** The two workspaces, and how connected accounts and the invitations they sent are made on the backend. */
export interface ReportsFixture extends TwoWorkspaces {
  /** A new account of the workspace, connected; its id. */
  readonly account: (workspaceId: string) => Effect.Effect<string>
  /** An invitation the account sent, recorded as syncing records it. */
  readonly synced: (accountId: string, invitation: SyncedInvitation) => Effect.Effect<void>
  /** The invitation a completed `connect` of the account sent, recorded as its ending records it. */
  readonly sent: (accountId: string, sent: InvitationSent) => Effect.Effect<void>
}

/** The profile the accounts connect with: a premium seat without Sales Navigator. */
export const premiumSeat = { tier: "premium", products: [], connections: 640 } as const

/** A new account of the workspace, connected as a premium seat; its id. */
export const connectedAccount = (workspaceId: string) =>
  Effect.gen(function*() {
    const accounts = yield* Accounts
    const { account } = yield* accounts.connect({ workspaceId, baseUrl: "http://127.0.0.1" })
    return (yield* accounts.completeConnection(workspaceId, account.id, premiumSeat)).id
  }).pipe(Effect.orDie)

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

const HOUR_MS = 3_600_000

/** An invitation to `name` the account's `connect` sent `hoursAgo` before `nowMs`, with `note`. */
const connectSent = (id: string, name: string, nowMs: number, hoursAgo: number, note: string | null = null): InvitationSent =>
  sentBy(`ACo-${id}`, name, Time.toIso(nowMs - hoursAgo * HOUR_MS), note, id)

/** The invitation `id`, accepted `hoursAgo` before `nowMs`, as syncing reports it. */
const acceptedSync = (id: string, nowMs: number, hoursAgo: number, sentHoursAgo = hoursAgo + 24): SyncedInvitation => {
  const at = Time.toIso(nowMs - hoursAgo * HOUR_MS)
  return {
    invitationId: id,
    providerId: `ACo-${id}`,
    note: null,
    status: "accepted",
    sentAt: Time.toIso(nowMs - sentHoursAgo * HOUR_MS),
    acceptedAt: at,
    resolvedAt: at
  }
}

/** A message `from` sent the account `hoursAgo` before `nowMs`, triaged as `triage`, as syncing records it. */
const receive = (accountId: string, from: string, nowMs: number, hoursAgo: number, triage: TriageClass, confidence = 0.95) =>
  Effect.gen(function*() {
    const recorded = yield* (yield* Messages).recordReceived(accountId, {
      chatId: `chat-${from}`,
      messageId: `msg-${from}-${hoursAgo}`,
      senderProviderId: from,
      text: `A ${triage} reply`,
      sentAt: Time.toIso(nowMs - hoursAgo * HOUR_MS),
      inReplyTo: null
    }, { class: triage, suggestedReply: `Answer to ${from}`, confidence })
    assert.isTrue(recorded)
  }).pipe(Effect.orDie)

/**
 * Puts the account in `mode`, open every weekday but today's (UTC), so that the rest of today is closed: writes queue
 * for the next opening, the start of the next UTC day, which it answers.
 */
const closedToday = (workspaceId: string, accountId: string, mode: "autopilot" | "approve") =>
  Effect.gen(function*() {
    const now = yield* Time.now
    const today = new Date(now.ms).getUTCDay() || 7
    yield* (yield* Accounts).update(workspaceId, accountId, {
      mode,
      workingHours: { days: [1, 2, 3, 4, 5, 6, 7].filter((day) => day !== today), from: "00:00", to: "23:59", timezone: "UTC" }
    })
    return (Math.floor(now.ms / DAY_MS) + 1) * DAY_MS
  }).pipe(Effect.orDie)

const connectTo = (workspaceId: string, accountId: string, person: string) =>
  Effect.gen(function*() {
    return yield* (yield* Jobs).create({ workspaceId, accountId, command: "connect", input: { person } })
  }).pipe(Effect.orDie)

export const reportsExpectations = <R>(backend: Backend<R, Reports | Accounts | Messages | Jobs, ReportsFixture>) =>
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

    it.effect("the Health report and the brief of an account of another workspace, or none, are not found", () =>
      backend.withFixture(({ workspaceId, otherWorkspaceId, account }) =>
        Effect.gen(function*() {
          const reports = yield* Reports
          const id = yield* account(workspaceId)
          for (const [workspace, accountId] of [[otherWorkspaceId, id], [workspaceId, crypto.randomUUID()]] as const) {
            const reads: ReadonlyArray<Effect.Effect<unknown, Missing>> = [
              reports.healthReport(workspace, accountId),
              reports.brief(workspace, accountId, 24)
            ]
            for (const report of reads) {
              const missing = yield* Effect.flip(report)
              assert.instanceOf(missing, Missing)
              assert.strictEqual(missing.message, `No account ${accountId} in this workspace.`)
              assert.strictEqual(nextOf(missing.advice), "List the workspace's accounts with GET /v1/accounts.")
            }
          }
        })))

    it.effect("the brief lists the replies in priority order within the look-back, each sender named by the invitations", () =>
      backend.withFixture(({ workspaceId, account, sent, synced }) =>
        Effect.gen(function*() {
          const reports = yield* Reports
          const id = yield* account(workspaceId)
          const now = yield* Time.now
          yield* sent(id, connectSent("inv-ada", "Ada Lovelace", now.ms, 72))
          yield* synced(id, acceptedSync("inv-ada", now.ms, 48, 72))
          yield* receive(id, "ACo-stranger", now.ms, 1, "out_of_office")
          yield* receive(id, "ACo-inv-ada", now.ms, 3, "meeting")
          yield* receive(id, "ACo-unsure", now.ms, 2, "interested", 0.3)
          yield* receive(id, "ACo-old", now.ms, 30, "objection")

          const brief = yield* reports.brief(workspaceId, id, 24)
          assert.deepStrictEqual(brief.replies.map((reply) => [reply.class, reply.from, reply.chatId]), [
            ["meeting", "Ada Lovelace", "chat-ACo-inv-ada"],
            ["interested", null, "chat-ACo-unsure"],
            ["out_of_office", null, "chat-ACo-stranger"]
          ])
          assert.deepInclude(brief.replies[0], {
            text: "A meeting reply",
            suggestedReply: "Answer to ACo-inv-ada",
            receivedAt: Time.toIso(now.ms - 3 * HOUR_MS),
            unsure: false
          })
          assert.isTrue(brief.replies[1]?.unsure)
          assert.strictEqual(
            brief.headline,
            "2 people are ready to talk (1 asks for a meeting): answer them first; 1 other reply to read; triage is unsure of 1 reply: read it yourself."
          )
          // Ada wrote: she is not waiting for a first message.
          assert.deepStrictEqual(brief.readyForFirstMessage, [])
          const longer = yield* reports.brief(workspaceId, id, 48)
          assert.deepStrictEqual(longer.replies.map((reply) => reply.class), ["meeting", "interested", "objection", "out_of_office"])
        })))

    it.effect("the brief lists the new connections nobody wrote to yet, the latest accepted first, each with an opener", () =>
      backend.withFixture(({ workspaceId, account, sent, synced }) =>
        Effect.gen(function*() {
          const id = yield* account(workspaceId)
          const now = yield* Time.now
          yield* sent(id, connectSent("inv-grace", "Grace Hopper", now.ms, 50, "Enjoyed your talk"))
          yield* synced(id, acceptedSync("inv-grace", now.ms, 20, 50))
          yield* synced(id, acceptedSync("inv-someone", now.ms, 5))
          yield* sent(id, connectSent("inv-alan", "Alan Turing", now.ms, 40))
          yield* synced(id, acceptedSync("inv-alan", now.ms, 10, 40))
          yield* receive(id, "ACo-inv-alan", now.ms, 2, "not_now")
          yield* sent(id, connectSent("inv-pending", "Barbara Liskov", now.ms, 4))

          const brief = yield* (yield* Reports).brief(workspaceId, id.toUpperCase(), 24)
          assert.strictEqual(brief.account.id, id)
          assert.deepStrictEqual(brief.readyForFirstMessage.map((ready) => [ready.providerId, ready.name, ready.acceptedAt]), [
            ["ACo-inv-someone", null, Time.toIso(now.ms - 5 * HOUR_MS)],
            ["ACo-inv-grace", "Grace Hopper", Time.toIso(now.ms - 20 * HOUR_MS)]
          ])
          assert.match(brief.readyForFirstMessage[0]?.suggestedOpener ?? "", /^Hi, thanks for connecting!/)
          assert.match(brief.readyForFirstMessage[1]?.suggestedOpener ?? "", /^Hi Grace, thanks for accepting my invitation\./)
          assert.strictEqual(brief.headline, "1 other reply to read; 2 new connections are ready for a first message.")
        })))

    it.effect("the brief counts the open jobs by status and kind, the approvals waiting, and says what tomorrow brings", () =>
      backend.withFixture(({ workspaceId, account }) =>
        Effect.gen(function*() {
          const reports = yield* Reports
          const id = yield* account(workspaceId)
          const opens = yield* closedToday(workspaceId, id, "autopilot")
          const tomorrow = Time.toIso(opens).slice(0, 10)
          const idle = yield* reports.brief(workspaceId, id, 24)
          assert.deepStrictEqual(idle.queue, { queued: 0, scheduled: 0, awaitingApproval: 0, byKind: {} })
          assert.strictEqual(idle.headline, "Nothing needs you: no replies in the last day, and the queue is empty.")
          assert.strictEqual(idle.tomorrow, `Nothing is expected to go out on ${tomorrow}.`)

          yield* connectTo(workspaceId, id, "ada-lovelace")
          yield* connectTo(workspaceId, id, "grace-hopper")
          const queued = yield* reports.brief(workspaceId, id, 24)
          assert.strictEqual(queued.queue.queued + queued.queue.scheduled, 2)
          assert.deepInclude(queued.queue, { awaitingApproval: 0, byKind: { connect: 2 } })
          assert.strictEqual(queued.approvals, 0)
          assert.deepStrictEqual(queued.workingHours, { openNow: false, nextOpening: Time.toIso(opens) })
          assert.strictEqual(queued.headline, `Nothing needs you: no replies in the last day, and 2 jobs wait for the working hours at ${Time.toIso(opens)}.`)
          assert.match(queued.tomorrow, new RegExp(`^Expected to go out on ${tomorrow}: 2 invitations\\. The queue is expected to be empty ${tomorrow} 00:0\\d UTC\\.$`))

          yield* closedToday(workspaceId, id, "approve")
          const waiting = yield* connectTo(workspaceId, id, "alan-turing")
          assert.strictEqual(waiting.status, "awaiting_approval")
          const brief = yield* reports.brief(workspaceId, id, 24)
          assert.deepInclude(brief.queue, { awaitingApproval: 1, byKind: { connect: 3 } })
          assert.strictEqual(brief.approvals, 1)
          assert.deepInclude(brief.account, { id, mode: "approve", health: "green", warmupDay: 1 })
          assert.strictEqual(brief.headline, "1 write waits for your approval.")
          assert.match(brief.tomorrow, new RegExp(`^Expected to go out on ${tomorrow}: 2 invitations\\.`))
          assert.strictEqual(brief.date, Time.toIso((yield* Time.now).ms).slice(0, 10))
          assert.deepStrictEqual(brief.budgets, (yield* (yield* Accounts).get(workspaceId, id)).budgets)
        })))
  })
