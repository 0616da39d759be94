/**
 * `/dashboard/jobs`: the job timeline of each account (newest first, through
 * the Jobs service), and `/dashboard/jobs/{id}`: one job with why it waits,
 * when it is expected to start (the forecast), its result or its error.
 *
 * @since 1.0.0
 */
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { Accounts } from "../../accounts/Accounts.ts"
import * as Time from "../../domain/Time.ts"
import type { JobRecord } from "../../jobs/JobRow.ts"
import { isFinished } from "../../domain/Job.ts"
import { Forecasts } from "../../jobs/Forecasts.ts"
import { Jobs } from "../../jobs/Jobs.ts"
import { framed } from "./Frame.ts"
import { html } from "./Html.ts"
import { base, problemPage, relative, when } from "./Layout.ts"
import { signedInPage } from "./Requests.ts"

export const jobRoutes = [
  { method: "GET", path: `${base}/jobs` },
  { method: "GET", path: `${base}/jobs/:id` }
] as const

const statusClass = (status: string) =>
  status === "completed" ? "ok" : status === "failed" || status === "cancelled" ? "bad" : "warn"

const waiting = (job: JobRecord, nowMs: number) =>
  job.waitingFor === null
    ? ""
    : html` — waits for ${job.waitingFor.reason.replace("_", " ")}${
      job.waitingFor.until === null ? "" : html` until ${when(job.waitingFor.until)} (${relative(Date.parse(job.waitingFor.until), nowMs)})`
    }`

const json = (value: unknown) => JSON.stringify(value, null, 2)

const list = signedInPage((person, request) =>
  Effect.gen(function*() {
    const accounts = yield* Accounts
    const jobs = yield* Jobs
    const now = yield* Time.now
    const { accounts: seats } = yield* accounts.list(person.workspaceId)
    const chosen = new URL(request.url, "http://localhost").searchParams.get("account") ?? undefined
    const shown = chosen === undefined ? seats : seats.filter((s) => s.id === chosen)
    const timelines = yield* Effect.forEach(shown, (seat) =>
      Effect.map(
        jobs.list(person.workspaceId, { accountId: seat.id, limit: 25 }).pipe(Effect.orDie),
        (page) =>
          html`<section class="card" aria-labelledby="seat-${seat.id}"><h2 id="seat-${seat.id}">${seat.label === "" ? "Unnamed seat" : seat.label}</h2>${
            page.jobs.length === 0
              ? html`<p class="muted">No jobs yet.</p>`
              : html`<ol>${
                page.jobs.map((job) =>
                  html`<li><a href="${base}/jobs/${job.id}">${job.kind}</a> <span class="pill ${statusClass(job.status)}">${job.status}</span> created ${
                    when(job.createdAt)
                  }${waiting(job, now.ms)}</li>`
                )
              }</ol>`
          }</section>`
      ))
    const filter = html`<form method="get" action="${base}/jobs" class="card">
<label for="account">Account</label>
<select id="account" name="account"><option value="">Every account</option>${
      seats.map((s) => html`<option value="${s.id}"${s.id === chosen ? html` selected` : ""}>${s.label === "" ? "Unnamed seat" : s.label}</option>`)
    }</select>
<button type="submit">Show</button>
</form>`
    return yield* framed(person, {
      title: "Jobs",
      section: "/jobs",
      body: html`${filter}${seats.length === 0 ? html`<p class="card">No seats are connected yet.</p>` : timelines}`
    })
  })
)

const detail = signedInPage((person) =>
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
    return yield* framed(person, {
      title: `Job ${job.kind}`,
      section: "/jobs",
      body: html`<div class="card">
<p>Status <span class="pill ${statusClass(job.status)}" id="job-status">${job.status}</span>${waiting(job, now.ms)}</p>
${expected === null ? "" : html`<p id="job-forecast">Forecast: ${expected}.</p>`}
<dl class="facts">
<dt>Job</dt><dd>${job.id}</dd>
<dt>Created</dt><dd>${when(job.createdAt)}</dd>
<dt>Started</dt><dd>${when(job.startedAt)}</dd>
<dt>Finished</dt><dd>${when(job.finishedAt)}</dd>
</dl>
<h2>Input</h2><pre class="secret">${json(job.input)}</pre>
${job.result === null || job.result === undefined ? "" : html`<h2>Result</h2><pre class="secret">${json(job.result)}</pre>`}
${job.error === null || job.error === undefined ? "" : html`<h2>Error</h2><pre class="secret">${json(job.error)}</pre>`}
<p><a href="${base}/jobs?account=${job.accountId}">This account's jobs</a></p>
</div>`
    })
  })
)

export const layer = Layer.mergeAll(
  HttpRouter.add("GET", `${base}/jobs`, list),
  HttpRouter.add("GET", `${base}/jobs/:id`, detail)
)
