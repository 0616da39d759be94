/**
 * `/dashboard/inbox`: each seat's daily brief from the Reports service — its
 * headline, the replies of the last 24 hours in the order to answer them, each
 * with its triage class and suggested reply, and the new connections ready for
 * a first message.
 */
import { Effect } from "effect"
import { HttpRouter } from "effect/http"
import { Accounts } from "../accounts/Accounts.ts"
import { Reports } from "../inbox/Reports.ts"
import { framed } from "./Frame.ts"
import { html } from "./Html.ts"
import { base, localTime } from "./Layout.ts"
import { signedInPage } from "./Requests.ts"

export const inboxRoutes = [{ method: "GET", path: `${base}/inbox` }] as const

const classTone: Record<string, string> = { meeting: "ok", interested: "ok", referral: "ok", not_interested: "bad", objection: "warn" }

const show = signedInPage((person) =>
  Effect.gen(function*() {
    const reports = yield* Reports
    const { accounts } = yield* (yield* Accounts).list(person.workspaceId)
    const briefs = yield* Effect.forEach(accounts, (account) =>
      Effect.map(reports.brief(person.workspaceId, account.id, 24).pipe(Effect.option), (brief) => ({ account, brief })))
    const sections = briefs.map(({ account, brief }) => {
      const title = account.label === "" ? "Unnamed seat" : account.label
      if (brief._tag === "None") return html`<section class="card"><h2>${title}</h2><p class="muted">No brief for this seat.</p></section>`
      const b = brief.value
      return html`<section class="card" aria-labelledby="brief-${account.id}"><h2 id="brief-${account.id}">${title}</h2>
<p><strong>${b.headline}</strong></p>
<h3>Replies, in the order to answer them</h3>${
        b.replies.length === 0 ? html`<p class="muted">No replies in the last 24 hours.</p>` : html`<ul>${
          b.replies.map((r) =>
            html`<li><p><strong>${r.from ?? "Someone"}</strong> <span class="pill ${classTone[r.class] ?? "warn"}">${r.class.replace("_", " ")}</span>${
              r.unsure ? html` <span class="pill warn" title="Triage is unsure of this reply's class">unsure: read it</span>` : ""
            } <span class="muted">${
              localTime(r.receivedAt)
            }</span></p>${r.text === null ? "" : html`<p class="quote">${r.text}</p>`}${
              r.suggestedReply === null ? "" : html`<p><span class="muted">Suggested reply:</span> ${r.suggestedReply}</p>`
            }</li>`
          )
        }</ul>`
      }
<h3>Ready for a first message</h3>${
        b.readyForFirstMessage.length === 0 ? html`<p class="muted">Nobody new.</p>` : html`<ul>${
          b.readyForFirstMessage.map((c) =>
            html`<li><strong>${c.name ?? c.providerId}</strong> accepted ${localTime(c.acceptedAt)}. <span class="muted">Opener:</span> ${c.suggestedOpener}</li>`
          )
        }</ul>`
      }
<p class="muted">Queue: ${b.queue.queued} queued, ${b.queue.scheduled} scheduled, ${b.queue.awaitingApproval} awaiting approval.</p>
</section>`
    })
    return yield* framed(person, {
      title: "Inbox",
      section: "/inbox",
      body: accounts.length === 0 ? html`<p class="card">No seats are connected yet.</p>` : sections
    })
  })
)

export const layer = HttpRouter.add("GET", `${base}/inbox`, show)

