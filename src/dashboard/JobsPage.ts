/**
 * `/dashboard/jobs`: the job explorer. Every job of the workspace, newest
 * first, filtered by status, kind and seat, in pages, each one a line in words
 * with why it waits or why it failed; cancel a job that has not started, and
 * retry a failed write as a new job. `/dashboard/jobs/{id}`: one job as a
 * sentence ("Invitation to …, note '…', done 10:42"), why it waits in words,
 * when it is expected to start (the forecast), and the JSON behind a toggle.
 * Everything through the Jobs service, as REST.
 */
import { Effect, Layer, Schema } from "effect"
import { HttpRouter } from "effect/http"
import { Accounts } from "../accounts/Accounts.ts"
import { commands, isCommandName } from "../domain/Commands.ts"
import { isFinished, JobStatus } from "../domain/Job.ts"
import * as Time from "../domain/Time.ts"
import { commandInWords, statusInWords, waitInWords, writeKinds } from "../domain/Words.ts"
import type { JobRecord } from "../jobs/JobRow.ts"
import { Forecasts } from "../jobs/Forecasts.ts"
import { Jobs } from "../jobs/Jobs.ts"
import { targetOf, textOf } from "../jobs/WriteTarget.ts"
import { framed, noticeFrom } from "./Frame.ts"
import { externalLink, type Html, html } from "./Html.ts"
import { base, csrfInput, localTime, problemPage, relative } from "./Layout.ts"
import { may, notAllowedPage, type Person, seeOther, signedInAction, signedInPage } from "./Requests.ts"

export const jobRoutes = [
  { method: "GET", path: `${base}/jobs` },
  { method: "GET", path: `${base}/jobs/:id` },
  { method: "POST", path: `${base}/jobs/:id/cancel` },
  { method: "POST", path: `${base}/jobs/:id/retry` }
] as const

const notices: Record<string, string> = {
  cancelled: "Cancelled: the job will not run (its pending approval, if any, was rejected).",
  retried: "A new job was made with the same command and input; this is it."
}

const pageSize = 50
const isStatus = Schema.is(JobStatus)
const open = new Set(["queued", "awaiting_approval", "scheduled"])

const statusClass = (status: string) =>
  status === "completed" ? "ok" : status === "failed" || status === "cancelled" ? "bad" : "warn"

/** Why a job waits, in words, with when that ends. */
const waiting = (job: JobRecord, nowMs: number): Html | "" =>
  job.waitingFor === null
    ? ""
    : html`waits for ${waitInWords(job.waitingFor.reason)}${
      job.waitingFor.until === null ? "" : html` until ${localTime(job.waitingFor.until)} (${relative(Date.parse(job.waitingFor.until), nowMs)})`
    }`

/** The error's message, when a job failed. */
const failure = (job: JobRecord): string | undefined => {
  const error = job.error
  if (typeof error !== "object" || error === null || !("message" in error)) return undefined
  return typeof error.message === "string" ? error.message : undefined
}

/** A job as a sentence: "Invitation to …, note '…'". */
const sentence = (job: JobRecord): Html => {
  const target = targetOf(job.input)
  const text = textOf(job.kind, job.input)
  const noun = job.kind === "connect" ? "note" : "text"
  return html`${commandInWords(job.kind)}${target === null ? "" : html` to ${externalLink(target, target.replace(/^https:\/\/(www\.)?/, ""))}`}${
    text === null ? "" : text === "" ? html`, without a ${noun}` : html`, ${noun} “${text.length > 80 ? `${text.slice(0, 79)}…` : text}”`
  }`
}

/** What happened to it, and when. */
const outcome = (job: JobRecord, nowMs: number): Html =>
  html`<span class="pill ${statusClass(job.status)}">${statusInWords(job.status)}</span>${
    job.status === "completed" && job.finishedAt !== null
      ? html` ${localTime(job.finishedAt)}`
      : job.status === "failed" || job.status === "cancelled"
      ? html`${failure(job) === undefined ? "" : html`: ${failure(job)}`}`
      : html` ${waiting(job, nowMs)}`
  }`

/** Cancel (not started yet) and retry (a failed write), for those who may run commands. */
const actions = (person: Person, job: JobRecord): Html | "" => {
  if (!may(person, "runCommands")) return ""
  const button = (path: string, label: string, style: string) =>
    html`<form class="inline" method="post" action="${base}/jobs/${job.id}/${path}">${csrfInput(person)}<button type="submit" class="${style}">${label}</button></form>`
  if (open.has(job.status)) return button("cancel", "Cancel", "danger")
  if (job.status === "failed" && writeKinds.some((k) => k.kind === job.kind)) return button("retry", "Retry as a new job", "secondary")
  return ""
}

const list = signedInPage((person, request) =>
  Effect.gen(function*() {
    const now = yield* Time.now
    const params = new URL(request.url, "http://dashboard").searchParams
    const { accounts: seats } = yield* (yield* Accounts).list(person.workspaceId)
    const labels = new Map(seats.map((s) => [s.id, s.label === "" ? "Unnamed seat" : s.label]))
    const seat = params.get("account") ?? ""
    const status = params.get("status") ?? ""
    const kind = params.get("kind") ?? ""
    const filters = {
      accountId: labels.has(seat) ? seat : undefined,
      status: isStatus(status) ? status : undefined,
      kind: isCommandName(kind) ? kind : undefined
    }
    const page = yield* Effect.result((yield* Jobs).list(person.workspaceId, { ...filters, cursor: params.get("cursor") ?? undefined, limit: pageSize }))
    const jobs = page._tag === "Success" ? page.success.jobs : []
    const next = page._tag === "Success" ? page.success.nextCursor : null
    const older = new URLSearchParams({
      ...(filters.accountId === undefined ? {} : { account: filters.accountId }),
      ...(filters.status === undefined ? {} : { status: filters.status }),
      ...(filters.kind === undefined ? {} : { kind: filters.kind }),
      ...(next === null ? {} : { cursor: next })
    })
    const select = (id: string, label: string, name: string, options: ReadonlyArray<{ readonly value: string; readonly label: string }>, chosen: string | undefined, any: string) =>
      html`<div><label for="${id}">${label}</label><select id="${id}" name="${name}"><option value="">${any}</option>${
        options.map((o) => html`<option value="${o.value}"${o.value === chosen ? html` selected` : ""}>${o.label}</option>`)
      }</select></div>`
    return yield* framed(person, {
      title: "Jobs",
      section: "/jobs",
      notice: noticeFrom(request.url, notices),
      error: page._tag === "Failure" ? "That page of jobs is out of date: start again from the newest." : undefined,
      status: page._tag === "Failure" ? 400 : 200,
      body: html`<form method="get" action="${base}/jobs" class="card filters" aria-label="Filters"><div class="row">
${select("filter-seat", "Seat", "account", seats.map((s) => ({ value: s.id, label: labels.get(s.id) ?? "" })), filters.accountId, "every seat")}
${select("filter-status", "Status", "status", JobStatus.literals.map((s) => ({ value: s, label: statusInWords(s) })), filters.status, "any status")}
${select("filter-kind", "Kind", "kind", Object.keys(commands).map((k) => ({ value: k, label: commandInWords(k) })), filters.kind, "every kind")}
</div><button type="submit">Filter</button> <a href="${base}/jobs">Clear filters</a></form>
<div id="jobs-list" data-live-list>${
        jobs.length === 0
          ? html`<p class="card">No jobs${filters.accountId !== undefined || filters.status !== undefined || filters.kind !== undefined ? " with these filters" : " yet"}.</p>`
          : html`<div class="table-wrap"><table class="jobs"><thead><tr><th scope="col">Asked</th><th scope="col">Seat</th><th scope="col">What</th><th scope="col">Where it stands</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${
            jobs.map((job) =>
              html`<tr id="job-${job.id}"><td><a href="${base}/jobs/${job.id}">${localTime(job.createdAt)}</a></td><td>${labels.get(job.accountId) ?? "a removed seat"}</td><td>${sentence(job)}</td><td>${outcome(job, now.ms)}</td><td>${actions(person, job)}</td></tr>`
            )
          }</tbody></table></div>`
      }
${next === null ? "" : html`<p><a href="${base}/jobs?${older.toString()}" rel="next">Older jobs</a></p>`}</div>`
    })
  })
)

const detail = signedInPage((person, request) =>
  Effect.gen(function*() {
    const jobs = yield* Jobs
    const forecasts = yield* Forecasts
    const now = yield* Time.now
    const params = yield* HttpRouter.params
    const found = yield* Effect.result(jobs.get(person.workspaceId, params["id"] ?? ""))
    if (found._tag === "Failure") {
      return problemPage(404, "Job not found", "There is no such job in this workspace.", html`<a href="${base}/jobs">All jobs</a>`)
    }
    const job = found.success
    const expected = isFinished(job.status) || job.status === "running"
      ? null
      : yield* forecasts.ofJob(person.workspaceId, job.accountId, job.id).pipe(Effect.orElseSucceed(() => null))
    const { accounts: seats } = yield* (yield* Accounts).list(person.workspaceId)
    const seat = seats.find((s) => s.id === job.accountId)
    const json = (value: unknown) => JSON.stringify(value, null, 2)
    return yield* framed(person, {
      title: commandInWords(job.kind),
      section: "/jobs",
      notice: noticeFrom(request.url, notices),
      body: html`<div class="card">
<p class="sentence">${sentence(job)}, by ${seat === undefined ? "a removed seat" : seat.label === "" ? "an unnamed seat" : seat.label}: <span class="pill ${statusClass(job.status)}" id="job-status">${statusInWords(job.status)}</span>${
        job.status === "completed" && job.finishedAt !== null ? html` ${localTime(job.finishedAt)}` : ""
      }.</p>
${job.waitingFor === null ? "" : html`<p>It ${waiting(job, now.ms)}.</p>`}
${failure(job) === undefined ? "" : html`<p class="error">${failure(job)}</p>`}
${expected === null ? "" : html`<p id="job-forecast">Forecast: ${expected}.</p>`}
<dl class="facts">
<dt>Asked</dt><dd>${localTime(job.createdAt)}</dd>
<dt>Started</dt><dd>${localTime(job.startedAt)}</dd>
<dt>Finished</dt><dd>${localTime(job.finishedAt)}</dd>
</dl>
${actions(person, job)}
<details><summary>The job as JSON</summary>
<h2>Input</h2><pre class="secret">${json(job.input)}</pre>
${job.result === null || job.result === undefined ? "" : html`<h2>Result</h2><pre class="secret">${json(job.result)}</pre>`}
${job.error === null || job.error === undefined ? "" : html`<h2>Error</h2><pre class="secret">${json(job.error)}</pre>`}
<p class="muted">Job ${job.id}</p></details>
<p><a href="${base}/jobs?account=${job.accountId}">This seat's jobs</a></p>
</div>`
    })
  })
)

const idOf = Effect.map(HttpRouter.params, (params) => params["id"] ?? "")

const cancel = signedInAction((person) =>
  Effect.gen(function*() {
    if (!may(person, "runCommands")) return notAllowedPage(person, "runCommands")
    const id = yield* idOf
    const done = yield* Effect.result((yield* Jobs).cancel(person.workspaceId, id))
    if (done._tag === "Failure") {
      return problemPage(done.failure._tag === "Missing" ? 404 : 409, "This job cannot be cancelled", done.failure.message, html`<a href="${base}/jobs/${id}">Back to the job</a>`)
    }
    return seeOther(`${base}/jobs/${id}?notice=cancelled`)
  })
)

/** A failed write again, as a new job with the same command and input (through the Governor, approval included). */
const retry = signedInAction((person) =>
  Effect.gen(function*() {
    if (!may(person, "runCommands")) return notAllowedPage(person, "runCommands")
    const jobs = yield* Jobs
    const id = yield* idOf
    const found = yield* Effect.result(jobs.get(person.workspaceId, id))
    if (found._tag === "Failure") return problemPage(404, "Job not found", "There is no such job in this workspace.")
    const job = found.success
    if (job.status !== "failed" || !isCommandName(job.kind) || !writeKinds.some((k) => k.kind === job.kind)) {
      return problemPage(409, "Only a failed write can be retried", "This job did not fail, or it is a read: run it again from your integration instead.", html`<a href="${base}/jobs/${id}">Back to the job</a>`)
    }
    const input = yield* Schema.decodeUnknownEffect(commands[job.kind].input)(job.input).pipe(Effect.orDie)
    const made = yield* Effect.result(jobs.create({ workspaceId: person.workspaceId, accountId: job.accountId, command: job.kind, input }))
    if (made._tag === "Failure") return problemPage(404, "The seat is gone", made.failure.message, html`<a href="${base}/jobs">All jobs</a>`)
    return seeOther(`${base}/jobs/${made.success.id}?notice=retried`)
  })
)

export const layer = Layer.mergeAll(
  HttpRouter.add("GET", `${base}/jobs`, list),
  HttpRouter.add("GET", `${base}/jobs/:id`, detail),
  HttpRouter.add("POST", `${base}/jobs/:id/cancel`, cancel),
  HttpRouter.add("POST", `${base}/jobs/:id/retry`, retry)
)
