/**
 * What `Forecasts` promises its callers, run against the stored forecast (`Forecasts.test.ts`, the
 * whole core on a database) and against the in-memory one the fast route test uses
 * (`ForecastsMemory.test.ts`, on the in-memory jobs): the same expectations, so the fake cannot
 * drift from the service it stands in for. The writes are created with `Jobs` of the same backend.
 * The account's working hours are closed for the rest of the day the test runs on (every weekday
 * but today's), so that nothing runs on the stored side either and the forecast is what it says:
 * the first write at the next local midnight, each one after a pacing gap, a budget spent waiting
 * for the next day.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Accounts } from "../../src/accounts/Accounts.ts"
import type { Mode } from "../../src/domain/Account.ts"
import { Invalid, Missing } from "../../src/domain/Failures.ts"
import type { Forecast } from "../../src/domain/ForecastRecord.ts"
import type { LimitOverride } from "../../src/domain/Limits.ts"
import * as Time from "../../src/domain/Time.ts"
import { EXPECTED_GAP_MS } from "../../src/jobs/Forecast.ts"
import { Forecasts } from "../../src/jobs/Forecasts.ts"
import type { AccountSeed } from "../../src/jobs/ForecastsMemory.ts"
import { Jobs } from "../../src/jobs/Jobs.ts"
import type { Backend, TwoWorkspaces } from "../support/Backends.ts"

const DAY_MS = 86_400_000

/**
 * Two workspaces, and how to make an account in one of them: connected, past its warm-up, green,
 * with the seed's settings. Making it may move the clock, by whole weeks only.
 */
export interface ForecastsFixture extends TwoWorkspaces {
  readonly account: (seed: Omit<AccountSeed, "accountId">) => Effect.Effect<string>
}

const THREE_WEEKS_MS = 21 * 86_400_000

/**
 * A new account of `accounts`, connected and completed as the sandbox completes one, its warm-up passed by three
 * weeks (`pass` moves the backend's clock; whole weeks: the spec's working hours depend on the weekday), then set as
 * `seed` asks; its id. The fixture of a backend whose accounts are the `Accounts` service's.
 */
export const seededAccount = <R>(
  accounts: Accounts["Service"],
  seed: Omit<AccountSeed, "accountId">,
  pass: (ms: number) => Effect.Effect<unknown, unknown, R>
) =>
  Effect.gen(function*() {
    const { account } = yield* accounts.connect({ workspaceId: seed.workspaceId, baseUrl: "http://127.0.0.1" })
    yield* accounts.completeConnection(seed.workspaceId, account.id, { tier: seed.tier ?? "premium", connections: 900 })
    yield* pass(THREE_WEEKS_MS)
    yield* accounts.update(seed.workspaceId, account.id, {
      workingHours: seed.workingHours,
      offHoursPolicy: seed.offHoursPolicy,
      mode: seed.mode
    })
    if (seed.overrides !== undefined && seed.overrides.length > 0) {
      yield* accounts.setLimits(seed.workspaceId, account.id, seed.overrides)
    }
    return account.id
  }).pipe(Effect.orDie)

/**
 * An account whose working hours keep the rest of today closed (UTC, every weekday but today's),
 * made by the fixture (which may move the clock by whole weeks); now, and the next opening: the
 * start of the next UTC day.
 */
const closedToday = (
  fixture: ForecastsFixture,
  workspaceId: string,
  mode: Mode = "autopilot",
  overrides: ReadonlyArray<LimitOverride> = []
) =>
  Effect.gen(function*() {
    const today = new Date((yield* Time.now).ms).getUTCDay() || 7
    const accountId = yield* fixture.account({
      workspaceId,
      mode,
      workingHours: { days: [1, 2, 3, 4, 5, 6, 7].filter((day) => day !== today), from: "00:00", to: "23:59", timezone: "UTC" },
      offHoursPolicy: "queue",
      overrides
    })
    const now = yield* Time.now
    return { accountId, opens: (Math.floor(now.ms / DAY_MS) + 1) * DAY_MS, now }
  })

const write = (workspaceId: string, accountId: string, command: "connect" | "send_message", input: Record<string, unknown>) =>
  Effect.gen(function*() {
    return yield* (yield* Jobs).create({ workspaceId, accountId, command, input })
  }).pipe(Effect.orDie)

const connect = (workspaceId: string, accountId: string, person: string) => write(workspaceId, accountId, "connect", { person })

const starts = (forecast: Forecast) => forecast.writes.map((entry) => entry.expectedStart)

export const forecastsExpectations = <R>(backend: Backend<R, Forecasts | Jobs, ForecastsFixture>) =>
  layer(backend.services)(`Forecasts (${backend.name})`, (it) => {
    it.effect("writes are forecast in creation order, from the next opening, a pacing gap apart, a page at a time", () =>
      backend.withFixture((fixture) =>
        Effect.gen(function*() {
          const forecasts = yield* Forecasts
          const { accountId, opens, now } = yield* closedToday(fixture, fixture.workspaceId)
          const ids = yield* Effect.forEach(["ada-lovelace", "grace-hopper", "alan-turing"], (person) =>
            Effect.map(connect(fixture.workspaceId, accountId, person), (job) => job.id))
          const first = yield* forecasts.forecast(fixture.workspaceId, accountId, { limit: 2 })
          assert.strictEqual(first.accountId, accountId)
          assert.strictEqual(first.from, now.iso)
          assert.strictEqual(first.timezone, "UTC")
          assert.strictEqual(first.total, 3)
          assert.strictEqual(first.beyondCap, 0)
          assert.deepStrictEqual(first.writes.map((entry) => [entry.jobId, entry.kind, entry.category, entry.ahead]), [
            [ids[0], "connect", "invites", 0],
            [ids[1], "connect", "invites", 1]
          ])
          assert.deepStrictEqual(first.writes.map((entry) => entry.waitsFor), ["working_hours", "pacing"])
          assert.deepStrictEqual(starts(first), [Time.toIso(opens), Time.toIso(opens + EXPECTED_GAP_MS)])
          assert.strictEqual(first.emptyAt, Time.toIso(opens + 2 * EXPECTED_GAP_MS))
          assert.deepStrictEqual(first.days.map((day) => [day.date, day.categories.map((entry) => [entry.category, entry.writes])]), [
            [Time.toIso(opens).slice(0, 10), [["invites", 3]]]
          ])
          assert.isString(first.nextCursor)
          const second = yield* forecasts.forecast(fixture.workspaceId, accountId, { limit: 2, cursor: first.nextCursor ?? "" })
          assert.deepStrictEqual(second.writes.map((entry) => [entry.jobId, entry.ahead]), [[ids[2], 2]])
          assert.strictEqual(second.nextCursor, null)
          // A cancelled write is no longer forecast: the one behind it takes its place.
          yield* (yield* Jobs).cancel(fixture.workspaceId, ids[0] ?? "").pipe(Effect.orDie)
          const after = yield* forecasts.forecast(fixture.workspaceId, accountId, {})
          assert.deepStrictEqual(after.writes.map((entry) => [entry.jobId, entry.expectedStart]), [
            [ids[1], Time.toIso(opens)],
            [ids[2], Time.toIso(opens + EXPECTED_GAP_MS)]
          ])
        })))

    it.effect("a write past its daily budget waits for the next day; a write of another category behind it does not", () =>
      backend.withFixture((fixture) =>
        Effect.gen(function*() {
          const { accountId, opens } = yield* closedToday(fixture, fixture.workspaceId, "autopilot", [
            { category: "invites", period: "daily", maxValue: 1, isEnabled: true }
          ])
          const first = yield* connect(fixture.workspaceId, accountId, "ada-lovelace")
          const second = yield* connect(fixture.workspaceId, accountId, "grace-hopper")
          const message = yield* write(fixture.workspaceId, accountId, "send_message", { chatId: "chat-1", text: "Hello" })
          const forecast = yield* (yield* Forecasts).forecast(fixture.workspaceId, accountId, {})
          const byJob = new Map(forecast.writes.map((entry) => [entry.jobId, entry]))
          assert.strictEqual(byJob.get(first.id)?.expectedStart, Time.toIso(opens))
          assert.strictEqual(byJob.get(message.id)?.expectedStart, Time.toIso(opens + EXPECTED_GAP_MS))
          assert.strictEqual(byJob.get(second.id)?.waitsFor, "budget")
          assert.strictEqual(byJob.get(second.id)?.expectedStart, Time.toIso(opens + DAY_MS))
          assert.deepStrictEqual(forecast.writes.map((entry) => entry.jobId), [first.id, message.id, second.id])
          const invites = forecast.days.map((day) => day.categories.find((entry) => entry.category === "invites"))
          assert.deepStrictEqual(invites.map((entry) => [entry?.writes, entry?.budget]), [[1, 1], [1, 1]])
        })))

    it.effect("a write awaiting approval is listed apart, with when it could start if approved now, and holds nobody back", () =>
      backend.withFixture((fixture) =>
        Effect.gen(function*() {
          const { accountId, opens, now } = yield* closedToday(fixture, fixture.workspaceId, "approve")
          const job = yield* connect(fixture.workspaceId, accountId, "ada-lovelace")
          assert.strictEqual(job.status, "awaiting_approval")
          const forecast = yield* (yield* Forecasts).forecast(fixture.workspaceId, accountId, {})
          assert.strictEqual(forecast.total, 0)
          assert.deepStrictEqual(forecast.writes, [])
          assert.strictEqual(forecast.emptyAt, now.iso)
          assert.deepStrictEqual(forecast.awaitingApproval.map((entry) => [entry.jobId, entry.category, entry.earliestStart]), [
            [job.id, "invites", Time.toIso(opens)]
          ])
        })))

    it.effect("assumed writes are forecast after the queue without being created", () =>
      backend.withFixture((fixture) =>
        Effect.gen(function*() {
          const { accountId, opens } = yield* closedToday(fixture, fixture.workspaceId)
          yield* connect(fixture.workspaceId, accountId, "ada-lovelace")
          const forecast = yield* (yield* Forecasts).forecast(fixture.workspaceId, accountId, { assume: "connect:3" })
          assert.strictEqual(forecast.total, 1)
          assert.deepStrictEqual(forecast.assumed, [{
            command: "connect",
            count: 3,
            category: "invites",
            firstStart: Time.toIso(opens + EXPECTED_GAP_MS),
            lastStart: Time.toIso(opens + 3 * EXPECTED_GAP_MS)
          }])
          assert.strictEqual(forecast.emptyAt, Time.toIso(opens + 3 * EXPECTED_GAP_MS))
          const again = yield* (yield* Forecasts).forecast(fixture.workspaceId, accountId, {})
          assert.strictEqual(again.total, 1)
          assert.deepStrictEqual(again.assumed, [])
        })))

    it.effect("an unknown account, or another workspace's, is Missing", () =>
      backend.withFixture((fixture) =>
        Effect.gen(function*() {
          const forecasts = yield* Forecasts
          const { accountId: elsewhere } = yield* closedToday(fixture, fixture.otherWorkspaceId)
          for (const accountId of [crypto.randomUUID(), elsewhere]) {
            const error = yield* Effect.flip(forecasts.forecast(fixture.workspaceId, accountId, {}))
            assert.instanceOf(error, Missing)
            assert.strictEqual(error.message, `No account ${accountId} in this workspace.`)
          }
          assert.strictEqual((yield* forecasts.forecast(fixture.otherWorkspaceId, elsewhere, {})).accountId, elsewhere)
        })))

    it.effect("an assumption that is not writes, too many writes, or a cursor of another listing is Invalid", () =>
      backend.withFixture((fixture) =>
        Effect.gen(function*() {
          const forecasts = yield* Forecasts
          const { accountId } = yield* closedToday(fixture, fixture.workspaceId)
          const cases: ReadonlyArray<readonly [Parameters<typeof forecasts.forecast>[2], string]> = [
            [{ assume: "get_profile:3" }, "query.assume: get_profile is not a write command (reads do not queue behind writes)"],
            [{ assume: "connect:0" }, "query.assume: the count of connect must be 1 or more"],
            [{ assume: "connect:6000" }, "query.assume: 6000 writes in all, more than"],
            [{ cursor: "bm90LWEtY3Vyc29y" }, ""]
          ]
          for (const [request, message] of cases) {
            const error = yield* Effect.flip(forecasts.forecast(fixture.workspaceId, accountId, request))
            assert.instanceOf(error, Invalid, JSON.stringify(request))
            assert.include(error.message, message)
          }
        })))
  })
