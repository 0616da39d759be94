/**
 * What the sandbox network knows of the accounts signed in to it: the profile
 * it reports at sign-in, and the tier and products the service recorded
 * (which the network's rules depend on: the free tier's note quota, InMail
 * credits, Sales Navigator leads).
 */
import { Effect } from "effect"
import type { Tier } from "../domain/Limits.ts"
import type { AccountProfile } from "../network/NetworkDriver.ts"
import { rng } from "./Random.ts"
import type { AccountFacts, State } from "./State.ts"

const tierWeights: ReadonlyArray<readonly [Tier, number]> = [
  ["free", 55],
  ["premium", 25],
  ["sales_nav", 15],
  ["recruiter", 5]
]

/** The profile the sandbox reports for an account: the same account always gets the same one. */
export const sandboxProfile = (accountId: string): AccountProfile => {
  const random = rng("account-profile", accountId)
  const tier = random.weighted(tierWeights)
  return {
    tier,
    products: tier === "sales_nav" ? ["sales_navigator"] : [],
    connections: random.int(120, 2800)
  }
}

/**
 * The account's tier, products and workspace: the service's record when
 * there is one, else what the sandbox would report at sign-in (no workspace).
 */
export const accountFacts = (state: State, accountId: string): Effect.Effect<AccountFacts> =>
  Effect.map(state.account(accountId), (facts) => {
    if (facts !== null) return facts
    const profile = sandboxProfile(accountId)
    return { tier: profile.tier, products: profile.products, workspaceId: null }
  })

/** Whether the account has Sales Navigator. */
export const hasSalesNavigator = (facts: AccountFacts): boolean =>
  facts.tier === "sales_nav" || facts.products.includes("sales_navigator")

/** Whether the account has InMail credits at all (every paid tier does). */
export const hasInMail = (facts: AccountFacts): boolean => facts.tier !== "free" || hasSalesNavigator(facts)
