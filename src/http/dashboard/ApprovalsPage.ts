/**
 * `/dashboard/approvals`: the writes waiting for a person, each with the exact
 * text (editable before approving), the target and what the workspace knows
 * of them, and the time left of its 72 hours. Approve or reject one at a time
 * (htmx swaps the card; without scripts the form posts and the page comes
 * back) or several together. Expired ones are shown as expired. Every decision
 * goes through the Approvals service, as over REST.
 *
 * @since 1.0.0
 */
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { REASON_MAX } from "../../api/ApprovalsApi.ts"
import { type ApprovalExpired, type Conflict, type NotFound, Unprocessable } from "../../api/Errors.ts"
import * as Time from "../../domain/Time.ts"
import { type ApprovalRecord, Approvals } from "../../jobs/Approvals.ts"
import { hasText } from "../../jobs/WriteTarget.ts"
import { Accounts } from "../../accounts/Accounts.ts"
import { People } from "../../people/People.ts"
import type { PersonRecord } from "../../api/PeopleApi.ts"
import { framed, noticeFrom } from "./Frame.ts"
import { externalLink, type Html, html } from "./Html.ts"
import { base, csrfInput, relative, respond, when } from "./Layout.ts"
import { fromHtmx, type Person, seeOther, signedInAction, signedInPage } from "./Requests.ts"

export const approvalRoutes = [
  { method: "GET", path: `${base}/approvals` },
  { method: "POST", path: `${base}/approvals/bulk` },
  { method: "POST", path: `${base}/approvals/:id/approve` },
  { method: "POST", path: `${base}/approvals/:id/reject` }
] as const

const notices: Record<string, string> = {
  approved: "Approved: the write goes out through the Governor (working hours, budgets and pacing still apply).",
  rejected: "Rejected: the write will not be sent and its job failed with your reason."
}

/** Who decided, as the approval records it (the same form as REST uses for a session). */
const decider = (person: Person) => `user:${person.userId}`

type DecisionError = NotFound | Conflict | ApprovalExpired | Unprocessable

/** The message of a refused decision: the service's own words. */
const refusal = (error: DecisionError) => `${error.error.message} ${error.error.next}`

interface CardContext {
  readonly person: Person
  readonly nowMs: number
  readonly label: string
  readonly known: PersonRecord | undefined
}

const profileSummary = (approval: ApprovalRecord, known: PersonRecord | undefined): Html => {
  if (approval.target === null) return html`<p class="muted">This write has no single target (a new post).</p>`
  if (known === undefined) {
    return html`<p>${externalLink(approval.target)}</p>
<p class="muted">Nobody in this workspace has dealt with this person yet. The profile is read when the write runs; it is not opened now, so they are not told of a visit.</p>`
  }
  return html`<dl class="facts">
<dt>Name</dt><dd>${known.name ?? "not read yet"}</dd>
<dt>Headline</dt><dd>${known.headline ?? "—"}</dd>
<dt>Company</dt><dd>${known.company ?? "—"}</dd>
<dt>Profile</dt><dd>${externalLink(known.profileUrl)}</dd>
<dt>With you</dt><dd>${
    known.accounts.length === 0 ? "no seat yet" : known.accounts.map((a) => a.label).join(", ")
  } · first seen ${when(known.firstSeenAt)} · <a href="${base}/people/${known.id}">history</a></dd>
</dl>`
}

/** One approval as a card; pending ones carry their forms. */
const card = (approval: ApprovalRecord, context: CardContext, message?: { readonly error?: string; readonly notice?: string }): Html => {
  const { person } = context
  const pending = approval.status === "pending"
  const expiresMs = Date.parse(approval.expiresAt)
  const id = approval.id
  const status = pending
    ? html`<span class="pill warn">pending</span> expires <time datetime="${approval.expiresAt}">${relative(expiresMs, context.nowMs)}</time> (${when(approval.expiresAt)})`
    : html`<span class="pill ${approval.status === "approved" ? "ok" : "bad"}">${approval.status}</span>${
      approval.decidedAt === null ? "" : html` ${when(approval.decidedAt)}`
    }${approval.reason === null ? "" : html` — reason: ${approval.reason}`}`
  const text = hasText(approval.kind)
  const forms = !pending ? html`<p><a href="${base}/jobs/${approval.jobId}">See its job</a></p>` : html`
<form method="post" action="${base}/approvals/${id}/approve" hx-post="${base}/approvals/${id}/approve" hx-target="#approval-${id}" hx-swap="outerHTML">
${csrfInput(person)}
${
    text
      ? html`<label for="text-${id}">Text to send (edit before approving)</label>
<textarea id="text-${id}" name="text" maxlength="8000">${approval.text ?? ""}</textarea>`
      : html`<p class="muted">This write sends no text.</p>`
  }
<button type="submit">Approve</button>
</form>
<form method="post" action="${base}/approvals/${id}/reject" hx-post="${base}/approvals/${id}/reject" hx-target="#approval-${id}" hx-swap="outerHTML">
${csrfInput(person)}
<label for="reason-${id}">Reason for rejecting (optional)</label>
<input id="reason-${id}" name="reason" type="text" maxlength="${REASON_MAX}">
<button type="submit" class="danger">Reject</button>
</form>
<label class="check"><input type="checkbox" name="ids" value="${id}" form="bulk"> Select for a decision on several</label>`
  return html`<article class="card" id="approval-${id}" aria-labelledby="approval-title-${id}">
<h2 id="approval-title-${id}">${approval.kind} from ${context.label}</h2>
${message?.notice === undefined ? "" : html`<p class="notice" role="status">${message.notice}</p>`}
${message?.error === undefined ? "" : html`<p class="error" role="alert">${message.error}</p>`}
<p>${status}</p>
<div class="row">
<section aria-label="Target"><h3>Target</h3>${profileSummary(approval, context.known)}</section>
<section aria-label="Text"><h3>${pending ? "Text" : "Text sent"}</h3>${
    approval.text === null ? html`<p class="muted">No text.</p>` : html`<p class="quote">${approval.text}</p>`
  }</section>
</div>
${forms}
</article>`
}

/** The labels of the workspace's seats and what the workspace knows of each target. */
const contextFor = (person: Person, approvals: ReadonlyArray<ApprovalRecord>) =>
  Effect.gen(function*() {
    const accounts = yield* Accounts
    const people = yield* People
    const now = yield* Time.now
    const { accounts: seats } = yield* accounts.list(person.workspaceId)
    const labels = new Map(seats.map((a) => [a.id, a.label === "" ? "Unnamed seat" : a.label]))
    const known = new Map<string, PersonRecord | undefined>()
    for (const target of new Set(approvals.flatMap((a) => a.target === null ? [] : [a.target]))) {
      const found = yield* people.list(person.workspaceId, { profile: target, limit: 1 }).pipe(
        Effect.map((page) => page.people[0]),
        Effect.orElseSucceed(() => undefined)
      )
      known.set(target, found)
    }
    return (approval: ApprovalRecord): CardContext => ({
      person,
      nowMs: now.ms,
      label: labels.get(approval.accountId) ?? "a removed seat",
      known: approval.target === null ? undefined : known.get(approval.target)
    })
  })

const listPage = (person: Person, options: { readonly notice?: string | undefined; readonly error?: string | undefined; readonly status?: number }) =>
  Effect.gen(function*() {
    const approvals = yield* Approvals
    const pending = (yield* approvals.list(person.workspaceId, { status: "pending", limit: 100 }).pipe(Effect.orDie)).approvals
    const expired = (yield* approvals.list(person.workspaceId, { status: "expired", limit: 20 }).pipe(Effect.orDie)).approvals
    const contextOf = yield* contextFor(person, [...pending, ...expired])
    // A pending one past its 72 hours is shown as what it is: expired.
    const open = pending.filter((a) => a.status === "pending")
    const lapsed = [...pending.filter((a) => a.status === "expired"), ...expired]
    const bulk = open.length === 0 ? "" : html`<form id="bulk" class="card" method="post" action="${base}/approvals/bulk">
${csrfInput(person)}
<h2>Several at once</h2>
<p class="muted">Tick "Select" on the approvals below, then decide for all of them. Edited texts are not used here: approve those one at a time.</p>
<label for="bulk-reason">Reason for rejecting (optional)</label>
<input id="bulk-reason" name="reason" type="text" maxlength="${REASON_MAX}">
<button type="submit" name="action" value="approve">Approve selected</button>
<button type="submit" name="action" value="reject" class="danger">Reject selected</button>
</form>`
    return yield* framed(person, {
      title: "Approvals",
      section: "/approvals",
      ...options,
      body: html`${
        open.length === 0
          ? html`<p class="card">No writes are waiting for approval.</p>`
          : html`<p>${open.length} ${open.length === 1 ? "write waits" : "writes wait"} for a decision; each expires 72 hours after it was asked for.</p>`
      }
${bulk}
${open.map((a) => card(a, contextOf(a)))}
${lapsed.length === 0 ? "" : html`<h2>Expired</h2><p class="muted">Nobody decided within 72 hours: these writes were not sent. Create them again if they should still go out.</p>${lapsed.map((a) => card(a, contextOf(a)))}`}`
    })
  })

const show = signedInPage((person, request) => listPage(person, { notice: noticeFrom(request.url, notices) }))

const idOf = Effect.map(HttpRouter.params, (params) => params["id"] ?? "")

/** After one decision: the card again for htmx, else back to the list. */
const decided = (
  person: Person,
  decision: Effect.Effect<{ readonly approval: ApprovalRecord }, DecisionError, never>,
  notice: "approved" | "rejected"
) =>
  Effect.gen(function*() {
    const htmx = yield* fromHtmx
    const outcome = yield* Effect.result(decision)
    if (outcome._tag === "Success") {
      if (!htmx) return seeOther(`${base}/approvals?notice=${notice}`)
      const contextOf = yield* contextFor(person, [outcome.success.approval])
      return (yield* framedFragment(card(outcome.success.approval, contextOf(outcome.success.approval), { notice: notices[notice] })))
    }
    const message = refusal(outcome.failure)
    if (!htmx) return yield* listPage(person, { error: message, status: 422 })
    const approvals = yield* Approvals
    const id = yield* idOf
    const current = (yield* approvals.list(person.workspaceId, { limit: 100 }).pipe(Effect.orDie)).approvals.find((a) => a.id === id)
    if (current === undefined) return yield* framedFragment(html`<p class="error" role="alert">${message}</p>`)
    const contextOf = yield* contextFor(person, [current])
    return yield* framedFragment(card(current, contextOf(current), { error: message }))
  })

/** A fragment for htmx to swap in: just the markup, with the page's headers. */
const framedFragment = (markup: Html) => Effect.succeed(respond(markup))

const blankText = new Unprocessable({
  error: { message: "The text to send is empty.", next: "Write the text, or reject the write." }
})

const approve = signedInAction((person, form) =>
  Effect.gen(function*() {
    const approvals = yield* Approvals
    const id = yield* idOf
    // Browsers send a textarea's line breaks as CRLF: the text keeps the service's own line breaks.
    const submitted = form.get("text")?.replace(/\r\n?/g, "\n")
    // The text is passed only when the person changed it: an untouched text is approved as it is.
    const current = (yield* approvals.list(person.workspaceId, { status: "pending", limit: 100 }).pipe(Effect.orDie)).approvals
      .find((a) => a.id === id)
    const text = submitted !== undefined && (current === undefined || submitted !== (current.text ?? "")) ? submitted : undefined
    if (text !== undefined && text.trim() === "") {
      return yield* decided(person, Effect.fail(blankText), "approved")
    }
    return yield* decided(person, approvals.approve(person.workspaceId, id, text, decider(person)), "approved")
  })
)


const reject = signedInAction((person, form) =>
  Effect.gen(function*() {
    const approvals = yield* Approvals
    const id = yield* idOf
    const reason = (form.get("reason") ?? "").trim()
    return yield* decided(
      person,
      approvals.reject(person.workspaceId, id, reason === "" ? undefined : reason.slice(0, REASON_MAX), decider(person)),
      "rejected"
    )
  })
)

const bulk = signedInAction((person, form) =>
  Effect.gen(function*() {
    const approvals = yield* Approvals
    const ids = form.all("ids")
    const action = form.get("action")
    if (ids.length === 0 || (action !== "approve" && action !== "reject")) {
      return yield* listPage(person, { error: "Select at least one approval, then choose Approve selected or Reject selected.", status: 400 })
    }
    const reason = (form.get("reason") ?? "").trim()
    const failures: Array<string> = []
    for (const id of ids) {
      const outcome = yield* Effect.result(
        action === "approve"
          ? approvals.approve(person.workspaceId, id, undefined, decider(person))
          : approvals.reject(person.workspaceId, id, reason === "" ? undefined : reason.slice(0, REASON_MAX), decider(person))
      )
      if (outcome._tag === "Failure") failures.push(refusal(outcome.failure))
    }
    if (failures.length === 0) return seeOther(`${base}/approvals?notice=${action === "approve" ? "approved" : "rejected"}`)
    return yield* listPage(person, {
      error: `${ids.length - failures.length} of ${ids.length} done. ${failures.join(" ")}`,
      status: 422
    })
  })
)

export const layer = Layer.mergeAll(
  HttpRouter.add("GET", `${base}/approvals`, show),
  HttpRouter.add("POST", `${base}/approvals/bulk`, bulk),
  HttpRouter.add("POST", `${base}/approvals/:id/approve`, approve),
  HttpRouter.add("POST", `${base}/approvals/:id/reject`, reject)
)
