/**
 * `Forecasts` in memory, for fast tests of the forecast route without a database: the stored
 * forecast's own rules (`forecastsOf` in `Forecasts.ts`: the cursor, `assume`, the simulation
 * `Forecast.simulate` and the answer's wording), over what the fake keeps instead of the tables.
 * The open writes are the in-memory jobs' (`JobsMemory.ts`: created with `Jobs.create` as the
 * stored ones are, awaiting approval when the account's mode asks for it, cancelled and approved
 * by the same rules), read in creation order as `JobStore.openWritesOf` reads them. An account's
 * facts (its row, limit overrides) are seeded through {@link ForecastAccountsMemory}: a connected
 * account past its warm-up, green, with the working hours, off-hours policy, mode, tier and
 * overrides it is given. Nothing runs the jobs, so nothing spends the budgets: the usage is none,
 * and a new local day starts it again as a new load would (`rolledOver`). `onAccounts` reads the
 * facts of the in-memory accounts instead (`accounts/AccountsMemory.ts`), for the in-memory Daily brief.
 */
import { Context, Effect, Layer } from "effect"
import { AccountRowsMemory } from "../accounts/AccountsMemory.ts"
import type { Mode, OffHoursPolicy } from "../domain/Account.ts"
import { productsOfTier } from "../domain/Account.ts"
import { FORECAST_CAP } from "../domain/ForecastRecord.ts"
import { type LimitOverride, periodStart, type Tier } from "../domain/Limits.ts"
import * as Time from "../domain/Time.ts"
import { WARMUP_DAYS } from "../domain/Warmup.ts"
import type { WorkingHours } from "../domain/WorkingHours.ts"
import type { LoadedFacts } from "./AccountFacts.ts"
import { rolledOver } from "./AccountFacts.ts"
import { type ForecastReader, Forecasts, forecastsOf } from "./Forecasts.ts"
import * as JobsMemory from "./JobsMemory.ts"

const DAY_MS = 86_400_000

/** An account the in-memory forecast knows: connected, past its warm-up, green. */
export interface AccountSeed {
  readonly workspaceId: string
  readonly accountId: string
  readonly mode: Mode
  readonly workingHours: WorkingHours
  readonly offHoursPolicy: OffHoursPolicy
  readonly tier?: Tier | undefined
  /** Stored limit settings (as `PUT /v1/accounts/{id}/limits` keeps them, already capped). */
  readonly overrides?: ReadonlyArray<LimitOverride> | undefined
}

interface Seeded extends JobsMemory.MemoryAccount {
  readonly facts: LoadedFacts
}

/** Seeds the in-memory forecast (and the in-memory jobs under it) with an account. */
export class ForecastAccountsMemory extends Context.Service<ForecastAccountsMemory, {
  readonly add: (seed: AccountSeed) => Effect.Effect<void>
}>()("outreach/ForecastAccountsMemory") {}

/** The facts the stored service would load of `seed`'s account at `nowMs`. */
const factsOf = (seed: AccountSeed, nowMs: number): LoadedFacts => {
  const tier = seed.tier ?? "premium"
  const { days, from, to, timezone } = seed.workingHours
  return {
    row: {
      id: seed.accountId,
      workspaceId: seed.workspaceId,
      label: seed.accountId,
      status: "active",
      resumeStatus: null,
      tier,
      products: productsOfTier(tier),
      healthLevel: "green",
      healthReason: null,
      pausedUntil: null,
      readsOnlyUntil: null,
      restrictedAt: null,
      connections: null,
      minInviteQuality: 0,
      autoWithdrawDays: null,
      warmupStartedAt: nowMs - (WARMUP_DAYS + 1) * DAY_MS,
      warmupStartDay: 1,
      workingDays: days,
      workFrom: from,
      workTo: to,
      timezone,
      offHoursPolicy: seed.offHoursPolicy,
      mode: seed.mode,
      linkUrl: null,
      linkExpiresAt: null,
      checkpoint: null,
      connectedAt: Time.toIso(nowMs),
      createdAt: Time.toIso(nowMs),
      writesNotBefore: null
    },
    overrides: seed.overrides ?? [],
    usage: {},
    dayStart: periodStart("daily", timezone, nowMs)
  }
}

/** The account's facts at `nowMs`; undefined when it is not the workspace's (or was removed). */
type FactsOf = (workspaceId: string, accountId: string, nowMs: number) => Effect.Effect<LoadedFacts | undefined>

/** The forecast's reader: the account's facts from `factsOf`, its open writes from the in-memory jobs, in creation order, as `JobStore.openWritesOf` reads them. */
const readerOn = (jobs: JobsMemory.JobTableMemory["Service"], factsOf: FactsOf): ForecastReader => (workspaceId, accountId, nowMs) =>
  Effect.gen(function*() {
    const facts = yield* factsOf(workspaceId, accountId, nowMs)
    if (facts === undefined) return undefined
    const all = yield* jobs.openWritesOf(accountId)
    const open = all.slice(0, FORECAST_CAP)
    const waiting = (writes: typeof all) => writes.filter((job) => job.status !== "running").length
    return { facts, open, beyondCap: waiting(all) - waiting(open) }
  })

/**
 * The in-memory `Forecasts`, the in-memory `Jobs` its open writes come from, and
 * {@link ForecastAccountsMemory} to seed accounts; needs `Notices` and `JobApprovals` (as `JobsMemory.layer`).
 */
export const withJobs = Layer.unwrap(Effect.sync(() => {
  // One list for both: the in-memory jobs read an account's mode in it when a job is created.
  const accounts: Array<Seeded> = []
  const seeding = Layer.succeed(ForecastAccountsMemory)(ForecastAccountsMemory.of({
    add: (seed) =>
      Effect.map(Time.now, (now) => {
        accounts.push({ workspaceId: seed.workspaceId, accountId: seed.accountId, mode: seed.mode, facts: factsOf(seed, now.ms) })
      })
  }))
  const forecasts = Layer.effect(
    Forecasts,
    Effect.gen(function*() {
      const jobs = yield* JobsMemory.JobTableMemory
      return forecastsOf(readerOn(jobs, (workspaceId, accountId, nowMs) =>
        Effect.sync(() => {
          const account = accounts.find((seeded) => seeded.workspaceId === workspaceId && seeded.accountId === accountId)
          return account === undefined ? undefined : rolledOver(account.facts, nowMs)
        })))
    })
  )
  return forecasts.pipe(Layer.provideMerge(JobsMemory.layer(accounts)), Layer.provideMerge(seeding))
}))

/**
 * The in-memory `Forecasts` of the in-memory accounts (`accounts/AccountsMemory.ts`: their rows and limit settings, as
 * `loadFacts` reads the stored ones; no pacing gate, since no write runs) and the in-memory jobs' open writes; needs
 * `AccountRowsMemory` and `JobTableMemory` (`JobsMemory.layerOnAccounts`). Nothing runs the jobs, so nothing spends
 * the budgets: the usage is none.
 */
export const onAccounts = Layer.effect(
  Forecasts,
  Effect.gen(function*() {
    const accounts = yield* AccountRowsMemory
    const jobs = yield* JobsMemory.JobTableMemory
    return forecastsOf(readerOn(jobs, (workspaceId, accountId, nowMs) =>
      Effect.gen(function*() {
        const row = yield* accounts.row(accountId)
        if (row === undefined || row.workspaceId !== workspaceId) return undefined
        const facts: LoadedFacts = {
          row: { ...row, writesNotBefore: null },
          overrides: yield* accounts.overrides(accountId),
          usage: {},
          dayStart: periodStart("daily", row.timezone, nowMs)
        }
        return facts
      })))
  })
)
