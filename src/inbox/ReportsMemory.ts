/**
 * `Reports` in memory, for fast tests of the Health report's route without a database: the stored
 * report's own rules (`healthReportOf`, `ssiOf` in `Reports.ts`) over what the other fakes keep
 * instead of the tables: the account and its limits in force from the in-memory accounts
 * (`accounts/AccountsMemory.ts`, its warm-up from their row), the invitations from the in-memory
 * inbox (`InboxMemory.ts`: pending ones, and the last 30 days' acceptance), SSI from the network
 * driver it is given. Nothing runs jobs there, so no budget is spent.
 *
 * The Daily brief is not here: it also reads the job store's open counts, the forecast, the
 * messages received and who was written to, which no fake shares yet; it is tested on the
 * database (`test/inbox/Reports.test.ts`), and here it dies.
 */
import { Effect, Layer } from "effect"
import { AccountRowsMemory } from "../accounts/AccountsMemory.ts"
import { Accounts } from "../accounts/Accounts.ts"
import { warmupOf } from "../accounts/AccountRow.ts"
import * as Time from "../domain/Time.ts"
import { NetworkDriver } from "../network/NetworkDriver.ts"
import { InboxInvitationsMemory } from "./InboxMemory.ts"
import { acceptanceSince, healthReportOf, Reports, ssiOf } from "./Reports.ts"

/** The in-memory `Reports`; needs the in-memory accounts and inbox, and a `NetworkDriver` for SSI. */
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

    return Reports.of({
      brief: () => Effect.die(new Error("The Daily brief reads the job store, forecast and messages together: the stored reports only")),
      healthReport
    })
  })
)
