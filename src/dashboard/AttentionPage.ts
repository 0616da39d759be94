/**
 * `/dashboard`: what needs a person now — approvals waiting (with the time
 * left of their 72 hours), seats that need reconnecting or are restricted or
 * stopped, and failing webhook endpoints (owners and admins).
 */
import { Effect } from "effect"
import { HttpRouter } from "effect/http"
import * as Time from "../domain/Time.ts"
import { attentionOf } from "./Attention.ts"
import { framed } from "./Frame.ts"
import { externalLink, html } from "./Html.ts"
import { base, localTime, relative } from "./Layout.ts"
import { may, signedInPage } from "./Requests.ts"
import { accountStatusInWords, commandInWords } from "../domain/Words.ts"

const seatProblem: Record<string, string> = {
  reconnect_required: "The network signed this seat out: reconnect it.",
  restricted: "The network restricted this seat: it may only read until its restriction ends.",
  stopped: "Stopped by the service because its health turned red."
}

const show = signedInPage((person) =>
  Effect.gen(function*() {
    const now = yield* Time.now
    const attention = yield* attentionOf(person.workspaceId, { webhooks: may(person, "manageWebhooks") })
    const approvals = attention.approvals.length === 0
      ? html`<p class="muted">No writes are waiting for approval.</p>`
      : html`<ul>${
        attention.approvals.map((a) =>
          html`<li><a href="${base}/approvals#approval-${a.id}">${commandInWords(a.kind)}</a> from ${attention.accountLabels.get(a.accountId) ?? "a seat"}${
            a.target === null ? "" : html` to ${a.target}`
          }: expires <time datetime="${a.expiresAt}">${relative(Date.parse(a.expiresAt), now.ms)}</time></li>`
        )
      }</ul><p><a class="button" href="${base}/approvals">Review ${attention.approvalsWaiting} ${
        attention.approvalsWaiting === 1 ? "approval" : "approvals"
      }</a></p>`
    const seats = attention.seats.length === 0
      ? html`<p class="muted">Every seat is fine.</p>`
      : html`<ul>${
        attention.seats.map((s) =>
          html`<li><strong>${s.label === "" ? "Unnamed seat" : s.label}</strong> <span class="pill bad">${accountStatusInWords(s.status)}</span>: ${
            seatProblem[s.status] ?? s.status
          }${s.health.reason === null ? "" : html` (${s.health.reason})`}${
            s.health.readsOnlyUntil === null ? "" : html` Reads only until ${localTime(s.health.readsOnlyUntil)}.`
          }${s.reconnectUrl === null ? "" : html` ${externalLink(s.reconnectUrl, "Reconnect")}`} <a href="${base}/seats#seat-${s.id}">Seat details</a></li>`
        )
      }</ul>`
    const webhooks = !may(person, "manageWebhooks")
      ? ""
      : html`<section class="card" aria-labelledby="webhooks-title"><h2 id="webhooks-title">Failing webhooks</h2>${
        attention.webhooks.length === 0
          ? html`<p class="muted">Every webhook endpoint is receiving its events.</p>`
          : html`<ul>${
            attention.webhooks.map((w) =>
              html`<li><a href="${base}/webhooks/${w.endpoint.id}">${w.endpoint.url}</a>: ${w.latest.eventType} ${w.latest.status}${
                w.lastError === null ? "" : html` (${w.lastError})`
              }</li>`
            )
          }</ul>`
      }</section>`
    return yield* framed(person, {
      title: "Needs attention",
      section: "",
      body: html`<section class="card" aria-labelledby="approvals-title"><h2 id="approvals-title">Approvals waiting</h2>${approvals}</section>
<section class="card" aria-labelledby="seats-title"><h2 id="seats-title">Seats that need you</h2>${seats}</section>
${webhooks}`
    })
  })
)

export const attentionRoutes = [{ method: "GET", path: base }] as const

export const layer = HttpRouter.add("GET", base, show)
