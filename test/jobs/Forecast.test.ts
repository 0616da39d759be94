/**
 * The Governor's rule on head-of-line blocking, and the forecast
 * (`GET /v1/accounts/{id}/forecast`) against what the Governor then does on
 * the sandbox's test clock.
 */
import { assert, layer } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { TestClock } from "effect/testing"
import type { Forecast } from "../../src/api/ForecastApi.ts"
import type { JobRecord } from "../../src/jobs/JobRow.ts"
import { localDate } from "../../src/domain/WorkingHours.ts"
import { Forecasts } from "../../src/jobs/Forecasts.ts"
import { Jobs } from "../../src/jobs/Jobs.ts"
import { memberFrom, relationTo } from "../../src/sandbox/SandboxPeople.ts"
import { rng } from "../../src/sandbox/Random.ts"
import { call, layer as serverLayer, newWorkspace } from "../support/TestServer.ts"
import { runLooks } from "./Looks.ts"
import { DAY, jobNow, nonAccepting, strangers, workspaceWithAccount } from "./support.ts"

const MINUTE = 60_000

/** The forecast as the API answers it. */
const forecastOf = (token: string, accountId: string, query = "") =>
  Effect.gen(function*() {
    const answer = yield* call("GET", `/v1/accounts/${accountId}/forecast${query}`, { token })
    assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
    const forecast: Forecast = answer.body.forecast
    return forecast
  })

const allJobs = (workspaceId: string, ids: ReadonlyArray<string>) => Effect.forEach(ids, (id) => jobNow(workspaceId, id))

const allFinished = (workspaceId: string, ids: ReadonlyArray<string>) =>
  Effect.map(allJobs(workspaceId, ids), (jobs) => jobs.every((job) => job.finishedAt !== null))

const setLimits = (token: string, accountId: string, limits: ReadonlyArray<Record<string, unknown>>) =>
  Effect.gen(function*() {
    const answer = yield* call("PUT", `/v1/accounts/${accountId}/limits`, { token, body: { limits } })
    assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
  })

/** Each job's real start beside its forecast start, in ms; and whether every job started on its forecast's local (UTC) day. */
const compare = (jobs: ReadonlyArray<JobRecord>, forecast: Forecast) => {
  const expected = new Map(forecast.writes.map((write) => [write.jobId, write.expectedStart]))
  const errors = jobs.map((job) => {
    const real = Date.parse(job.startedAt ?? "")
    const planned = Date.parse(expected.get(job.id) ?? "")
    assert.isFalse(Number.isNaN(real), `job ${job.id} (${job.kind}) started`)
    assert.isFalse(Number.isNaN(planned), `job ${job.id} (${job.kind}) was forecast`)
    assert.strictEqual(
      new Date(real).toISOString().slice(0, 10),
      new Date(planned).toISOString().slice(0, 10),
      `job ${job.id} (${job.kind}) started on its forecast day`
    )
    return Math.abs(real - planned)
  })
  return { mean: errors.reduce((sum, error) => sum + error, 0) / errors.length, worst: Math.max(...errors) }
}

const minutes = (ms: number) => (ms / MINUTE).toFixed(1)

/** Moves the test clock to the next Monday at `hour`:00 UTC, when weekday working hours from 09:00 are closed. */
const toNextMonday = (hour: number) =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const midnight = Math.floor(now / DAY) * DAY
    const daysToMonday = ((8 - new Date(midnight).getUTCDay()) % 7) || 7
    yield* TestClock.adjust(midnight + daysToMonday * DAY + hour * 3_600_000 - now)
  })

/** People the sandbox makes the account's connections, as profile addresses. */
const connectionsOf = (accountId: string, count: number): ReadonlyArray<string> => {
  const found: Array<string> = []
  for (let i = 0; found.length < count && i < 50_000; i++) {
    const ref = memberFrom(rng("forecast-connections", accountId, i))
    if (relationTo(accountId, ref.providerId).connectionDegree === 1) found.push(ref.profileUrl)
  }
  return found
}

/** Whether the job has finished. */
const finished = (workspaceId: string, id: string) => Effect.map(jobNow(workspaceId, id), (job) => job.finishedAt !== null)

const LONG = 600_000

layer(serverLayer())("the forecast and the head-of-line rule", (it) => {
  it.effect("a connect over its budget lets the five withdrawals behind it run within minutes", () =>
    Effect.gen(function*() {
      const { accountId, token, workspaceId } = yield* workspaceWithAccount()
      const people = strangers(accountId, 6, "head-of-line")
      const jobs = yield* Jobs
      yield* setLimits(token, accountId, [{ category: "invites", period: "daily", maxValue: 5 }])
      const invited = yield* Effect.forEach(people.slice(0, 5), (person) =>
        jobs.create({ workspaceId, accountId, command: "connect", input: { person } }))
      yield* runLooks(accountId, allFinished(workspaceId, invited.map((job) => job.id)))
      const sent = yield* allJobs(workspaceId, invited.map((job) => job.id))
      assert.deepStrictEqual(sent.map((job) => job.status), ["completed", "completed", "completed", "completed", "completed"])

      // Today's five invitations are spent: the sixth waits for tomorrow; the withdrawals spend another budget.
      const over = yield* jobs.create({ workspaceId, accountId, command: "connect", input: { person: people[5] } })
      const withdrawals = yield* Effect.forEach(people.slice(0, 5), (person) =>
        jobs.create({ workspaceId, accountId, command: "withdraw_invite", input: { person } }))
      const queuedAt = yield* Clock.currentTimeMillis
      const forecast = yield* forecastOf(token, accountId)
      const overForecast = forecast.writes.find((write) => write.jobId === over.id)
      assert.strictEqual(overForecast?.waitsFor, "budget")
      assert.strictEqual(Date.parse(overForecast?.expectedStart ?? ""), Math.floor(queuedAt / DAY) * DAY + DAY)

      const ids = withdrawals.map((job) => job.id)
      yield* runLooks(accountId, allFinished(workspaceId, ids))
      const done = yield* allJobs(workspaceId, ids)
      assert.deepStrictEqual(done.map((job) => job.status), ["completed", "completed", "completed", "completed", "completed"])
      const lastStart = Math.max(...done.map((job) => Date.parse(job.startedAt ?? "")))
      // Five writes, four pacing gaps of at most two minutes between them (and one after the last invitation).
      assert.isAtMost(lastStart - queuedAt, 10 * MINUTE, "the withdrawals ran within minutes")
      const waiting = yield* jobNow(workspaceId, over.id)
      assert.strictEqual(waiting.status, "scheduled")
      assert.strictEqual(waiting.waitingFor?.reason, "budget")
      compare(done, forecast)
    }), LONG)

  it.effect("a write about the same person keeps its place behind one waiting for its budget", () =>
    Effect.gen(function*() {
      const { accountId, token, workspaceId } = yield* workspaceWithAccount()
      const [person, other] = strangers(accountId, 2, "same-person")
      const jobs = yield* Jobs
      yield* setLimits(token, accountId, [{ category: "invites", period: "daily", maxValue: 0 }])
      const connect = yield* jobs.create({ workspaceId, accountId, command: "connect", input: { person } })
      const behind = yield* jobs.create({ workspaceId, accountId, command: "withdraw_invite", input: { person } })
      const free = yield* jobs.create({ workspaceId, accountId, command: "withdraw_invite", input: { person: other } })
      yield* runLooks(accountId, allFinished(workspaceId, [free.id]))
      assert.isNotNull((yield* jobNow(workspaceId, free.id)).startedAt)
      assert.isNull((yield* jobNow(workspaceId, behind.id)).startedAt)
      assert.isNull((yield* jobNow(workspaceId, connect.id)).startedAt)
      const forecast = yield* forecastOf(token, accountId)
      assert.deepStrictEqual(
        forecast.writes.map((write) => [write.jobId, write.waitsFor]),
        [[connect.id, "budget"], [behind.id, "budget"]]
      )
      // A budget of nothing every day: neither can be foreseen within the horizon.
      assert.isNull(forecast.emptyAt)
    }))

  it.effect("a write awaiting approval holds nobody back", () =>
    Effect.gen(function*() {
      const { accountId, workspaceId } = yield* workspaceWithAccount({ mode: "approve" })
      const [person, other] = strangers(accountId, 2, "approval-holds-nobody")
      const jobs = yield* Jobs
      const held = yield* jobs.create({ workspaceId, accountId, command: "connect", input: { person } })
      assert.strictEqual(held.status, "awaiting_approval")
      // Withdrawing needs no approval in approve mode; with no invitation to the person the network refuses it, after it ran.
      const next = yield* jobs.create({ workspaceId, accountId, command: "withdraw_invite", input: { person: other } })
      yield* runLooks(accountId, finished(workspaceId, next.id))
      assert.isNotNull((yield* jobNow(workspaceId, next.id)).startedAt)
      assert.strictEqual((yield* jobNow(workspaceId, held.id)).status, "awaiting_approval")
    }))

  it.effect("answers paged, with hypothetical writes, approvals apart, and errors in the envelope", () =>
    Effect.gen(function*() {
      const { accountId, token, workspaceId } = yield* workspaceWithAccount({ mode: "approve" })
      const jobs = yield* Jobs
      const people = strangers(accountId, 3, "paging")
      // Withdrawals have no budget: they wait (and cannot be foreseen), so none runs while the test looks.
      yield* setLimits(token, accountId, [{ category: "invite_withdrawals", period: "daily", maxValue: 0 }])
      const withdrawals = yield* Effect.forEach(people, (person) =>
        jobs.create({ workspaceId, accountId, command: "withdraw_invite", input: { person } }))
      const held = yield* jobs.create({ workspaceId, accountId, command: "create_post", input: { text: "Hello" } })
      assert.strictEqual(held.status, "awaiting_approval")

      const first = yield* forecastOf(token, accountId, "?limit=2&assume=connect:30,create_post:3")
      assert.strictEqual(first.total, 3)
      assert.strictEqual(first.writes.length, 2)
      assert.isNotNull(first.nextCursor)
      assert.deepStrictEqual(first.awaitingApproval.map((write) => write.jobId), [held.id])
      assert.match(first.awaitingApproval[0].summary, /^after approval, at the earliest /)
      assert.deepStrictEqual(first.assumed.map((line) => [line.command, line.count]), [["connect", 30], ["create_post", 3]])
      // Premium: 20 invitations a day, so the 30th goes out on another day than the first.
      const [connects] = first.assumed
      assert.notStrictEqual(connects.firstStart?.slice(0, 10), connects.lastStart?.slice(0, 10))
      assert.strictEqual(first.pacingGapSeconds, 82.5)
      const second = yield* forecastOf(token, accountId, `?limit=2&cursor=${first.nextCursor}`)
      assert.strictEqual(second.writes.length, 1)
      assert.isNull(second.nextCursor)
      assert.deepStrictEqual(
        [...first.writes, ...second.writes].map((write) => write.jobId).sort(),
        withdrawals.map((job) => job.id).sort()
      )
      // Nothing was created.
      const listed = yield* call("GET", `/v1/jobs?account=${accountId}&limit=50`, { token })
      assert.strictEqual(listed.body.jobs.length, 4)

      const refusals: ReadonlyArray<readonly [string, number, string]> = [
        ["/v1/accounts/not-a-uuid/forecast", 400, "badRequest"],
        ["/v1/accounts/00000000-0000-4000-8000-000000000000/forecast", 404, "notFound"],
        [`/v1/accounts/${accountId}/forecast?assume=connect`, 400, "badRequest"],
        [`/v1/accounts/${accountId}/forecast?assume=get_profile:3`, 422, "unprocessable"],
        [`/v1/accounts/${accountId}/forecast?assume=connect:4000,send_message:4000`, 422, "unprocessable"],
        [`/v1/accounts/${accountId}/forecast?limit=0`, 400, "badRequest"],
        [`/v1/accounts/${accountId}/forecast?cursor=bm90LW91cnM`, 422, "unprocessable"]
      ]
      for (const [path, status, type] of refusals) {
        const answer = yield* call("GET", path, { token })
        assert.strictEqual(answer.status, status, `${path}: ${JSON.stringify(answer.body)}`)
        assert.strictEqual(answer.body.ok, false)
        assert.strictEqual(answer.body.error.type, type, path)
        assert.isString(answer.body.error.next)
      }
      const readCommand = yield* call("GET", `/v1/accounts/${accountId}/forecast?assume=get_profile:3`, { token })
      assert.include(readCommand.body.error.message, "get_profile is not a write command")
      // Another workspace's account is not found.
      const stranger = yield* newWorkspace("Other")
      const foreign = yield* call("GET", `/v1/accounts/${accountId}/forecast`, { token: stranger.keyValue })
      assert.strictEqual(foreign.status, 404)
    }))

  it.effect("kept true: a mixed backlog starts each job on its forecast day", () =>
    Effect.gen(function*() {
      const weekdays = { days: [1, 2, 3, 4, 5], from: "09:00", to: "18:00", timezone: "UTC" }
      const { accountId, token, workspaceId } = yield* workspaceWithAccount({ workingHours: weekdays, autoWithdrawDays: null })
      // Invitations over their budget (4 a day for 10), withdrawals (2 a day, each after its own invitation), messages, posts (2 a day).
      // Created before the account opens, so the forecast sees every job queued.
      yield* toNextMonday(6)
      yield* setLimits(token, accountId, [
        { category: "invites", period: "daily", maxValue: 4 },
        { category: "invite_withdrawals", period: "daily", maxValue: 2 }
      ])
      // The three withdrawn are people who never accept: an accepted invitation cannot be withdrawn.
      const withdrawn = ["mixed-1", "mixed-2", "mixed-3"].map((salt) => nonAccepting(accountId, salt))
      const people = [...new Set([...withdrawn, ...strangers(accountId, 10, "mixed-backlog")])].slice(0, 10)
      assert.deepStrictEqual(people.slice(0, 3), withdrawn)
      const jobs = yield* Jobs
      const created: Array<JobRecord> = []
      for (const person of people) created.push(yield* jobs.create({ workspaceId, accountId, command: "connect", input: { person } }))
      for (const person of people.slice(0, 3)) {
        created.push(yield* jobs.create({ workspaceId, accountId, command: "withdraw_invite", input: { person } }))
      }
      for (const person of connectionsOf(accountId, 3)) {
        created.push(yield* jobs.create({ workspaceId, accountId, command: "send_message", input: { person, text: "Good to see you here." } }))
      }
      for (const n of [1, 2, 3, 4]) {
        created.push(yield* jobs.create({ workspaceId, accountId, command: "create_post", input: { text: `Post ${n}` } }))
      }
      const forecast = yield* forecastOf(token, accountId)
      assert.strictEqual(forecast.total, created.length)
      assert.isNotNull(forecast.emptyAt)
      // Where people look: the daily brief's line on tomorrow, and the job page's sentence.
      const brief = yield* call("GET", `/v1/accounts/${accountId}/brief`, { token })
      const tuesday = localDate("UTC", (yield* Clock.currentTimeMillis) + DAY)
      assert.match(brief.body.brief.tomorrow, new RegExp(`^Expected to go out on ${tuesday}: 4 invitations, `))
      const lastInvitation = created[people.length - 1]
      const sentence = yield* (yield* Forecasts).ofJob(workspaceId, accountId, lastInvitation.id)
      assert.match(sentence ?? "", /^expected around Wednesday 09:\d\d \(UTC\), after 9 invitations ahead of it/)
      const ids = created.map((job) => job.id)
      yield* runLooks(accountId, allFinished(workspaceId, ids))
      const done = yield* allJobs(workspaceId, ids)
      assert.isTrue(done.every((job) => job.status === "completed"), JSON.stringify(done.map((job) => [job.kind, job.status, job.error])))
      const { mean, worst } = compare(done, forecast)
      console.log(`mixed backlog of ${done.length} writes over ${forecast.days.length} days: mean error ${minutes(mean)} min, worst ${minutes(worst)} min`)
    }), LONG)

  it.effect("kept true: 300 invitations on a new account, warming up, day by day", () =>
    Effect.gen(function*() {
      const { keyValue: token, workspace } = yield* newWorkspace()
      const workspaceId = workspace.id
      const created = yield* call("POST", "/v1/accounts/connect", { token, body: { label: "New" } })
      const accountId: string = created.body.account.id
      const connected = yield* call("POST", `/v1/sandbox/accounts/${accountId}/complete-connection`, {
        token,
        body: { tier: "premium", connections: 300 }
      })
      assert.strictEqual(connected.status, 200, JSON.stringify(connected.body))
      const patched = yield* call("PATCH", `/v1/accounts/${accountId}`, {
        token,
        body: { mode: "autopilot", minInviteQuality: 0, autoWithdrawDays: null }
      })
      assert.strictEqual(patched.status, 200, JSON.stringify(patched.body))
      assert.strictEqual(patched.body.account.status, "warming")
      const jobs = yield* Jobs
      yield* toNextMonday(6)
      const ids: Array<string> = []
      for (const person of strangers(accountId, 300, "warm-up-backlog")) {
        ids.push((yield* jobs.create({ workspaceId, accountId, command: "connect", input: { person } })).id)
      }
      const forecast = yield* forecastOf(token, accountId, "?limit=1000")
      assert.strictEqual(forecast.total, 300)
      // One category: the invitations go in creation order, so the last one finishing ends the run.
      yield* runLooks(accountId, finished(workspaceId, ids[ids.length - 1]), 20_000)
      const done = yield* allJobs(workspaceId, ids)
      assert.isTrue(done.every((job) => job.status === "completed"), JSON.stringify(done.filter((job) => job.status !== "completed").map((job) => job.error)))
      const { mean, worst } = compare(done, forecast)
      // Day by day: as many invitations each day as forecast.
      const perDay = (starts: ReadonlyArray<string | null>) => {
        const days = new Map<string, number>()
        for (const start of starts) if (start !== null) days.set(start.slice(0, 10), (days.get(start.slice(0, 10)) ?? 0) + 1)
        return [...days]
      }
      assert.deepStrictEqual(perDay(done.map((job) => job.startedAt)), perDay(forecast.writes.map((write) => write.expectedStart)))
      console.log(`300 invitations while warming up, over ${forecast.days.length} working days: mean error ${minutes(mean)} min, worst ${minutes(worst)} min`)
    }), LONG)
})
