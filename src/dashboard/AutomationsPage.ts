/**
 * `/dashboard/automations`: the workspace's automations (a follow-up sequence
 * sent by one seat to a list of people, each person's run stopping when they
 * reply), newest first, with their status in words and how their runs stand;
 * `/dashboard/automations/{id}`: its messages, each person's run (linked to
 * its workflow), and pausing, resuming or stopping it (`startWorkflows`), each
 * change in the activity log. Through the Automations service, as REST.
 */
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { finishedWorkflowStatuses } from "../domain/Workflow.ts"
import { type AutomationView, Automations } from "../workflows/Automations.ts"
import { framed, noticeFrom } from "./Frame.ts"
import { html } from "./Html.ts"
import { base, localTime, problemPage } from "./Layout.ts"
import { changeAction, pauseOrStop, type Recorded } from "./PauseOrStop.ts"
import { may, type Person, signedInPage } from "./Requests.ts"
import { personLink, seatNames } from "./WorkflowsPage.ts"
import { automationStatusInWords, durationInWords, workflowPill, workflowStatusInWords } from "./WorkflowWords.ts"

export const automationRoutes = [
  { method: "GET", path: `${base}/automations` },
  { method: "GET", path: `${base}/automations/:id` },
  { method: "POST", path: `${base}/automations/:id/pause` },
  { method: "POST", path: `${base}/automations/:id/resume` },
  { method: "POST", path: `${base}/automations/:id/stop` }
] as const

const notices: Record<string, string> = {
  paused: "Paused: every run holds its next message until the automation is resumed.",
  resumed: "Resumed: the runs go on where they stopped.",
  stopped: "Stopped: every run still going is stopped, and its unstarted jobs are cancelled."
}

const notFound = problemPage(404, "Automation not found", "There is no such automation in this workspace.", html`<a href="${base}/automations">All automations</a>`)

const pill = (status: AutomationView["status"]) =>
  html`<span class="pill ${status === "active" || status === "finished" ? "ok" : status === "paused" ? "warn" : "bad"}">${automationStatusInWords(status)}</span>`

/** How the runs stand: "3 going, 1 replied, 1 done". */
const runsInWords = (view: AutomationView) => {
  const going = view.runs.filter((run) => !finishedWorkflowStatuses.has(run.status)).length
  const replied = view.runs.filter((run) => run.status === "stopped").length
  const done = view.runs.filter((run) => run.status === "completed").length
  const other = view.runs.length - going - replied - done
  return [
    `${view.runs.length} ${view.runs.length === 1 ? "person" : "people"}`,
    `${going} going`,
    `${replied} replied`,
    `${done} done`,
    ...(other === 0 ? [] : [`${other} failed or stopped by hand`])
  ].join(", ")
}

const list = signedInPage((person, request) =>
  Effect.gen(function*() {
    const automations = yield* (yield* Automations).list(person.workspaceId)
    const seats = yield* seatNames(person.workspaceId)
    return yield* framed(person, {
      title: "Automations",
      section: "/automations",
      notice: noticeFrom(request.url, notices),
      body: html`<p class="muted">A follow-up sequence sent by one seat to a list of people; each person's run stops by itself when they reply. Started over the API or by an assistant.</p>${
        automations.length === 0
          ? html`<p class="card">No automations yet.</p>`
          : html`<div class="table-wrap"><table class="automations"><thead><tr><th scope="col">Name</th><th scope="col">Seat</th><th scope="col">Status</th><th scope="col">People</th><th scope="col">Started</th></tr></thead>
<tbody>${
            automations.map((a) =>
              html`<tr><td><a href="${base}/automations/${a.row.id}">${a.row.name}</a></td><td>${seats.get(a.row.accountId) ?? "a removed seat"}</td><td>${
                pill(a.status)
              }</td><td>${runsInWords(a)}</td><td>${localTime(a.row.createdAt)}</td></tr>`
            )
          }</tbody></table></div>`
      }`
    })
  }))

const detailPage = (person: Person, id: string, options: { readonly notice?: string | undefined; readonly error?: string; readonly status?: number }) =>
  Effect.gen(function*() {
    const found = yield* Effect.result((yield* Automations).get(person.workspaceId, id))
    if (found._tag === "Failure") return notFound
    const view = found.success
    const seats = yield* seatNames(person.workspaceId)
    const open = view.status === "active" || view.status === "paused"
    const controls = !open || !may(person, "startWorkflows") ? "" : pauseOrStop(person, {
      path: `${base}/automations/${id}`,
      paused: view.status === "paused",
      confirm: "Stop it for good: every run still going stops (this cannot be undone)",
      stop: "Stop automation"
    })
    return yield* framed(person, {
      title: `Automation “${view.row.name}”`,
      section: "/automations",
      notice: options.notice,
      error: options.error,
      status: options.status ?? 200,
      body: html`<section class="card"><dl class="facts">
<dt>Status</dt><dd>${pill(view.status)}</dd>
<dt>Seat</dt><dd>${seats.get(view.row.accountId) ?? "a removed seat"}</dd>
<dt>People</dt><dd>${runsInWords(view)}</dd>
<dt>Started</dt><dd>${localTime(view.row.createdAt)}</dd>
</dl></section>
${controls}
<section class="card" aria-labelledby="messages"><h2 id="messages">Messages</h2><ol>${
        view.messages.map((m) =>
          html`<li>${m.afterDays === undefined ? "At once" : `${durationInWords(m.afterDays * 86_400)} after the one before`}${m.inmail === true ? " (InMail)" : ""}:<p class="quote">${m.text}</p></li>`
        )
      }</ol></section>
<section class="card" aria-labelledby="runs"><h2 id="runs">Each person's run</h2><div class="table-wrap"><table><thead><tr><th scope="col">Person</th><th scope="col">Run</th><th scope="col">Outcome</th></tr></thead><tbody>${
        view.runs.map((run) =>
          html`<tr><td>${personLink(run.person)}</td><td><a href="${base}/workflows/${run.id}"><span class="pill ${workflowPill(run.status, run.paused)}">${
            workflowStatusInWords(run)
          }</span></a></td><td>${run.outcome ?? "—"}</td></tr>`
        )
      }</tbody></table></div></section>`
    })
  })

const detail = signedInPage((person, request) =>
  Effect.flatMap(HttpRouter.params, (params) => detailPage(person, params["id"] ?? "", { notice: noticeFrom(request.url, notices) })))

/** A change of the automation; one that cannot change says why. */
const change = (run: (recorded: Recorded) => Recorded["pauseAutomation"], notice: keyof typeof notices, confirm = false) =>
  changeAction({
    run,
    page: detailPage,
    notFound,
    ...(confirm ? { unconfirmed: "Tick the box to confirm: a stopped automation cannot be started again." } : {}),
    conflict: (refused) => `This automation cannot be changed that way now: ${refused.message}`,
    done: (id) => `${base}/automations/${id}?notice=${notice}`
  })

export const layer = Layer.mergeAll(
  HttpRouter.add("GET", `${base}/automations`, list),
  HttpRouter.add("GET", `${base}/automations/:id`, detail),
  HttpRouter.add("POST", `${base}/automations/:id/pause`, change((r) => r.pauseAutomation, "paused")),
  HttpRouter.add("POST", `${base}/automations/:id/resume`, change((r) => r.resumeAutomation, "resumed")),
  HttpRouter.add("POST", `${base}/automations/:id/stop`, change((r) => r.stopAutomation, "stopped", true))
)
