/**
 * `GET /v1/accounts/{id}/forecast`: reads what the account's Governor plans
 * with (its facts, its open writes) and runs `Forecast.simulate` over them;
 * writes awaiting approval are run a second time as if approved now, and
 * `assume`'s hypothetical writes are added after the queue. Read-only: it
 * changes nothing, and asks the database three statements at most.
 */
import { Context, Effect, Layer, Result } from "effect"
import { SqlClient } from "effect/sql"
import { accountNotFound, AccountStore } from "../accounts/AccountStore.ts"
import { foreignCursor, seqCursor } from "../domain/Cursor.ts"
import { Invalid, type Missing } from "../domain/Failures.ts"
import {
  ASSUME_MAX,
  type Forecast,
  FORECAST_CAP,
  FORECAST_PAGE_DEFAULT,
  type WriteForecast
} from "../domain/ForecastRecord.ts"
import { categoryOfJob, commands, isWriteCommand, type WriteCommand, writeCommands } from "../domain/Commands.ts"
import * as Time from "../domain/Time.ts"
import { type LoadedFacts, loadFacts } from "./AccountFacts.ts"
import {
  countOf,
  EXPECTED_GAP_MS,
  type ForecastWrite,
  type Outlook,
  simulate,
  summaryOf,
  whenLocal,
  type WriteOutlook
} from "./Forecast.ts"
import { JobStore, type OpenWrite } from "./JobStore.ts"
import { queuedWriteOf } from "./WriteTarget.ts"

/** What a caller asks of a forecast (`GET /v1/accounts/{id}/forecast`'s query). */
export interface ForecastRequest {
  readonly assume?: string | undefined
  readonly cursor?: string | undefined
  readonly limit?: number | undefined
}

/** One line of `assume`: so many writes of a command. */
export interface Assumption {
  readonly command: WriteCommand
  readonly count: number
}

const badAssume = (message: string) =>
  new Invalid({ message: `query.assume: ${message}`, advice: { _tag: "AssumeWrites", most: ASSUME_MAX, commands: writeCommands } })

/** Reads `assume` (`connect:300,send_message:20`, already checked for its shape); a message naming what is wrong. */
export const parseAssume = (text: string): Result.Result<ReadonlyArray<Assumption>, string> => {
  const assumptions: Array<Assumption> = []
  for (const pair of text.split(",")) {
    const [command, digits] = pair.split(":")
    const count = Number(digits)
    if (!isWriteCommand(command)) return Result.fail(`${command} is not a write command (reads do not queue behind writes)`)
    if (!Number.isInteger(count) || count < 1) return Result.fail(`the count of ${command} must be 1 or more`)
    assumptions.push({ command, count })
  }
  const total = assumptions.reduce((sum, item) => sum + item.count, 0)
  return total > ASSUME_MAX ? Result.fail(`${total} writes in all, more than ${ASSUME_MAX}`) : Result.succeed(assumptions)
}

/** What the forecast cannot know, said in every answer. */
export const forecastLimits: ReadonlyArray<string> = [
  `The pause between two writes is random (45 to 120 s); the forecast takes its expected value, ${EXPECTED_GAP_MS / 1000} s, and a write to take no time.`,
  "Every write is taken to go out and spend its budget; one the network refuses spends none, so later writes may go sooner.",
  "Replies, acceptances, new writes, approvals, pauses, restrictions and health changes to come cannot be foreseen; each changes the forecast.",
  "Writes about the same person keep their order only when they name the person the same way."
]

const cursors = seqCursor("forecast")

const asForecastWrite = (job: OpenWrite): ForecastWrite => ({ id: job.id, ...queuedWriteOf(job) })

const isoOrNull = (ms: number | null) => ms === null ? null : Time.toIso(ms)

/**
 * What is expected to go out on the account's local `date` (`YYYY-MM-DD`), in a sentence: "Expected on
 * 2026-11-24: 20 invitations, 12 messages." (the daily brief's line on tomorrow).
 */
export const expectedOn = (forecast: Forecast, date: string): string => {
  const day = forecast.days.find((entry) => entry.date === date)
  const counts = day === undefined ? [] : day.categories.map(({ category, writes }) => countOf(writes, category))
  const empties = forecast.emptyAt === null ? "" : ` The queue is expected to be empty ${forecast.emptyAt.slice(0, 16).replace("T", " ")} UTC.`
  return counts.length === 0
    ? `Nothing is expected to go out on ${date}.${forecast.total === 0 ? "" : empties}`
    : `Expected to go out on ${date}: ${counts.join(", ")}.${empties}`
}

export class Forecasts extends Context.Service<Forecasts, {
  /** The forecast of the account's open writes. */
  readonly forecast: (
    workspaceId: string,
    accountId: string,
    request: ForecastRequest
  ) => Effect.Effect<Forecast, Missing | Invalid>
  /** One open write's forecast in a sentence; null when the job is not an open write of the account. */
  readonly ofJob: (workspaceId: string, accountId: string, jobId: string) => Effect.Effect<string | null, Missing>
}>()("outreach/Forecasts") {
  static readonly layerNoDeps = Layer.effect(
    Forecasts,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const store = yield* JobStore
      const accounts = yield* AccountStore

      /** Open writes past the cap: counted, not forecast. */
      const beyondCap = (accountId: string, fetched: number, open: ReadonlyArray<OpenWrite>) =>
        fetched <= FORECAST_CAP ? Effect.succeed(0) : Effect.map(store.openCounts(accountId), (counts) =>
          counts
            .filter((row) => row.status !== "running" && isWriteCommand(row.kind))
            .reduce((sum, row) => sum + row.count, 0) - open.filter((job) => job.status !== "running").length)

      /** What the forecast reads of the account: its facts now and its open writes; undefined when it is not the workspace's. */
      const read: ForecastReader = Effect.fnUntraced(function*(workspaceId: string, accountId: string, nowMs: number) {
        if (!(yield* accounts.exists(workspaceId, accountId))) return undefined
        const facts = yield* loadFacts(sql, accountId, nowMs)
        if (facts === undefined) return undefined
        const fetched = yield* store.openWritesOf(accountId, FORECAST_CAP + 1)
        const open = fetched.slice(0, FORECAST_CAP)
        return { facts, open, beyondCap: yield* beyondCap(accountId, fetched.length, open) }
      })

      return forecastsOf(read)
    })
  )

  /** `layerNoDeps` with its services' layers. */
  static readonly layer = Forecasts.layerNoDeps.pipe(Layer.provide([JobStore.layer, AccountStore.layer]))
}

/** What a forecast is made from: the account's facts at the forecast's now, its first `FORECAST_CAP` open writes in creation order, and how many more there are. */
export interface ForecastInput {
  readonly facts: LoadedFacts
  readonly open: ReadonlyArray<OpenWrite>
  readonly beyondCap: number
}

/** Reads a forecast's input at `nowMs`; undefined when the account is not the workspace's (or was removed). */
export type ForecastReader = (workspaceId: string, accountId: string, nowMs: number) => Effect.Effect<ForecastInput | undefined>

/**
 * `Forecasts` on a reader of the account's facts and open writes: the request's rules (cursor,
 * `assume`), the simulation and the answer's wording, one place for the stored service and its
 * in-memory fake (`ForecastsMemory.ts`).
 */
export const forecastsOf = (read: ForecastReader) => {
  const forecast = Effect.fn("Forecasts.forecast")(function*(workspaceId: string, accountId: string, request: ForecastRequest) {
    const offset = request.cursor === undefined ? 0 : cursors.decode(request.cursor)
    if (offset === undefined) return yield* foreignCursor("the first write expected")
    const parsed = request.assume === undefined ? Result.succeed([]) : parseAssume(request.assume)
    if (Result.isFailure(parsed)) return yield* badAssume(parsed.failure)
    return yield* run(workspaceId, accountId, parsed.success, offset, request.limit ?? FORECAST_PAGE_DEFAULT)
  })

  const ofJob = Effect.fn("Forecasts.ofJob")(function*(workspaceId: string, accountId: string, jobId: string) {
    const whole = yield* run(workspaceId, accountId, [], 0, FORECAST_CAP)
    const write = whole.writes.find((entry) => entry.jobId === jobId) ?? whole.awaitingApproval.find((entry) => entry.jobId === jobId)
    return write?.summary ?? null
  })

  const run = Effect.fnUntraced(function*(
    workspaceId: string,
    accountId: string,
    assumed: ReadonlyArray<Assumption>,
    offset: number,
    limit: number
  ) {
    const now = yield* Time.now
    const input = yield* read(workspaceId, accountId, now.ms)
    if (input === undefined) return yield* accountNotFound(accountId)
    return forecastFrom(accountId, input, assumed, offset, limit, now)
  })

  return Forecasts.of({ forecast, ofJob })
}

/** The forecast of one page of the account's writes from what was read of it, at `now`. Pure. */
const forecastFrom = (
  accountId: string,
  { facts, open, beyondCap: over }: ForecastInput,
  assumed: ReadonlyArray<Assumption>,
  offset: number,
  limit: number,
  now: { readonly ms: number; readonly iso: string }
): Forecast => {
  // A write on the network now sets the pacing gate when it ends.
  const gate = facts.row.writesNotBefore
  const loaded: LoadedFacts = open.some((job) => job.status === "running")
    ? { ...facts, row: { ...facts.row, writesNotBefore: Math.max(gate ?? 0, now.ms + EXPECTED_GAP_MS) } }
    : facts
  const queued = open.filter((job) => job.status === "queued" || job.status === "scheduled")
  const awaiting = open.filter((job) => job.status === "awaiting_approval")
  const hypothetical = assumed.flatMap(({ command, count }, line) =>
    Array.from({ length: count }, (_, n): ForecastWrite => ({
      id: `assumed:${line}:${n}`,
      category: commands[command].category,
      about: null
    }))
  )
  const outlook = simulate(loaded, [...queued.map(asForecastWrite), ...hypothetical], now.ms)
  const approved: Outlook | undefined = awaiting.length === 0
    ? undefined
    : simulate(loaded, open.filter((job) => job.status !== "running").map(asForecastWrite), now.ms)

  const timezone = facts.row.timezone
  const jobs = new Map(open.map((job) => [job.id, job]))
  const byId = new Map<string, WriteOutlook>(outlook.writes.map((write) => [write.id, write]))
  // The queue's own writes (the assumed ones are summed up apart), worded for the page only.
  const real = outlook.writes.filter((write) => jobs.has(write.id))
  const page = real.slice(offset, offset + limit).flatMap((write): Array<WriteForecast> => {
    const job = jobs.get(write.id)
    return job === undefined ? [] : [{
      jobId: job.id,
      kind: job.kind,
      category: write.category,
      status: job.status,
      expectedStart: isoOrNull(write.start),
      waitsFor: write.waitsFor,
      fails: write.fails?.type ?? null,
      ahead: write.ahead,
      aheadInCategory: write.aheadInCategory,
      summary: summaryOf(write, timezone, now.ms)
    }]
  })
  const approvedById = new Map(approved?.writes.map((write) => [write.id, write]))
  const result: Forecast = {
    accountId,
    from: now.iso,
    timezone,
    pacingGapSeconds: EXPECTED_GAP_MS / 1000,
    emptyAt: isoOrNull(outlook.emptyAt),
    total: real.length,
    beyondCap: over,
    writes: page,
    nextCursor: offset + limit < real.length ? cursors.encode(offset + limit) : null,
    awaitingApproval: awaiting.map((job) => {
      const start = approvedById.get(job.id)?.start ?? null
      return {
        jobId: job.id,
        kind: job.kind,
        category: categoryOfJob(job.kind, job.input),
        earliestStart: isoOrNull(start),
        summary: start === null
          ? "after approval: cannot be foreseen"
          : `after approval, at the earliest ${whenLocal(timezone, start, now.ms)} (${timezone})`
      }
    }),
    assumed: assumed.map(({ command, count }, line) => {
      const first = byId.get(`assumed:${line}:0`)
      const last = byId.get(`assumed:${line}:${count - 1}`)
      return {
        command,
        count,
        category: commands[command].category,
        firstStart: isoOrNull(first?.start ?? null),
        lastStart: isoOrNull(last?.start ?? null)
      }
    }),
    days: outlook.days.map((day) => ({
      date: day.date,
      categories: [...day.starts].map(([category, writes]) => ({ category, writes, budget: day.budgets.get(category) ?? 0 }))
    })),
    limits: forecastLimits
  }
  return result
}
