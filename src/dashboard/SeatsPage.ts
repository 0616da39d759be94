/**
 * `/dashboard/seats`: each seat's status, health, warm-up day, budgets left
 * today and this week, working hours (open now or when they next open), mode,
 * what its unfinished jobs wait for, and the forecast of its writes by day. Owners and admins change the mode,
 * working hours, off-hours policy and daily limits; the values are checked
 * with the API's own schemas and applied through the Accounts service.
 */
import { Data, Effect, Layer, Schema } from "effect"
import { HttpRouter, type HttpServerRequest, type HttpServerResponse } from "effect/http"
import { Accounts } from "../accounts/Accounts.ts"
import { type Account, UpdateAccount } from "../api/AccountsApi.ts"
import { LimitUpdate } from "../domain/Limits.ts"
import * as Time from "../domain/Time.ts"
import { Forecasts } from "../jobs/Forecasts.ts"
import { Jobs } from "../jobs/Jobs.ts"
import { forecastTimeline } from "./ForecastView.ts"
import { framed, noticeFrom } from "./Frame.ts"
import { AppConfig } from "../platform/AppConfig.ts"
import { baseUrlOf } from "../http/BaseUrl.ts"
import { externalLink, html, type Html, safeHref } from "./Html.ts"
import { base, csrfInput, localTime, relative } from "./Layout.ts"
import { refusal } from "../domain/Permissions.ts"
import { actorOf } from "../domain/Principal.ts"
import { accountStatusInWords } from "../domain/Words.ts"
import { confirmed, confirmedForm, notConfirmed } from "./Confirmation.ts"
import * as SeatActivity from "../http/SeatActivity.ts"
import { type Form, may, type Person, seeOther, signedInAction, signedInPage } from "./Requests.ts"

export const seatRoutes = [
  { method: "GET", path: `${base}/seats` },
  { method: "POST", path: `${base}/seats/connect` },
  { method: "POST", path: `${base}/seats/:id/settings` },
  { method: "POST", path: `${base}/seats/:id/pause` },
  { method: "POST", path: `${base}/seats/:id/resume` },
  { method: "POST", path: `${base}/seats/:id/rename` },
  { method: "POST", path: `${base}/seats/:id/reconnect` },
  { method: "POST", path: `${base}/seats/:id/disconnect` }
] as const

const notices: Record<string, string> = {
  saved: "Settings saved; they apply to the seat's next job.",
  paused: "Paused: the seat runs no write until it is resumed (reads still run).",
  resumed: "Resumed: the seat's waiting writes go on, within its hours and budgets.",
  renamed: "Renamed.",
  disconnected: "Disconnected: the seat is free and its unstarted jobs were cancelled."
}

/** What each mode means, said before anyone switches. */
const modeWords = {
  approve: "approve: every write waits for a person's approval, except withdrawing and declining invitations",
  assist: "assist: every write waits for a person's approval, those two included",
  autopilot: "autopilot: writes go out without anyone approving them, within the limits, working hours and guardrails"
} as const

const dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
const modes = ["approve", "assist", "autopilot"] as const
const policies = ["queue", "reject", "run"] as const

type AccountView = typeof Account.Type

const waits = (person: Person, account: AccountView) =>
  Effect.gen(function*() {
    const jobs = yield* Jobs
    const open = yield* Effect.forEach(["awaiting_approval", "scheduled", "queued"] as const, (status) =>
      Effect.map(jobs.list(person.workspaceId, { accountId: account.id, status, limit: 50 }).pipe(Effect.orDie), (page) => page.jobs))
    const reasons = new Map<string, number>()
    for (const job of open.flat()) {
      const reason = job.waitingFor?.reason ?? job.status
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1)
    }
    return [...reasons].map(([reason, count]) => `${count} waiting for ${reason.replace("_", " ")}`)
  })

/** The seat's forecast, drawn; nothing for a seat not connected yet. */
const forecastOf = (person: Person, account: AccountView) =>
  account.budgets === null
    ? Effect.succeed(html``)
    : Effect.map((Forecasts.use((forecasts) => forecasts.forecast(person.workspaceId, account.id, { limit: 1 }))).pipe(Effect.orDie), forecastTimeline)

/** Pause or resume, reconnect, rename and disconnect (with a confirmation): for those the table lets manage seats. */
const operations = (person: Person, account: AccountView) => {
  if (!may(person, "manageSeats")) return ""
  const id = account.id
  const name = account.label === "" ? "this seat" : `"${account.label}"`
  const action = (path: string, label: string, extra = html``) =>
    html`<form class="inline" method="post" action="${base}/seats/${id}/${path}">${csrfInput(person)}${extra}<button type="submit" class="secondary">${label}</button></form>`
  return html`<div class="seat-actions">${
    account.status === "paused"
      ? action("resume", "Resume")
      : account.status === "active" || account.status === "warming"
      ? action("pause", "Pause")
      : ""
  }${
    account.status === "reconnect_required" || account.status === "connecting"
      ? action("reconnect", account.status === "connecting" ? "Open the sign-in page again" : "Reconnect (opens the sign-in page)")
      : ""
  }
<details><summary>Rename</summary><form method="post" action="${base}/seats/${id}/rename">${csrfInput(person)}
<label for="label-${id}">Name</label><input id="label-${id}" name="label" type="text" maxlength="80" value="${account.label}" required>
<button type="submit">Save the name</button></form></details>
${
    confirmedForm(person, {
      action: `${base}/seats/${id}/disconnect`,
      summary: "Disconnect",
      explain: "Disconnecting frees the seat and cancels its jobs that have not started (a write under way finishes). It cannot be undone: to use the account again, connect it anew.",
      tick: `Yes, disconnect ${name}`,
      button: "Disconnect this seat"
    })
  }</div>`
}

const seatCard = (person: Person, account: AccountView, waiting: ReadonlyArray<string>, forecast: Html, nowMs: number) => {
  const hours = account.workingHours
  const budgets = account.budgets === null
    ? html`<p class="muted">Budgets start once the seat is connected.</p>`
    : html`<div class="table-wrap"><table><caption class="muted">Budget left</caption><thead><tr><th scope="col">Category</th><th scope="col">Today</th><th scope="col">This week</th></tr></thead><tbody>${
      Object.entries(account.budgets).map(([category, budget]) =>
        html`<tr><td>${category.replace("_", " ")}</td><td>${budget.today}</td><td>${budget.week ?? "—"}</td></tr>`
      )
    }</tbody></table></div>`
  const settings = !may(person, "manageSeats") ? "" : html`<details><summary>Change settings</summary>
<form method="post" action="${base}/seats/${account.id}/settings">${csrfInput(person)}
<label for="mode-${account.id}">Mode</label><select id="mode-${account.id}" name="mode">${
    modes.map((m) => html`<option value="${m}"${m === account.mode ? html` selected` : ""}>${m}</option>`)
  }</select>
<ul class="muted">${modes.map((m) => html`<li>${modeWords[m]}</li>`)}</ul>${
    account.mode === "autopilot" ? "" : html`<label class="check"><input type="checkbox" name="confirmAutopilot" value="yes"> If I choose autopilot: I understand that this seat's writes will then go out without anyone approving them.</label>`
  }
<fieldset><legend>Working days</legend>${
    dayNames.map((name, i) =>
      html`<label class="check"><input type="checkbox" name="days" value="${i + 1}"${hours.days.includes(i + 1) ? html` checked` : ""}> ${name}</label>`
    )
  }</fieldset>
<div class="row"><div><label for="from-${account.id}">From</label><input id="from-${account.id}" name="from" type="time" value="${hours.from}" required></div>
<div><label for="to-${account.id}">To</label><input id="to-${account.id}" name="to" type="time" value="${hours.to}" required></div>
<div><label for="tz-${account.id}">Time zone</label><input id="tz-${account.id}" name="timezone" type="text" value="${hours.timezone}" required></div></div>
<label for="policy-${account.id}">Outside working hours, writes</label><select id="policy-${account.id}" name="offHoursPolicy">${
    policies.map((p) => html`<option value="${p}"${p === account.offHoursPolicy ? html` selected` : ""}>${p === "queue" ? "wait for the next opening" : p === "reject" ? "fail at once" : "run anyway"}</option>`)
  }</select>
<div class="row"><div><label for="invites-${account.id}">Invitations a day (limit)</label><input id="invites-${account.id}" name="invitesDaily" type="number" min="0" inputmode="numeric"></div>
<div><label for="messages-${account.id}">Messages a day (limit)</label><input id="messages-${account.id}" name="messagesDaily" type="number" min="0" inputmode="numeric"></div></div>
<p class="muted">Leave a limit empty to keep it; values above the plan's ceiling are capped.</p>
<button type="submit">Save settings</button></form></details>`
  return html`<article class="card" id="seat-${account.id}" aria-labelledby="seat-title-${account.id}">
<h2 id="seat-title-${account.id}">${account.label === "" ? "Unnamed seat" : account.label}</h2>
<dl class="facts">
<dt>Status</dt><dd><span class="pill ${account.status === "active" || account.status === "warming" ? "ok" : "bad"}">${accountStatusInWords(account.status)}</span></dd>
<dt>Health</dt><dd>${account.health.level}${account.health.reason === null ? "" : html` — ${account.health.reason}`}${
    account.health.readsOnlyUntil === null ? "" : html`; reads only until ${localTime(account.health.readsOnlyUntil)}`
  }</dd>
<dt>Warm-up</dt><dd>day ${account.warmup.day} of ${account.warmup.of}</dd>
<dt>Mode</dt><dd>${account.mode}</dd>
<dt>Network</dt><dd>${account.capabilities.network}${
    account.capabilities.notSupported.length === 0 ? "" : html`; cannot run ${account.capabilities.notSupported.join(", ")}`
  }</dd>
<dt>Working hours</dt><dd>${hours.days.map((d) => dayNames[d - 1] ?? String(d)).join(", ")} ${hours.from}–${hours.to} (${hours.timezone}): ${
    hours.openNow
      ? html`<strong>open now</strong>`
      : hours.nextOpening === null
      ? "closed"
      : html`closed, opens ${relative(Date.parse(hours.nextOpening), nowMs)} (${localTime(hours.nextOpening)})`
  }</dd>
<dt>Waiting</dt><dd>${waiting.length === 0 ? "nothing" : waiting.join("; ")}</dd>
</dl>
${budgets}
${forecast}
${account.reconnectUrl === null ? "" : html`<p>${externalLink(account.reconnectUrl, "Reconnect this seat", html` class="button"`)}</p>`}
${operations(person, account)}
${settings}
</article>`
}

const render = (person: Person, options: { readonly notice?: string | undefined; readonly error?: string; readonly status?: number }) =>
  Effect.gen(function*() {
    const now = yield* Time.now
    const { accounts, seats } = yield* (yield* Accounts).list(person.workspaceId)
    const cards = yield* Effect.forEach(accounts, (account) =>
      Effect.map(Effect.zip(waits(person, account), forecastOf(person, account)), ([waiting, forecast]) =>
        seatCard(person, account, waiting, forecast, now.ms)))
    return yield* framed(person, {
      title: "Seats",
      section: "/seats",
      notice: options.notice,
      error: options.error,
      status: options.status ?? 200,
      body: html`<p>${seats.used} of ${seats.total} seats in use${seats.pending > 0 ? html`, ${seats.pending} connecting` : ""}.</p>${
        may(person, "manageSeats")
          ? html`<form class="card" method="post" action="${base}/seats/connect">${csrfInput(person)}
<label for="connect-label">Connect a seat: its name</label><input id="connect-label" name="label" type="text" maxlength="80" placeholder="e.g. Ada (sales)">
<p class="muted">You then sign in to the network on its own page; the seat is ready once you have.</p>
<button type="submit">Connect a seat</button></form>`
          : ""
      }${
        accounts.length === 0 ? html`<p class="card">No seats are connected yet: connect one with the form above.</p>` : cards
      }`
    })
  })

const show = signedInPage((person, request) => render(person, { notice: noticeFrom(request.url, notices) }))

const decodeUpdate = Schema.decodeUnknownEffect(UpdateAccount)
const decodeLimit = Schema.decodeUnknownEffect(LimitUpdate)

const save = signedInAction((person, form) =>
  Effect.gen(function*() {
    if (!may(person, "manageSeats")) return yield* render(person, { error: refusal(person.role, "manageSeats"), status: 403 })
    const seats = yield* SeatActivity.make
    const actor = actorOf(person.principal)
    const params = yield* HttpRouter.params
    const id = params["id"] ?? ""
    const patch = yield* Effect.result(decodeUpdate({
      mode: form.get("mode"),
      offHoursPolicy: form.get("offHoursPolicy"),
      workingHours: {
        days: form.all("days").map(Number),
        from: form.get("from"),
        to: form.get("to"),
        timezone: (form.get("timezone") ?? "").trim()
      }
    }))
    if (patch._tag === "Failure") {
      return yield* render(person, { error: `These settings cannot be saved: ${patch.failure.message}`, status: 400 })
    }
    const limits = [["invitesDaily", "invites"], ["messagesDaily", "messages"]] as const
    const updates = []
    for (const [field, category] of limits) {
      const value = (form.get(field) ?? "").trim()
      if (value === "") continue
      const update = yield* Effect.result(decodeLimit({ category, period: "daily", maxValue: Number(value) }))
      if (update._tag === "Failure") return yield* render(person, { error: `The ${category} limit must be a whole number, 0 or more.`, status: 400 })
      updates.push(update.success)
    }
    if (patch.success.mode === "autopilot" && form.get("confirmAutopilot") !== "yes") {
      const current = yield* Effect.result((yield* Accounts).get(person.workspaceId, id))
      if (current._tag === "Success" && current.success.mode !== "autopilot") {
        return yield* render(person, {
          error: `Autopilot sends this seat's writes without anyone approving them. Tick "I understand" under the mode to switch, or keep ${current.success.mode}.`,
          status: 400
        })
      }
    }
    const updated = yield* Effect.result(seats.update(person.workspaceId, id, patch.success, actor))
    if (updated._tag === "Failure") return yield* render(person, { error: updated.failure.message, status: 422 })
    if (updates.length > 0) {
      const limited = yield* Effect.result(seats.setLimits(person.workspaceId, id, updates, actor))
      if (limited._tag === "Failure") return yield* render(person, { error: limited.failure.message, status: 422 })
    }
    return seeOther(`${base}/seats?notice=saved#seat-${id}`)
  })
)

/** A seat operation of an owner or admin: the seat's id, the operations, who does it. */
const seatAction = <E, R>(
  run: (input: {
    readonly person: Person
    readonly id: string
    readonly seats: Effect.Success<typeof SeatActivity.make>
    readonly actor: string
    readonly form: Form
    readonly request: HttpServerRequest.HttpServerRequest
  }) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
) =>
  signedInAction((person, form, request) =>
    Effect.gen(function*() {
      if (!may(person, "manageSeats")) return yield* render(person, { error: refusal(person.role, "manageSeats"), status: 403 })
      const params = yield* HttpRouter.params
      const seats = yield* SeatActivity.make
      return yield* run({ person, id: params["id"] ?? "", seats, actor: actorOf(person.principal), form, request })
    })
  )

/** Failures the person can act on come back on the page, in the service's words. */
const orPage = (person: Person) =>
<A>(effect: Effect.Effect<A, { readonly message: string }>) =>
  Effect.flatMap(Effect.result(effect), (outcome) =>
    outcome._tag === "Success"
      ? Effect.succeed(outcome.success)
      : Effect.flatMap(render(person, { error: outcome.failure.message, status: 422 }), (page) => Effect.fail(new ShownPage({ page }))))

/** A page already made for the person (a refusal in words): answered as it is. */
class ShownPage extends Data.TaggedError("ShownPage")<{ readonly page: HttpServerResponse.HttpServerResponse }> {}

const showing = <R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, ShownPage, R>) =>
  Effect.catchTag(effect, "ShownPage", (shown) => Effect.succeed(shown.page))

/** Where a sign-in link may send the browser: only an address `safeHref` accepts. */
const toSignIn = (person: Person, link: string) => {
  const href = safeHref(link)
  return href === undefined
    ? render(person, { error: "The network's sign-in page has an address this dashboard does not open; ask an admin to check the service's PUBLIC_URL.", status: 502 })
    : Effect.succeed(seeOther(href))
}

const connect = seatAction(({ person, seats, actor, form, request }) =>
  showing(Effect.gen(function*() {
    const config = yield* AppConfig
    const label = (form.get("label") ?? "").trim()
    const connected = yield* orPage(person)(seats.connect({
      workspaceId: person.workspaceId,
      baseUrl: baseUrlOf(request, config),
      ...(label === "" ? {} : { label: label.slice(0, 80) })
    }, actor))
    return yield* toSignIn(person, connected.connectUrl)
  })))

const pause = seatAction(({ person, id, seats, actor }) =>
  showing(Effect.as(orPage(person)(seats.pause(person.workspaceId, id, actor)), seeOther(`${base}/seats?notice=paused#seat-${id}`))))

const resume = seatAction(({ person, id, seats, actor }) =>
  showing(Effect.as(orPage(person)(seats.resume(person.workspaceId, id, actor)), seeOther(`${base}/seats?notice=resumed#seat-${id}`))))

const rename = seatAction(({ person, id, seats, actor, form }) =>
  showing(Effect.gen(function*() {
    const label = (form.get("label") ?? "").trim()
    if (label === "" || label.length > 80) return yield* render(person, { error: "Give the seat a name of 1 to 80 characters.", status: 400 })
    yield* orPage(person)(seats.update(person.workspaceId, id, { label }, actor))
    return seeOther(`${base}/seats?notice=renamed#seat-${id}`)
  })))

const reconnect = seatAction(({ person, id, request }) =>
  showing(Effect.gen(function*() {
    const config = yield* AppConfig
    const link = yield* orPage(person)((yield* Accounts).reconnect(person.workspaceId, id, baseUrlOf(request, config)))
    return yield* toSignIn(person, link)
  })))

const disconnect = seatAction(({ person, id, seats, actor, form }) =>
  showing(Effect.gen(function*() {
    if (!confirmed(form)) return yield* render(person, { error: notConfirmed("Yes, disconnect", "disconnecting cannot be undone."), status: 400 })
    yield* orPage(person)(seats.remove(person.workspaceId, id, actor))
    return seeOther(`${base}/seats?notice=disconnected`)
  })))

export const layer = Layer.mergeAll(
  HttpRouter.add("GET", `${base}/seats`, show),
  HttpRouter.add("POST", `${base}/seats/connect`, connect),
  HttpRouter.add("POST", `${base}/seats/:id/pause`, pause),
  HttpRouter.add("POST", `${base}/seats/:id/resume`, resume),
  HttpRouter.add("POST", `${base}/seats/:id/rename`, rename),
  HttpRouter.add("POST", `${base}/seats/:id/reconnect`, reconnect),
  HttpRouter.add("POST", `${base}/seats/:id/disconnect`, disconnect),
  HttpRouter.add("POST", `${base}/seats/:id/settings`, save)
)
