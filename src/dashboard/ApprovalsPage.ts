/**
 * `/dashboard/approvals`: the queue of writes waiting for a person, built for
 * volume. One compact row per approval (seat, kind, person, first line of the
 * text, time left), the text edited in place with its length limit counted as
 * you type, filters by seat, kind and time left, pages of 50 with the true
 * count, keyboard shortcuts (`approvals.js`), and a bulk decision that sends
 * each selected row's edited text. A refused edit comes back as typed, with
 * the reason in words. The "Decided" view shows who decided what, when, and the
 * text that went out. Every decision goes through the Approvals service, as
 * over REST.
 */
import { Effect, Layer, Schema } from "effect"
import { HttpRouter } from "effect/http"
import { REASON_MAX } from "../api/ApprovalsApi.ts"
import { Uuid } from "../api/Envelope.ts"
import type { Expired, Invalid, Missing, WrongState } from "../domain/Failures.ts"
import { actorOf } from "../domain/Principal.ts"
import * as Time from "../domain/Time.ts"
import { Accounts } from "../accounts/Accounts.ts"
import { Approvals, type DecidedApproval } from "../approvals/Approvals.ts"
import { hasText, textLimitOf, textOptional } from "../jobs/WriteTarget.ts"
import { actorNamer } from "../http/Actors.ts"
import { framed, noticeFrom } from "./Frame.ts"
import { externalLink, type Html, html } from "./Html.ts"
import { base, csrfInput, localTime, relative, when } from "./Layout.ts"
import { type Form, type Person, safeNext, seeOther, signedInAction, signedInPage } from "./Requests.ts"
import { commandInWords, writeKinds } from "../domain/Words.ts"

export const approvalRoutes = [
  { method: "GET", path: `${base}/approvals` },
  { method: "POST", path: `${base}/approvals/bulk` },
  { method: "POST", path: `${base}/approvals/:id/approve` },
  { method: "POST", path: `${base}/approvals/:id/reject` }
] as const

/** Rows on one page of the queue. */
export const pageSize = 50

const notices: Record<string, string> = {
  approved: "Approved: the write goes out through the Governor (working hours, budgets and pacing still apply).",
  rejected: "Rejected: the write will not be sent and its job failed with your reason."
}

/** The time-left filter, in words and milliseconds. */
const timeLeft = [
  { value: "1h", label: "less than 1 hour left", ms: 3_600_000 },
  { value: "6h", label: "less than 6 hours left", ms: 6 * 3_600_000 },
  { value: "24h", label: "less than 24 hours left", ms: 24 * 3_600_000 }
] as const

/** What the queue shows: which view, which filters and which page, read from the address. */
interface Query {
  readonly view: "pending" | "decided"
  readonly seat: string | undefined
  readonly kind: string | undefined
  readonly left: (typeof timeLeft)[number] | undefined
  readonly page: number
}

const isUuid = Schema.is(Uuid)

/** The query of an address; anything unknown is ignored, never an error. */
const queryOf = (url: string): Query => {
  const params = new URL(url, "http://dashboard").searchParams
  const seat = params.get("seat") ?? ""
  const kind = params.get("kind") ?? ""
  const page = Number(params.get("page") ?? "1")
  return {
    view: params.get("view") === "decided" ? "decided" : "pending",
    seat: isUuid(seat) ? seat : undefined,
    kind: writeKinds.some((k) => k.kind === kind) ? kind : undefined,
    left: timeLeft.find((t) => t.value === params.get("left")),
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1
  }
}

/** The address of `query` (with changes), so filters and pages survive every link and decision. */
const addressOf = (query: Query, change: Partial<Query> = {}, extra: Record<string, string> = {}): string => {
  const q = { ...query, ...change }
  const params = new URLSearchParams()
  if (q.view === "decided") params.set("view", "decided")
  if (q.seat !== undefined) params.set("seat", q.seat)
  if (q.kind !== undefined) params.set("kind", q.kind)
  if (q.left !== undefined) params.set("left", q.left.value)
  if (q.page > 1) params.set("page", String(q.page))
  for (const [name, value] of Object.entries(extra)) params.set(name, value)
  const search = params.toString()
  return `${base}/approvals${search === "" ? "" : `?${search}`}`
}

/** Who decided, as the approval records it (the same form as REST uses for a session). */
const decider = (person: Person) => actorOf(person.principal)

type DecisionError = Missing | WrongState | Expired | Invalid

/** What a person can do about a refused decision, in the page's words (the API's `next` speaks REST). */
const adviceOn: Readonly<Record<DecisionError["_tag"], string>> = {
  Missing: "It may have been decided already: the queue shows what still waits.",
  WrongState: "Someone decided it already: the Decided view shows who, and what went out.",
  Expired: "Its 72 hours are over: ask for the write again if it should still go out.",
  Invalid: "Change the text (or send an invitation without its note) and approve again."
}

/** The message of a refused decision: the service's own words, and what to do about it on this page. */
const refusalOf = (error: DecisionError) => `${error.message} ${adviceOn[error._tag]}`

/** What the person typed and what was refused, kept for the page that comes back. */
interface Kept {
  readonly typed: ReadonlyMap<string, string>
  readonly errors: ReadonlyMap<string, string>
}

const nothingKept: Kept = { typed: new Map(), errors: new Map() }

/** A profile address as people read it: without `https://www.`. */
const shortAddress = (address: string): string => address.replace(/^https:\/\/(www\.)?/, "")

/** The person a write is aimed at: a link when its address is one, else text. */
const targetCell = (target: string | null): Html =>
  target === null ? html`<span class="muted">no target</span>` : externalLink(target, shortAddress(target))

const firstLine = (text: string | null): string => {
  if (text === null || text === "") return "(no text)"
  const line = text.split("\n")[0] ?? ""
  return line.length > 90 ? `${line.slice(0, 89)}…` : line
}

/** The row's text editor: the text (as typed, after a refusal), its limit and a live count. */
const editor = (approval: DecidedApproval, typed: string | undefined): Html => {
  if (!hasText(approval.kind)) return html`<p class="muted">This write sends no text.</p>`
  const limit = textLimitOf(approval.kind) ?? 0
  const value = typed ?? approval.text ?? ""
  const id = approval.id
  return html`<label for="text-${id}">Text to send (at most ${limit} characters)</label>
<textarea id="text-${id}" name="text-${id}" data-limit="${limit}" aria-describedby="text-${id}-count">${value}</textarea>
<p class="muted counter${value.length > limit ? " over" : ""}" id="text-${id}-count" aria-live="polite">${value.length} / ${limit}</p>${
    textOptional(approval.kind)
      ? html`<button type="submit" class="secondary" formaction="${base}/approvals/${id}/approve" name="without" value="note">Send without a note</button>`
      : ""
  }`
}

interface RowContext {
  readonly nowMs: number
  readonly seatOf: (accountId: string) => string
  readonly kept: Kept
}

/** One pending approval: a compact row, its editor behind "Edit". */
const pendingRow = (approval: DecidedApproval, context: RowContext): Html => {
  const id = approval.id
  const typed = context.kept.typed.get(id)
  const error = context.kept.errors.get(id)
  const expiresMs = Date.parse(approval.expiresAt)
  const open = typed !== undefined || error !== undefined
  return html`<tr class="approval" id="approval-${id}" tabindex="-1" data-id="${id}">
<td><input type="checkbox" name="ids" value="${id}" aria-label="Select ${commandInWords(approval.kind)} to ${approval.target ?? "no one"}"></td>
<td>${context.seatOf(approval.accountId)}</td>
<td>${commandInWords(approval.kind)}</td>
<td class="target">${targetCell(approval.target)}</td>
<td class="text"><details${open ? html` open` : ""}><summary>${firstLine(typed ?? approval.text)}</summary>
${error === undefined ? "" : html`<p class="error" role="alert">${error}</p>`}
${editor(approval, typed)}
<label for="reason-${id}">Reason for rejecting (optional)</label>
<input id="reason-${id}" name="reason-${id}" type="text" maxlength="${REASON_MAX}">
</details></td>
<td><time datetime="${approval.expiresAt}" title="${when(approval.expiresAt)}">${relative(expiresMs, context.nowMs)}</time></td>
<td class="actions"><button type="submit" formaction="${base}/approvals/${id}/approve" data-action="approve">Approve</button>
<button type="submit" formaction="${base}/approvals/${id}/reject" class="danger" data-action="reject">Reject</button></td>
</tr>`
}

const outcomeWords: Record<string, string> = { approved: "approved", rejected: "rejected", expired: "expired", pending: "pending" }

/** One decided approval: who decided, when, and the text that went out. */
const decidedRow = (approval: DecidedApproval, context: RowContext & { readonly who: (actor: string | null) => string }): Html =>
  html`<tr id="approval-${approval.id}">
<td>${localTime(approval.decidedAt ?? approval.expiresAt)}</td>
<td>${context.who(approval.status === "expired" && approval.decidedBy === null ? "expiry" : approval.decidedBy)}</td>
<td><span class="pill ${approval.status === "approved" ? "ok" : "bad"}">${outcomeWords[approval.status] ?? approval.status}</span></td>
<td>${context.seatOf(approval.accountId)}</td>
<td>${commandInWords(approval.kind)}</td>
<td class="target">${targetCell(approval.target)}</td>
<td class="text">${
    approval.status === "approved"
      ? (approval.text === null || approval.text === ""
        ? html`<span class="muted">${approval.kind === "connect" ? "no note" : "no text"}</span>`
        : html`<span class="quote">${approval.text}</span>`)
      : approval.reason === null
      ? html`<span class="muted">not sent</span>`
      : html`not sent: ${approval.reason}`
  }</td>
<td><a href="${base}/jobs/${approval.jobId}">job</a></td>
</tr>`

const filters = (query: Query, seats: ReadonlyArray<{ readonly id: string; readonly label: string }>): Html =>
  html`<form class="card filters" method="get" action="${base}/approvals" aria-label="Filters">
${query.view === "decided" ? html`<input type="hidden" name="view" value="decided">` : ""}
<div class="row">
<div><label for="filter-seat">Seat</label><select id="filter-seat" name="seat"><option value="">every seat</option>${
    seats.map((s) => html`<option value="${s.id}"${s.id === query.seat ? html` selected` : ""}>${s.label}</option>`)
  }</select></div>
<div><label for="filter-kind">Kind</label><select id="filter-kind" name="kind"><option value="">every kind</option>${
    writeKinds.map((k) => html`<option value="${k.kind}"${k.kind === query.kind ? html` selected` : ""}>${k.label}</option>`)
  }</select></div>
${
    query.view === "pending"
      ? html`<div><label for="filter-left">Time left</label><select id="filter-left" name="left"><option value="">any</option>${
        timeLeft.map((t) => html`<option value="${t.value}"${t.value === query.left?.value ? html` selected` : ""}>${t.label}</option>`)
      }</select></div>`
      : ""
  }
</div>
<button type="submit">Filter</button> <a href="${addressOf({ view: query.view, seat: undefined, kind: undefined, left: undefined, page: 1 })}">Clear filters</a>
</form>`

/** "Showing 51–100 of 150", with the links to the pages either side. */
const pager = (query: Query, total: number, shown: number, noun: string): Html => {
  const from = shown === 0 ? 0 : (query.page - 1) * pageSize + 1
  const last = Math.max(1, Math.ceil(total / pageSize))
  return html`<nav class="pager" aria-label="Pages"><p id="queue-count">${shown === 0 ? `Showing 0 of ${total}` : `Showing ${from}–${from + shown - 1} of ${total}`} ${noun}</p>${
    query.page > 1 ? html`<a href="${addressOf(query, { page: query.page - 1 })}" rel="prev">Previous page</a> ` : ""
  }${query.page < last ? html`<a href="${addressOf(query, { page: query.page + 1 })}" rel="next">Next page</a>` : ""}</nav>`
}

const render = (
  person: Person,
  query: Query,
  options: { readonly notice?: string | undefined; readonly error?: string | undefined; readonly status?: number; readonly kept?: Kept }
) =>
  Effect.gen(function*() {
    const approvals = yield* Approvals
    const now = yield* Time.now
    const { accounts: seats } = yield* (yield* Accounts).list(person.workspaceId)
    const labelled = seats.map((a) => ({ id: a.id, label: a.label === "" ? "Unnamed seat" : a.label }))
    const labels = new Map(labelled.map((s) => [s.id, s.label]))
    const page = yield* approvals.queue(person.workspaceId, {
      view: query.view,
      accountId: query.seat,
      kind: query.kind,
      expiresWithinMs: query.view === "pending" ? query.left?.ms : undefined,
      offset: (query.page - 1) * pageSize,
      limit: pageSize
    })
    const waiting = query.view === "pending"
      ? page.total
      : (yield* approvals.queue(person.workspaceId, { view: "pending", offset: 0, limit: 0 })).total
    const context: RowContext = {
      nowMs: now.ms,
      seatOf: (id) => labels.get(id) ?? "a removed seat",
      kept: options.kept ?? nothingKept
    }
    const tabs = html`<nav class="tabs" aria-label="Views">
<a href="${addressOf({ ...query, view: "pending", page: 1 })}"${query.view === "pending" ? html` aria-current="page"` : ""}>Waiting (${waiting})</a>
<a href="${addressOf({ ...query, view: "decided", left: undefined, page: 1 })}"${query.view === "decided" ? html` aria-current="page"` : ""}>Decided</a></nav>`
    const body = query.view === "pending"
      ? html`<div id="approvals-list" data-live-list>${pager(query, page.total, page.approvals.length, "waiting")}
<p class="muted keys">Keyboard: <kbd>j</kbd>/<kbd>k</kbd> next and previous, <kbd>e</kbd> edit the text, <kbd>a</kbd> approve, <kbd>r</kbd> reject, <kbd>x</kbd> select. Each expires 72 hours after it was asked for; the soonest first.</p>
<form id="queue" method="post" action="${base}/approvals/bulk">${csrfInput(person)}
<input type="hidden" name="back" value="${addressOf(query)}">
${
        page.approvals.length === 0
          ? html`<p class="card">No writes wait for a decision${query.seat !== undefined || query.kind !== undefined || query.left !== undefined ? " with these filters" : ""}.</p>`
          : html`<div class="card bulk"><h2>Selected rows <span class="muted">(approving sends each one's text as it stands in its row, edits included)</span></h2>
<div class="field"><label for="bulk-reason">Reason for rejecting them (optional)</label>
<input id="bulk-reason" name="reason" type="text" maxlength="${REASON_MAX}"></div>
<button type="submit" name="action" value="approve">Approve selected</button>
<button type="submit" name="action" value="reject" class="danger">Reject selected</button></div>
<div class="table-wrap"><table class="queue"><thead><tr><th scope="col"><span class="visually-hidden">Select</span></th><th scope="col">Seat</th><th scope="col">Kind</th><th scope="col">Person</th><th scope="col">Text</th><th scope="col">Time left</th><th scope="col">Decide</th></tr></thead>
<tbody>${page.approvals.map((a) => pendingRow(a, context))}</tbody></table></div>
`
      }
</form></div>`
      : yield* Effect.gen(function*() {
        const who = yield* actorNamer(person.workspaceId)
        return html`${pager(query, page.total, page.approvals.length, "decided")}${
          page.approvals.length === 0
            ? html`<p class="card">Nothing decided yet${query.seat !== undefined || query.kind !== undefined ? " with these filters" : ""}.</p>`
            : html`<div class="table-wrap"><table class="decided"><thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Outcome</th><th scope="col">Seat</th><th scope="col">Kind</th><th scope="col">Person</th><th scope="col">Text that went out</th><th scope="col"><span class="visually-hidden">Job</span></th></tr></thead>
<tbody>${page.approvals.map((a) => decidedRow(a, { ...context, who }))}</tbody></table></div>`
        }`
      })
    return yield* framed(person, {
      title: "Approvals",
      section: "/approvals",
      notice: options.notice,
      error: options.error,
      status: options.status ?? 200,
      body: html`${tabs}${filters(query, labelled)}${body}`
    })
  })

const show = signedInPage((person, request) => render(person, queryOf(request.url), { notice: noticeFrom(request.url, notices) }))

/** Where to go back to after a decision: the queue as it was (filters and page). */
const backOf = (form: Form): string => {
  const back = safeNext(form.get("back"))
  return back.startsWith(`${base}/approvals`) ? back : `${base}/approvals`
}

const withNotice = (back: string, notice: string) => `${back}${back.includes("?") ? "&" : "?"}notice=${notice}`

/**
 * The text a row's approval sends: undefined when untouched (approved as it is), "" to send an
 * invitation without its note, else the edited text. Browsers send a textarea's line breaks as
 * CRLF: the text keeps the service's own line breaks.
 */
const submittedText = (form: Form, approval: DecidedApproval, without: boolean): string | undefined => {
  if (without) return ""
  const typed = (form.get(`text-${approval.id}`) ?? form.get("text"))?.replace(/\r\n?/g, "\n")
  return typed === undefined || typed === (approval.text ?? "") ? undefined : typed
}

/** Refuses, in words, a text the network would refuse, before asking the service. */
const textProblem = (approval: DecidedApproval, text: string | undefined): string | undefined => {
  if (text === undefined) return undefined
  const limit = textLimitOf(approval.kind)
  const what = approval.kind === "connect" ? "The invitation note" : "The text"
  if (limit !== undefined && text.length > limit) {
    return `${what} is ${text.length} characters; the network allows at most ${limit}. Shorten it by ${text.length - limit} and approve again.`
  }
  if (text.trim() === "" && !textOptional(approval.kind)) return "The text to send is empty. Write it, or reject the write."
  return undefined
}

/** The pending approvals of `ids` in this workspace (unknown or decided ones are left out). */
const pendingOf = (person: Person, ids: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const approvals = yield* Approvals
    const wanted = new Set(ids.filter(isUuid))
    const found: Array<DecidedApproval> = []
    // The whole queue in pages: no cap hides a selected row.
    for (let offset = 0; wanted.size > found.length; offset += 500) {
      const page = yield* approvals.queue(person.workspaceId, { view: "pending", offset, limit: 500 })
      found.push(...page.approvals.filter((a) => wanted.has(a.id)))
      if (page.approvals.length < 500) break
    }
    return found
  })

/**
 * Decides each approval of `ids` as the form says; what was refused comes back as typed with
 * its reason, the rest is done.
 */
const decideAll = (
  person: Person,
  form: Form,
  ids: ReadonlyArray<string>,
  action: "approve" | "reject",
  bulkReason: string | undefined
) =>
  Effect.gen(function*() {
    const approvals = yield* Approvals
    const back = backOf(form)
    const found = yield* pendingOf(person, ids)
    const typed = new Map<string, string>()
    const errors = new Map<string, string>()
    const missing = ids.length - found.length
    for (const approval of found) {
      if (action === "reject") {
        const reason = (form.get(`reason-${approval.id}`) ?? "").trim() || bulkReason
        const outcome = yield* Effect.result(
          approvals.reject(person.workspaceId, approval.id, reason?.slice(0, REASON_MAX), decider(person))
        )
        if (outcome._tag === "Failure") errors.set(approval.id, refusalOf(outcome.failure))
        continue
      }
      const text = submittedText(form, approval, form.get("without") === "note")
      const problem = textProblem(approval, text)
      const outcome = problem !== undefined
        ? undefined
        : yield* Effect.result(approvals.approve(person.workspaceId, approval.id, text, decider(person)))
      if (problem !== undefined || outcome?._tag === "Failure") {
        errors.set(approval.id, problem ?? (outcome?._tag === "Failure" ? refusalOf(outcome.failure) : ""))
        if (text !== undefined) typed.set(approval.id, text)
      }
    }
    if (errors.size === 0 && missing === 0) return seeOther(withNotice(back, action === "approve" ? "approved" : "rejected"))
    const done = found.length - errors.size
    const gone = missing === 0 ? "" : ` ${missing} ${missing === 1 ? "was" : "were"} already decided or no longer exist.`
    return yield* render(person, queryOf(back), {
      error: `${done} of ${ids.length} ${action === "approve" ? "approved" : "rejected"}.${gone}${
        errors.size === 0 ? "" : " The rows marked below were not: what you typed is kept, fix it and try again."
      }`,
      status: 422,
      kept: { typed, errors }
    })
  })

const idOf = Effect.map(HttpRouter.params, (params) => params["id"] ?? "")

const approve = signedInAction((person, form) =>
  Effect.flatMap(idOf, (id) => decideAll(person, form, [id], "approve", undefined))
)

const reject = signedInAction((person, form) =>
  Effect.flatMap(idOf, (id) => decideAll(person, form, [id], "reject", undefined))
)

const bulk = signedInAction((person, form) =>
  Effect.gen(function*() {
    const ids = form.all("ids")
    const action = form.get("action")
    if (ids.length === 0 || (action !== "approve" && action !== "reject")) {
      return yield* render(person, queryOf(backOf(form)), {
        error: "Select at least one row, then choose Approve selected or Reject selected.",
        status: 400
      })
    }
    const reason = (form.get("reason") ?? "").trim()
    return yield* decideAll(person, form, ids, action, reason === "" ? undefined : reason)
  })
)

export const layer = Layer.mergeAll(
  HttpRouter.add("GET", `${base}/approvals`, show),
  HttpRouter.add("POST", `${base}/approvals/bulk`, bulk),
  HttpRouter.add("POST", `${base}/approvals/:id/approve`, approve),
  HttpRouter.add("POST", `${base}/approvals/:id/reject`, reject)
)
