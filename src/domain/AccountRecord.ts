/**
 * An account (a connected seat) as the service shows it, with what its network
 * can do and the workspace's seats: the records `/v1/accounts` answers.
 */
import { Schema } from "effect"
import { AccountStatus, Mode, OffHoursPolicy } from "./Account.ts"
import { type CommandName, commandNames, CommandNameSchema } from "./Commands.ts"
import { DateTimeString, Uuid } from "./Formats.ts"
import { Budgets, HealthLevel, Tier } from "./Limits.ts"
import { WarmupView } from "./Warmup.ts"
import { WorkingHoursView } from "./WorkingHours.ts"

/** An account's lowest invite quality, as its settings hold it. */
export const MinInviteQuality = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 100 })).annotate({
  description: "Lowest invite-quality score (0-100) a connect may target; 0 disables the gate. Default 30."
})

/** After how many days an account's pending invitations are withdrawn, as its settings hold it. */
export const AutoWithdrawDays = Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 90 }))).annotate({
  description: "Pending invitations older than this are withdrawn; 1 to 90, default 21, null disables"
})

/** The commands the live network (Unipile) cannot run, as the example shows them. */
const exampleNotSupported: ReadonlyArray<CommandName> = ["profile_viewers", "ssi", "endorse", "save_lead"]

const accountExample = {
  id: "0b7c6a1e-3f4d-4e2a-9b8c-7d6e5f4a3b2c",
  label: "Ada Lovelace",
  status: "warming",
  tier: "premium",
  products: [],
  health: { level: "green", reason: null, pausedUntil: null, readsOnlyUntil: null },
  connections: 812,
  settings: { minInviteQuality: 30, autoWithdrawDays: 21 },
  warmup: { day: 3, of: 14 },
  workingHours: {
    days: [1, 2, 3, 4, 5],
    from: "09:00",
    to: "18:00",
    timezone: "Europe/Berlin",
    openNow: true,
    nextOpening: null
  },
  offHoursPolicy: "queue",
  mode: "approve",
  budgets: {
    invites: { today: 6, week: 32 },
    messages: { today: 16, week: 80 },
    inmails: { today: 1, week: 1 },
    profile_views: { today: 25, week: null },
    company_views: { today: 12, week: null },
    search_rows: { today: 160, week: null },
    comments: { today: 9, week: null },
    reactions: { today: 19, week: null },
    posts: { today: 0, week: null },
    endorsements: { today: 6, week: null },
    invite_withdrawals: { today: 9, week: null },
    list_polls: { today: 38, week: null }
  },
  pendingInvitations: 0,
  reconnectUrl: null,
  connectedAt: "2026-11-19T08:12:00.000Z",
  capabilities: {
    network: "unipile",
    commands: commandNames.filter((command) => !exampleNotSupported.includes(command)),
    notSupported: exampleNotSupported
  }
} as const

/** What the account's network can do: the commands it runs; the others fail `notSupported`. */
export const Capabilities = Schema.Struct({
  network: Schema.String.annotate({ description: "The network driver the account runs on, that of its workspace: `sandbox` (a sandbox workspace) or `unipile` (a live workspace)", examples: ["sandbox"] }),
  commands: Schema.Array(CommandNameSchema).annotate({ description: "The commands the account's network can run" }),
  notSupported: Schema.Array(CommandNameSchema).annotate({
    description: "The commands it cannot: their jobs fail `notSupported` when they run"
  })
}).annotate({ identifier: "Capabilities" })

/** An account (a connected seat), as every endpoint returns it. */
export const Account = Schema.Struct({
  id: Uuid,
  label: Schema.String,
  status: AccountStatus,
  tier: Tier.annotate({ description: "The account's plan; `free` until the connection reports it" }),
  products: Schema.Array(Schema.String).annotate({ examples: [["sales_navigator"]] }),
  health: Schema.Struct({
    level: HealthLevel.annotate({ description: "`green` budgets x1, `yellow` x0.5, `red` no writes (stopped)" }),
    reason: Schema.NullOr(Schema.String),
    pausedUntil: Schema.NullOr(DateTimeString),
    readsOnlyUntil: Schema.NullOr(DateTimeString).annotate({
      description: "After a restriction: writes wait until then, and the warm-up restarts at half its level"
    })
  }),
  connections: Schema.NullOr(Schema.Int).annotate({ description: "Size of the account's network" }),
  settings: Schema.Struct({ minInviteQuality: MinInviteQuality, autoWithdrawDays: AutoWithdrawDays }),
  warmup: WarmupView,
  workingHours: WorkingHoursView,
  offHoursPolicy: OffHoursPolicy,
  mode: Mode,
  budgets: Schema.NullOr(Budgets).annotate({
    description: "Left today and this week per category, after warm-up and health; null until connected"
  }),
  pendingInvitations: Schema.Int,
  reconnectUrl: Schema.NullOr(Schema.String).annotate({ format: "uri" }),
  connectedAt: Schema.NullOr(DateTimeString),
  capabilities: Capabilities
}).annotate({ identifier: "Account", examples: [accountExample] })

/** Seats of the workspace. */
export const Seats = Schema.Struct({
  used: Schema.Int.annotate({ description: "Connected accounts" }),
  pending: Schema.Int.annotate({ description: "Accounts still connecting" }),
  total: Schema.Int
}).annotate({ identifier: "Seats", examples: [{ used: 2, pending: 1, total: 5 }] })
