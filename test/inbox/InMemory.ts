/**
 * The in-memory side of the reports' spec and of the inbox routes: the in-memory reports on the
 * fakes they read (accounts signing in as the sandbox's, the inbox's invitations, the messages
 * received, the jobs created in the accounts' modes and the forecast of those accounts), with the
 * approvals table the jobs write a job's approval through.
 */
import { Layer } from "effect"
import * as AccountsMemory from "../../src/accounts/AccountsMemory.ts"
import * as ApprovalsMemory from "../../src/approvals/ApprovalsMemory.ts"
import * as InboxMemory from "../../src/inbox/InboxMemory.ts"
import * as ReportsMemory from "../../src/inbox/ReportsMemory.ts"
import * as ForecastsMemory from "../../src/jobs/ForecastsMemory.ts"
import * as JobsMemory from "../../src/jobs/JobsMemory.ts"
import * as MessagesMemory from "../../src/people/MessagesMemory.ts"
import { Notices } from "../../src/platform/Notices.ts"
import { sandboxSignIn } from "../../src/sandbox/SandboxDriver.ts"
import { defaultSeats } from "../../src/workspaces/Workspaces.ts"
import { SandboxAddresses } from "../support/SandboxAddresses.ts"

/** The in-memory reports, and the fakes they read (the accounts, inbox, messages, jobs and forecast stay in reach). */
export const reportsInMemory = ReportsMemory.layer.pipe(
  Layer.provideMerge(Layer.mergeAll(MessagesMemory.layer, ForecastsMemory.onAccounts)),
  Layer.provideMerge(JobsMemory.layerOnAccounts),
  Layer.provideMerge(Layer.mergeAll(AccountsMemory.layer({ network: sandboxSignIn, seats: defaultSeats }), InboxMemory.layer, SandboxAddresses)),
  Layer.provide(Layer.mergeAll(ApprovalsMemory.tableLayer, Notices.layer))
)
