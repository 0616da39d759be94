/**
 * `/dashboard/workflows`: the workspace's workflows, newest first, in pages of
 * 50, each with its person, seat, status in words and where it is;
 * `/dashboard/workflows/{id}`: one workflow, its steps in words, its jobs and
 * its log, paused, resumed or stopped there (`startWorkflows`), each change in
 * the activity log. Through the Workflows service, as REST.
 */
import { Effect, Layer, Schema } from "effect"
import { HttpRouter } from "effect/http"
import { Accounts } from "../accounts/Accounts.ts"
import { Uuid } from "../api/Envelope.ts"
import { commandInWords, statusInWords } from "../domain/Words.ts"
import { finishedWorkflowStatuses } from "../domain/Workflow.ts"
import { type WorkflowView, Workflows } from "../workflows/Workflows.ts"
import { framed, noticeFrom } from "./Frame.ts"
import { externalLink, html } from "./Html.ts"
import { base, localTime, problemPage } from "./Layout.ts"
import { changeAction, pauseOrStop, type Recorded } from "./PauseOrStop.ts"
import { may, type Person, signedInPage } from "./Requests.ts"
import { logInWords, stepInWords, workflowPill, workflowStatusInWords } from "./WorkflowWords.ts"

export const workflowRoutes = [
  { method: "GET", path: `${base}/workflows` },
  { method: "GET", path: `${base}/workflows/:id` },
  { method: "POST", path: `${base}/workflows/:id/pause` },
  { method: "POST", path: `${base}/workflows/:id/resume` },
  { method: "POST", path: `${base}/workflows/:id/stop` }
] as const

const notices: Record<string, string> = {
  paused: "Paused: no further step starts until it is resumed.",
  resumed: "Resumed where it stopped.",
  stopped: "Stopped: its unstarted jobs are cancelled and it runs no further step."
}

const pageSize = 50
const isUuid = Schema.is(Uuid)

const notFound = problemPage(404, "Workflow not found", "There is no such workflow in this workspace.", html`<a href="${base}/workflows">All workflows</a>`)

/** A profile address as the pages show it (without `https://www.`), a link when it is one. */
export const personLink = (address: string) => externalLink(address, address.replace(/^https:\/\/(www\.)?/, ""))

/** The seats' names by id, for a page. */
export const seatNames = (workspaceId: string) =>
  Effect.gen(function*() {
    const { accounts } = yield* (yield* Accounts).list(workspaceId)
    return new Map(accounts.map((a): [string, string] => [a.id, a.label === "" ? "an unnamed seat" : a.label]))
  })

/** Its status in words; waiting for its step's job, what that job waits for (the last one made is the step's). */
const status = (view: WorkflowView) =>
  html`<span class="pill ${workflowPill(view.row.status, view.row.paused)}">${workflowStatusInWords(view.row, view.jobs.at(-1)?.status)}</span>`

const list = signedInPage((person, request) =>
  Effect.gen(function*() {
    const params = new URL(request.url, "http://dashboard").searchParams
    const automation = params.get("automation") ?? ""
    const cursor = params.get("cursor") ?? undefined
    const chosenAutomation = isUuid(automation) ? automation : undefined
    const page = yield* Effect.result((yield* Workflows).list(person.workspaceId, { automationId: chosenAutomation, cursor, limit: pageSize }))
    const seats = yield* seatNames(person.workspaceId)
    const workflows = page._tag === "Success" ? page.success.workflows : []
    const next = page._tag === "Success" ? page.success.nextCursor : null
    const older = new URLSearchParams({
      ...(chosenAutomation === undefined ? {} : { automation: chosenAutomation }),
      ...(next === null ? {} : { cursor: next })
    })
    return yield* framed(person, {
      title: "Workflows",
      section: "/workflows",
      notice: noticeFrom(request.url, notices),
      error: page._tag === "Failure" ? "That page of the list is out of date: start again from the newest." : undefined,
      status: page._tag === "Failure" ? 400 : 200,
      body: html`<p class="muted">Trees of steps about one person, each step a job through the seat's pacing and approvals. Started over the API or by an assistant; automations start one per person.${
        chosenAutomation === undefined ? "" : html` Showing one automation's runs: <a href="${base}/workflows">show every workflow</a>.`
      }</p>${
        workflows.length === 0
          ? html`<p class="card">No workflows${chosenAutomation === undefined ? " yet" : " in this automation"}.</p>`
          : html`<div class="table-wrap"><table class="workflows"><thead><tr><th scope="col">Person</th><th scope="col">Seat</th><th scope="col">Status</th><th scope="col">Now at</th><th scope="col">Started</th></tr></thead>
<tbody>${
            workflows.map((w) =>
              html`<tr><td><a href="${base}/workflows/${w.row.id}">${w.row.person.replace(/^https:\/\/(www\.)?/, "")}</a></td><td>${seats.get(w.row.accountId) ?? "a removed seat"}</td><td>${status(w)}</td><td>${
                w.row.step === null ? "—" : stepNow(w)
              }</td><td>${localTime(w.row.createdAt)}</td></tr>`
            )
          }</tbody></table></div>`
      }
${next === null ? "" : html`<p><a href="${base}/workflows?${older.toString()}" rel="next">Older workflows</a></p>`}`
    })
  }))

/** The step it is at, in words: "step 2 of 5: Message". */
const stepNow = (view: WorkflowView) => {
  const path = view.row.step?.split(": ")[0] ?? ""
  const top = Number(path.split(".")[0])
  const command = view.row.step?.split(": ")[1]
  return `step ${Number.isInteger(top) ? top + 1 : "?"} of ${view.steps.length}${command === undefined ? "" : `: ${commandInWords(command)}`}`
}

const detailPage = (person: Person, id: string, options: { readonly notice?: string | undefined; readonly error?: string; readonly status?: number }) =>
  Effect.gen(function*() {
    const found = yield* Effect.result((yield* Workflows).get(person.workspaceId, id))
    if (found._tag === "Failure") return notFound
    const view = found.success
    const row = view.row
    const seats = yield* seatNames(person.workspaceId)
    const open = !finishedWorkflowStatuses.has(row.status)
    const controls = !open || !may(person, "startWorkflows") ? "" : pauseOrStop(person, {
      path: `${base}/workflows/${row.id}`,
      paused: row.paused,
      confirm: "Stop it for good: its unstarted jobs are cancelled (this cannot be undone)",
      stop: "Stop workflow"
    })
    return yield* framed(person, {
      title: `Workflow about ${row.person.replace(/^https:\/\/(www\.)?/, "")}`,
      section: "/workflows",
      notice: options.notice,
      error: options.error,
      status: options.status ?? 200,
      body: html`<section class="card"><dl class="facts">
<dt>Status</dt><dd>${status(view)}${row.waitingUntil === null || !open ? "" : html` until ${localTime(row.waitingUntil)}`}</dd>
<dt>Person</dt><dd>${personLink(row.person)}</dd>
<dt>Seat</dt><dd>${seats.get(row.accountId) ?? "a removed seat"}</dd>
${row.automationId === null ? "" : html`<dt>Automation</dt><dd><a href="${base}/automations/${row.automationId}">one run of an automation</a>${row.stopOnReply ? " (stops when the person replies)" : ""}</dd>`}
<dt>Now at</dt><dd>${row.step === null ? "—" : stepNow(view)}</dd>
${row.outcome === null ? "" : html`<dt>Outcome</dt><dd>${row.outcome}</dd>`}
<dt>Started</dt><dd>${localTime(row.createdAt)}</dd>
${row.finishedAt === null ? "" : html`<dt>Ended</dt><dd>${localTime(row.finishedAt)}</dd>`}
</dl></section>
${controls}
<section class="card" aria-labelledby="steps"><h2 id="steps">Steps</h2><ol>${view.steps.map(stepInWords)}</ol></section>
<section class="card" aria-labelledby="jobs"><h2 id="jobs">Its jobs</h2>${
        view.jobs.length === 0
          ? html`<p class="muted">No job yet.</p>`
          : html`<ul>${view.jobs.map((j) => html`<li><a href="${base}/jobs/${j.jobId}">${commandInWords(j.kind)}</a>: ${statusInWords(j.status)}</li>`)}</ul>`
      }</section>
<section class="card" aria-labelledby="log"><h2 id="log">What happened</h2>${
        view.log.length === 0 ? html`<p class="muted">Nothing yet.</p>` : html`<ul>${view.log.map((l) => html`<li>${localTime(l.at)}: ${logInWords(l.entry)}</li>`)}</ul>`
      }</section>`
    })
  })

const detail = signedInPage((person, request) =>
  Effect.flatMap(HttpRouter.params, (params) => detailPage(person, params["id"] ?? "", { notice: noticeFrom(request.url, notices) })))

/** A change of the workflow; one already ended says so. */
const change = (run: (recorded: Recorded) => Recorded["pauseWorkflow"], notice: keyof typeof notices, confirm = false) =>
  changeAction({
    run,
    page: detailPage,
    notFound,
    ...(confirm ? { unconfirmed: "Tick the box to confirm: a stopped workflow cannot be started again." } : {}),
    conflict: () => "This workflow has already ended: there is nothing to pause, resume or stop.",
    done: (id) => `${base}/workflows/${id}?notice=${notice}`
  })

export const layer = Layer.mergeAll(
  HttpRouter.add("GET", `${base}/workflows`, list),
  HttpRouter.add("GET", `${base}/workflows/:id`, detail),
  HttpRouter.add("POST", `${base}/workflows/:id/pause`, change((r) => r.pauseWorkflow, "paused")),
  HttpRouter.add("POST", `${base}/workflows/:id/resume`, change((r) => r.resumeWorkflow, "resumed")),
  HttpRouter.add("POST", `${base}/workflows/:id/stop`, change((r) => r.stopWorkflow, "stopped", true))
)
