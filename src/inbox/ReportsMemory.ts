/**
 * `Reports` in memory, for fast tests of the inbox's report routes without a database: the stored
 * reports' own rules (`healthReportOf`, `ssiOf` and `briefOf` in `Reports.ts`) over what the other
 * fakes keep instead of the tables: the account and its limits in force from the in-memory
 * accounts (`accounts/AccountsMemory.ts`, its warm-up from their row), the invitations from the
 * in-memory inbox (`InboxMemory.ts`: pending ones, the last 30 days' acceptance, the new
 * connections), SSI from the network driver it is given; for the Daily brief, the messages
 * received from the in-memory messages (`people/MessagesMemory.ts`), the open jobs and those
 * written to from the in-memory jobs (`jobs/JobsMemory.ts`), and the line on tomorrow from the
 * in-memory forecast of those accounts and jobs (`jobs/ForecastsMemory.ts`, `onAccounts`). Nothing
 * runs jobs there, so no budget is spent and no job has written to anyone.
 */
import { Effect, Layer } from "effect"
import { AccountRowsMemory } from "../accounts/AccountsMemory.ts"
import { Accounts } from "../accounts/Accounts.ts"
import { warmupOf } from "../accounts/AccountRow.ts"
import * as Time from "../domain/Time.ts"
import { Forecasts } from "../jobs/Forecasts.ts"
import { JobTableMemory } from "../jobs/JobsMemory.ts"
import { NetworkDriver } from "../network/NetworkDriver.ts"
import { Messages } from "../people/Messages.ts"
import { InboxInvitationsMemory } from "./InboxMemory.ts"
import { acceptanceSince, briefOf, healthReportOf, Reports, ssiOf } from "./Reports.ts"

/**
 * The in-memory `Reports`; needs the in-memory accounts and inbox, a `NetworkDriver` for SSI, and for the brief
 * `Messages`, the in-memory jobs' `JobTableMemory` and `Forecasts`.
 */
export const layer = Layer.effect(
  Reports,
  Effect.gen(function*() {
    const accounts = yield* Accounts
    const rows = yield* AccountRowsMemory
    const invitations = yield* InboxInvitationsMemory
    const network = yield* NetworkDriver

    const healthReport = Effect.fn("ReportsMemory.healthReport")(function*(workspaceId: string, accountId: string) {
      const account = yield* accounts.get(workspaceId, accountId)
      const row = yield* rows.row(account.id)
      const { limits } = yield* accounts.limits(workspaceId, account.id)
      const now = yield* Time.now
      return healthReportOf({
        account,
        warmup: row === undefined ? null : warmupOf(row),
        limits,
        nowMs: now.ms,
        pending: yield* invitations.pendingSentAt(account.id),
        rate: yield* invitations.acceptanceSince(account.id, acceptanceSince(now.ms)),
        ssi: yield* ssiOf(network, account)
      })
    })

    const brief = briefOf({
      accounts,
      messages: yield* Messages,
      invitations,
      jobs: yield* JobTableMemory,
      forecasts: yield* Forecasts
    })

    return Reports.of({ brief, healthReport })
  })
)
