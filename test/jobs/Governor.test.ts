import { assert, layer } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { Outbox } from "../../src/events/Outbox.ts"
import { Approvals } from "../../src/approvals/Approvals.ts"
import { Jobs } from "../../src/jobs/Jobs.ts"
import { PACING_MAX_MS, PACING_MIN_MS } from "../../src/domain/Job.ts"
import { call, layer as serverLayer } from "../support/TestServer.ts"
import { DAY, jobAfter, jobNow, jobWhen, settle, strangers, workspaceWithAccount } from "./support.ts"

const post = (text: string) => ({ text })

layer(serverLayer())("the Governor", (it) => {
  it.effect("autopilot runs a write at once and records its result, spend and event", () =>
    Effect.gen(function*() {
      const { workspaceId, accountId } = yield* workspaceWithAccount()
      const jobs = yield* Jobs
      const created = yield* jobs.create({ workspaceId, accountId, command: "create_post", input: post("Hello") })
      assert.include(["queued", "running", "completed"], created.status)
      const done = yield* jobAfter(workspaceId, created.id)
      assert.strictEqual(done.status, "completed", JSON.stringify(done))
      assert.isNotNull(done.result)
      assert.isNotNull(done.startedAt)
      assert.isNotNull(done.finishedAt)
      const events = yield* (yield* Outbox).list(workspaceId, { type: "job.completed" })
      assert.deepStrictEqual(events.map((e) => (e.data as { jobId: string }).jobId), [created.id])
      const sql = yield* SqlClient.SqlClient
      const spent = yield* sql<{ units: number }>`SELECT units FROM budget_spend WHERE job_id = ${created.id}`
      assert.deepStrictEqual(spent.map((r) => r.units), [1])
    }))

  it.effect("writes of one account run one at a time, spaced by a randomised pause", () =>
    Effect.gen(function*() {
      const { workspaceId, accountId } = yield* workspaceWithAccount()
      const jobs = yield* Jobs
      const a = yield* jobs.create({ workspaceId, accountId, command: "create_post", input: post("one") })
      const b = yield* jobs.create({ workspaceId, accountId, command: "create_post", input: post("two") })
      assert.strictEqual((yield* jobAfter(workspaceId, a.id)).status, "completed")
      const waiting = yield* jobWhen(workspaceId, b.id, (job) => job.status !== "queued")
      assert.strictEqual(waiting.status, "scheduled", JSON.stringify(waiting))
      assert.strictEqual(waiting.waitingFor?.reason, "pacing")
      const first = yield* jobNow(workspaceId, a.id)
      const gap = Date.parse(waiting.eta ?? "") - Date.parse(first.finishedAt ?? "")
      assert.isTrue(gap >= PACING_MIN_MS && gap <= PACING_MAX_MS, `gap ${gap}`)
      yield* TestClock.adjust(PACING_MAX_MS)
      const second = yield* jobAfter(workspaceId, b.id)
      assert.strictEqual(second.status, "completed")
      assert.isTrue(Date.parse(second.startedAt ?? "") >= Date.parse(first.finishedAt ?? "") + PACING_MIN_MS)
    }))

  it.effect("approve mode: a write waits for a person, who can change its text", () =>
    Effect.gen(function*() {
      const { workspaceId, accountId } = yield* workspaceWithAccount({ mode: "approve" })
      const [person] = strangers(accountId, 1)
      const jobs = yield* Jobs
      const approvals = yield* Approvals
      const job = yield* jobs.create({ workspaceId, accountId, command: "connect", input: { person, note: "Hi there" } })
      assert.strictEqual(job.status, "awaiting_approval")
      assert.deepStrictEqual(job.waitingFor, { reason: "approval", until: null })
      const pending = yield* approvals.list(workspaceId, { status: "pending", limit: 50 })
      const approval = pending.approvals.find((a) => a.jobId === job.id)
      assert.isDefined(approval)
      assert.strictEqual(approval?.target, person)
      assert.strictEqual(approval?.text, "Hi there")
      const decided = yield* approvals.approve(workspaceId, approval?.id ?? "", "Hello, glad to connect", "key:test")
      assert.strictEqual(decided.approval.status, "approved")
      const done = yield* jobAfter(workspaceId, job.id)
      assert.strictEqual(done.status, "completed", JSON.stringify(done))
      assert.strictEqual((done.result as { note: string }).note, "Hello, glad to connect")
    }))

  it.effect("approve mode lets withdrawing through; assist mode holds it too", () =>
    Effect.gen(function*() {
      const jobs = yield* Jobs
      const approve = yield* workspaceWithAccount({ mode: "approve" })
      const withdraw = yield* jobs.create({
        workspaceId: approve.workspaceId,
        accountId: approve.accountId,
        command: "withdraw_invite",
        input: { invitationId: "00000000-0000-4000-8000-000000000000" }
      })
      assert.notStrictEqual(withdraw.status, "awaiting_approval")
      const assist = yield* workspaceWithAccount({ mode: "assist" })
      const held = yield* jobs.create({
        workspaceId: assist.workspaceId,
        accountId: assist.accountId,
        command: "withdraw_invite",
        input: { invitationId: "00000000-0000-4000-8000-000000000000" }
      })
      assert.strictEqual(held.status, "awaiting_approval")
      const read = yield* jobs.create({
        workspaceId: assist.workspaceId,
        accountId: assist.accountId,
        command: "ssi",
        input: {}
      })
      assert.notStrictEqual(read.status, "awaiting_approval")
    }))

  it.effect("a rejected approval fails its job with job.failed; a cancelled job rejects its approval", () =>
    Effect.gen(function*() {
      const { workspaceId, accountId } = yield* workspaceWithAccount({ mode: "approve" })
      const [a, b] = strangers(accountId, 2)
      const jobs = yield* Jobs
      const approvals = yield* Approvals
      const first = yield* jobs.create({ workspaceId, accountId, command: "connect", input: { person: a } })
      const second = yield* jobs.create({ workspaceId, accountId, command: "connect", input: { person: b } })
      const rejected = yield* approvals.reject(workspaceId, first.approvalId ?? "", "not our audience", "key:test")
      assert.strictEqual(rejected.approval.status, "rejected")
      assert.strictEqual(rejected.job.status, "failed")
      assert.strictEqual((rejected.job.error as { type: string }).type, "approvalRejected")
      const cancelled = yield* jobs.cancel(workspaceId, second.id)
      assert.strictEqual(cancelled.status, "cancelled")
      const after = yield* approvals.list(workspaceId, { status: "rejected", limit: 50 })
      assert.includeMembers(after.approvals.map((x) => x.jobId), [first.id, second.id])
      const failed = yield* (yield* Outbox).list(workspaceId, { type: "job.failed" })
      assert.includeMembers(failed.map((e) => (e.data as { jobId: string }).jobId), [first.id, second.id])
      const again = yield* Effect.flip(approvals.approve(workspaceId, first.approvalId ?? "", undefined, "key:test"))
      assert.strictEqual(again._tag, "WrongState")
    }))

  it.effect("an approval expires after 72 hours: the job fails and approving answers approvalExpired", () =>
    Effect.gen(function*() {
      const { workspaceId, accountId } = yield* workspaceWithAccount({ mode: "approve" })
      const [person] = strangers(accountId, 1)
      const jobs = yield* Jobs
      const approvals = yield* Approvals
      const job = yield* jobs.create({ workspaceId, accountId, command: "connect", input: { person } })
      yield* TestClock.adjust(71 * 3_600_000)
      assert.strictEqual((yield* jobNow(workspaceId, job.id)).status, "awaiting_approval")
      yield* TestClock.adjust(2 * 3_600_000)
      const failed = yield* jobWhen(workspaceId, job.id, (job) => job.status !== "awaiting_approval")
      assert.strictEqual(failed.status, "failed")
      assert.strictEqual((failed.error as { type: string }).type, "approvalExpired")
      const refused = yield* Effect.flip(approvals.approve(workspaceId, job.approvalId ?? "", undefined, "key:test"))
      assert.strictEqual(refused._tag, "Expired")
    }))

  it.effect("off hours: queue waits for the opening, reject fails at once, run ignores the hours", () =>
    Effect.gen(function*() {
      const jobs = yield* Jobs
      // Opens at 09:00 UTC on weekdays only; the test clock's time of day is whatever the warm-up left.
      const hours = { days: [1, 2, 3, 4, 5], from: "09:00", to: "09:01", timezone: "UTC" }
      // Every account first: setting one up moves the clock by its warm-up, which would carry a waiting job along.
      const queued = yield* workspaceWithAccount({ workingHours: hours, offHoursPolicy: "queue" })
      const rejecting = yield* workspaceWithAccount({ workingHours: hours, offHoursPolicy: "reject" })
      const running = yield* workspaceWithAccount({ workingHours: hours, offHoursPolicy: "run" })

      const q = yield* jobs.create({ ...queued, command: "create_post", input: post("q") })
      const waiting = yield* jobWhen(queued.workspaceId, q.id, (job) => job.status !== "queued")
      assert.strictEqual(waiting.status, "scheduled", JSON.stringify(waiting))
      assert.strictEqual(waiting.waitingFor?.reason, "working_hours")
      const eta = new Date(waiting.eta ?? "")
      assert.strictEqual(eta.getUTCHours(), 9)
      assert.include([1, 2, 3, 4, 5], eta.getUTCDay())

      const r = yield* jobs.create({ ...rejecting, command: "create_post", input: post("r") })
      const failed = yield* jobAfter(rejecting.workspaceId, r.id)
      assert.strictEqual(failed.status, "failed")
      assert.strictEqual((failed.error as { type: string }).type, "offHours")

      const x = yield* jobs.create({ ...running, command: "create_post", input: post("x") })
      assert.strictEqual((yield* jobAfter(running.workspaceId, x.id)).status, "completed")

      const now = yield* Clock.currentTimeMillis
      yield* TestClock.adjust(Date.parse(waiting.eta ?? "") - now)
      assert.strictEqual((yield* jobAfter(queued.workspaceId, q.id)).status, "completed")
    }))

  it.effect("a used-up daily budget schedules the write for the next working day, with the eta", () =>
    Effect.gen(function*() {
      const { token, workspaceId, accountId } = yield* workspaceWithAccount()
      const limits = yield* call("PUT", `/v1/accounts/${accountId}/limits`, {
        token,
        body: { limits: [{ category: "posts", period: "daily", maxValue: 1 }] }
      })
      assert.strictEqual(limits.status, 200, JSON.stringify(limits.body))
      const jobs = yield* Jobs
      const first = yield* jobs.create({ workspaceId, accountId, command: "create_post", input: post("1") })
      assert.strictEqual((yield* jobAfter(workspaceId, first.id)).status, "completed")
      const second = yield* jobs.create({ workspaceId, accountId, command: "create_post", input: post("2") })
      yield* TestClock.adjust(PACING_MAX_MS)
      const waiting = yield* jobWhen(workspaceId, second.id, (job) => job.waitingFor?.reason === "budget")
      assert.strictEqual(waiting.waitingFor?.reason, "budget", JSON.stringify(waiting))
      const now = yield* Clock.currentTimeMillis
      const nextMidnight = Math.floor(now / DAY) * DAY + DAY
      assert.strictEqual(Date.parse(waiting.eta ?? ""), nextMidnight)
      yield* TestClock.adjust(nextMidnight - now)
      assert.strictEqual((yield* jobAfter(workspaceId, second.id)).status, "completed")
    }))

  it.effect("pausing holds the queue and reads still run; resuming lets the writes go on", () =>
    Effect.gen(function*() {
      const { token, workspaceId, accountId } = yield* workspaceWithAccount()
      const jobs = yield* Jobs
      const first = yield* jobs.create({ workspaceId, accountId, command: "create_post", input: post("1") })
      assert.strictEqual((yield* jobAfter(workspaceId, first.id)).status, "completed")
      const second = yield* jobs.create({ workspaceId, accountId, command: "create_post", input: post("2") })
      assert.strictEqual((yield* call("POST", `/v1/accounts/${accountId}/pause`, { token })).status, 200)
      yield* TestClock.adjust(PACING_MAX_MS)
      yield* settle
      const held = yield* jobNow(workspaceId, second.id)
      assert.strictEqual(held.status, "queued", JSON.stringify(held))
      assert.strictEqual(held.waitingFor?.reason, "account_paused")
      const read = yield* jobs.create({ workspaceId, accountId, command: "ssi", input: {} })
      assert.strictEqual((yield* jobAfter(workspaceId, read.id)).status, "completed")
      assert.strictEqual((yield* call("POST", `/v1/accounts/${accountId}/resume`, { token })).status, 200)
      assert.strictEqual((yield* jobAfter(workspaceId, second.id)).status, "completed")
    }))

  it.effect("many accounts run in parallel, each one write at a time", () =>
    Effect.gen(function*() {
      const jobs = yield* Jobs
      const accounts = yield* Effect.forEach([1, 2, 3], () => workspaceWithAccount(), { concurrency: 1 })
      const created = yield* Effect.forEach(accounts, (account) =>
        Effect.forEach([1, 2], (n) =>
          jobs.create({ ...account, command: "create_post", input: post(`post ${n}`) })))
      for (let round = 0; round < 3; round++) {
        yield* settle
        yield* TestClock.adjust(PACING_MAX_MS)
      }
      for (const [i, account] of accounts.entries()) {
        const [a, b] = created[i]
        const first = yield* jobAfter(account.workspaceId, a.id)
        const second = yield* jobAfter(account.workspaceId, b.id)
        assert.strictEqual(first.status, "completed")
        assert.strictEqual(second.status, "completed")
        // Never overlapping: the second starts after the first finished.
        assert.isTrue(Date.parse(second.startedAt ?? "") >= Date.parse(first.finishedAt ?? ""))
      }
    }))

  it.effect("removing the account cancels its queued work", () =>
    Effect.gen(function*() {
      const { token, workspaceId, accountId } = yield* workspaceWithAccount({ mode: "approve" })
      const [person] = strangers(accountId, 1)
      const jobs = yield* Jobs
      const job = yield* jobs.create({ workspaceId, accountId, command: "connect", input: { person } })
      assert.strictEqual((yield* call("DELETE", `/v1/accounts/${accountId}`, { token })).status, 200)
      const after = yield* jobNow(workspaceId, job.id)
      assert.strictEqual(after.status, "cancelled")
    }))

})
