/**
 * The rules of the Health report (`GET /v1/accounts/{id}/health-report`),
 * pure: how big a network is, which invitations are stale and what to do
 * about them, and the recommendations that follow from the numbers. The
 * endpoint gathers the facts; this module decides what they mean.
 */

/** Invitations pending longer than this are stale (spec, Constants). */
export const STALE_INVITATION_DAYS = 21

const DAY_MS = 86_400_000

/** Network size buckets: fewer than `small` connections is small; `large` or more is large. */
export const networkSizeThresholds = { small: 500, large: 3_000 } as const

export type NetworkSize = "small" | "medium" | "large" | "unknown"

/** The bucket of a network of `connections` people (null when the network did not say). */
export const networkSizeOf = (connections: number | null): NetworkSize =>
  connections === null
    ? "unknown"
    : connections < networkSizeThresholds.small
    ? "small"
    : connections < networkSizeThresholds.large
    ? "medium"
    : "large"

const networkNotes: Record<NetworkSize, string> = {
  small:
    `Fewer than ${networkSizeThresholds.small} connections: invitations are accepted less often and the network watches new senders closely, so keep the pace gentle.`,
  medium:
    `Between ${networkSizeThresholds.small} and ${networkSizeThresholds.large} connections: a healthy base; acceptance grows with mutual connections.`,
  large:
    `${networkSizeThresholds.large} connections or more: an established network; most invitations reach people with mutual connections.`,
  unknown: "The network has not reported the size of this account's network yet."
}

/** The `network` part of the report. */
export const networkOf = (connections: number | null) => {
  const size = networkSizeOf(connections)
  return { connections, size, note: networkNotes[size] }
}

/** A pending invitation, as the report needs it. */
export interface PendingInvitation {
  readonly sentAtMs: number
}

/** Whether an invitation sent at `sentAtMs` is stale at `nowMs`. */
export const isStale = (sentAtMs: number, nowMs: number): boolean => nowMs - sentAtMs > STALE_INVITATION_DAYS * DAY_MS

/** The `invitations` part of the report: pending, stale, and the cleanup to propose (null when nothing is stale). */
export const invitationsOf = (
  pending: ReadonlyArray<PendingInvitation>,
  autoWithdrawDays: number | null,
  nowMs: number
) => {
  const stale = pending.filter((invitation) => isStale(invitation.sentAtMs, nowMs))
  const oldest = stale.reduce((min, invitation) => Math.min(min, invitation.sentAtMs), Number.POSITIVE_INFINITY)
  const automatic = autoWithdrawDays === null
    ? ` Set settings.autoWithdrawDays (for example ${STALE_INVITATION_DAYS}) to have the service do it from now on.`
    : ` The service withdraws invitations pending more than ${autoWithdrawDays} days by itself.`
  return {
    pending: pending.length,
    stale: stale.length,
    proposedCleanup: stale.length === 0 ? null : `Withdraw the ${stale.length === 1 ? "invitation" : `${stale.length} invitations`} pending more than ${STALE_INVITATION_DAYS} days (the oldest sent ${new Date(oldest).toISOString().slice(0, 10)}) with withdraw_invite: a long pending list makes the network treat new invitations with suspicion.${automatic}`
  }
}

/** What the recommendations are derived from. */
export interface HealthFacts {
  readonly status: string
  readonly healthLevel: "green" | "yellow" | "red"
  readonly healthReason: string | null
  readonly network: NetworkSize
  readonly pending: number
  readonly stale: number
  readonly autoWithdrawDays: number | null
  /** Invitations sent and accepted in the last 30 days. */
  readonly sentLast30Days: number
  readonly acceptedLast30Days: number
  readonly minInviteQuality: number
  /** Warm-up day and length; day >= of means finished. */
  readonly warmupDay: number
  readonly warmupOf: number
  readonly warmupFinishesOn: string | null
  /** The account's weekly invitation limit in force, when known. */
  readonly weeklyInvites: number | null
  /** The weakest SSI pillar, when the SSI is known. */
  readonly weakestSsi: { readonly name: string; readonly score: number } | null
}

const pillarNames = {
  establishBrand: "Establish your professional brand",
  findRightPeople: "Find the right people",
  engageWithInsights: "Engage with insights",
  buildRelationships: "Build relationships"
} as const
const pillarKeys = ["establishBrand", "findRightPeople", "engageWithInsights", "buildRelationships"] as const

/** The SSI pillar (0 to 25) with the lowest score, by its name on the network. */
export const weakestPillar = (pillars: { readonly [K in keyof typeof pillarNames]: number }) => {
  const weakest = pillarKeys.reduce((low, key) => (pillars[key] < pillars[low] ? key : low))
  return { name: pillarNames[weakest], score: pillars[weakest] }
}

/** An acceptance rate under this over at least `minSample` invitations earns a recommendation. */
export const lowAcceptanceRate = 0.25
const minSample = 10

/** Recommendations that follow from the numbers, most urgent first; empty when all is well. */
export const recommendationsOf = (facts: HealthFacts): Array<string> => {
  const out: Array<string> = []
  if (facts.healthLevel === "red" || facts.status === "stopped") {
    out.push(
      `Health is red${facts.healthReason === null ? "" : ` (${facts.healthReason})`}: writes are stopped. Find out what the network objected to before resuming with POST /v1/accounts/{id}/resume.`
    )
  } else if (facts.healthLevel === "yellow") {
    out.push(
      `Health is yellow${facts.healthReason === null ? "" : ` (${facts.healthReason})`}: budgets run at half. Send fewer, better-targeted invitations until it is green again.`
    )
  }
  if (facts.status === "restricted") {
    out.push("The network restricted the account: it reads only for now. Do not send invitations from elsewhere in the meantime.")
  }
  if (facts.stale > 0) {
    out.push(
      `${facts.stale} of ${facts.pending} pending invitations are older than ${STALE_INVITATION_DAYS} days: withdraw them${facts.autoWithdrawDays === null ? ", or set settings.autoWithdrawDays so the service does it" : ""}.`
    )
  }
  if (facts.sentLast30Days >= minSample) {
    const rate = facts.acceptedLast30Days / facts.sentLast30Days
    if (rate < lowAcceptanceRate) {
      out.push(
        `Only ${Math.round(rate * 100)}% of the ${facts.sentLast30Days} invitations sent in the last 30 days were accepted: ${
          facts.minInviteQuality < 50
            ? `raise settings.minInviteQuality (now ${facts.minInviteQuality}) so only well-matched people are invited`
            : "add a short personal note and invite people with mutual connections"
        }.`
      )
    }
  }
  if (facts.weeklyInvites !== null && facts.pending > 2 * facts.weeklyInvites) {
    out.push(
      `${facts.pending} invitations are pending, more than twice the weekly limit of ${facts.weeklyInvites}: slow down until more are answered.`
    )
  }
  if (facts.warmupDay < facts.warmupOf && facts.warmupFinishesOn !== null) {
    out.push(
      `Warm-up day ${facts.warmupDay} of ${facts.warmupOf}: budgets grow each day until ${facts.warmupFinishesOn}; keep the volume steady rather than front-loading it.`
    )
  }
  if (facts.network === "small") {
    out.push(
      `The network is small (under ${networkSizeThresholds.small}): invite people close to the account's industry and region first, where acceptance is highest.`
    )
  }
  if (facts.weakestSsi !== null && facts.weakestSsi.score < 10) {
    out.push(
      `The weakest pillar of the Social Selling Index is "${facts.weakestSsi.name}" (${facts.weakestSsi.score} of 25): work on it to make invitations land better.`
    )
  }
  return out
}
