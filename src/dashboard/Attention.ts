/**
 * What needs a person now, read through the services: approvals waiting,
 * seats that need reconnecting or are restricted or stopped, and webhook
 * endpoints whose deliveries fail. The needs-attention page lists it; the
 * live counts in every page's header count it.
 */
import { Effect } from "effect"
import { Accounts } from "../accounts/Accounts.ts"
import type { Account } from "../api/AccountsApi.ts"
import type { Delivery, WebhookEndpoint } from "../api/WebhooksApi.ts"
import { type ApprovalRecord, Approvals } from "../approvals/Approvals.ts"
import { WebhookEndpoints } from "../webhooks/Endpoints.ts"
import { base } from "./Layout.ts"
import { html } from "./Html.ts"

/** Account statuses a person must act on. */
export const troubledStatuses: ReadonlySet<string> = new Set(["reconnect_required", "restricted", "stopped"])

/** An endpoint whose latest delivery failed or is being retried after a failure. */
export interface FailingEndpoint {
  readonly endpoint: typeof WebhookEndpoint.Type
  readonly latest: typeof Delivery.Type
  readonly lastError: string | null
}

export interface Attention {
  /** The ones to expire soonest, for the overview. */
  readonly approvals: ReadonlyArray<ApprovalRecord>
  /** How many wait in all (never capped). */
  readonly approvalsWaiting: number
  readonly seats: ReadonlyArray<typeof Account.Type>
  readonly webhooks: ReadonlyArray<FailingEndpoint>
  readonly accountLabels: ReadonlyMap<string, string>
}

/** The approvals the overview lists (the soonest to expire first); the count is of all. */
export const approvalsShown = 10

const failing = (delivery: typeof Delivery.Type): boolean => {
  const last = delivery.attempts[delivery.attempts.length - 1]
  return delivery.status === "failed" ||
    (delivery.status === "pending" && last !== undefined && (last.error !== null || (last.statusCode ?? 0) >= 300))
}

/** Everything that needs attention in a workspace; webhooks only for owners and admins. */
export const attentionOf = (workspaceId: string, options: { readonly webhooks: boolean }) =>
  Effect.gen(function*() {
    const approvals = yield* Approvals
    const accounts = yield* Accounts
    const endpoints = yield* WebhookEndpoints
    const pending = yield* approvals.queue(workspaceId, { view: "pending", offset: 0, limit: approvalsShown })
    const { accounts: seats } = yield* accounts.list(workspaceId)
    const webhooks: Array<FailingEndpoint> = []
    if (options.webhooks) {
      for (const endpoint of yield* endpoints.list(workspaceId)) {
        if (!endpoint.enabled) continue
        const deliveries = yield* endpoints.deliveries(workspaceId, endpoint.id).pipe(Effect.orElseSucceed(() => []))
        const latest = deliveries[0]
        if (latest !== undefined && failing(latest)) {
          const last = latest.attempts[latest.attempts.length - 1]
          webhooks.push({
            endpoint,
            latest,
            lastError: last === undefined ? null : last.error ?? (last.statusCode === null ? null : `HTTP ${last.statusCode}`)
          })
        }
      }
    }
    return {
      approvals: pending.approvals,
      approvalsWaiting: pending.total,
      seats: seats.filter((account) => troubledStatuses.has(account.status)),
      webhooks,
      accountLabels: new Map(seats.map((account) => [account.id, account.label === "" ? "Unnamed seat" : account.label]))
    } satisfies Attention
  })

/** The live counts as shown in the header (and sent again whenever they change). */
export const countsHtml = (attention: Attention, options: { readonly webhooks: boolean }) =>
  html`<a href="${base}/approvals"><span class="pill ${attention.approvalsWaiting > 0 ? "warn" : "ok"}" data-count="approvals">${attention.approvalsWaiting}</span> approvals waiting</a>
<a href="${base}/seats"><span class="pill ${attention.seats.length > 0 ? "bad" : "ok"}" data-count="seats">${attention.seats.length}</span> seats need you</a>
${
    options.webhooks
      ? html`<a href="${base}/webhooks"><span class="pill ${attention.webhooks.length > 0 ? "bad" : "ok"}" data-count="webhooks">${attention.webhooks.length}</span> webhooks failing</a>`
      : ""
  }`
