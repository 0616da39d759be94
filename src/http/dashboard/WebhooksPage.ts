/**
 * `/dashboard/webhooks` (owners and admins): the endpoints, adding one (its
 * secret shown once), and `/dashboard/webhooks/{id}`: its last 50 deliveries
 * with every attempt, and resending one, through the webhook services.
 *
 * @since 1.0.0
 */
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { WebhookDispatcher } from "../../webhooks/Dispatcher.ts"
import { WebhookEndpoints } from "../../webhooks/Endpoints.ts"
import { framed, noticeFrom } from "./Frame.ts"
import { html } from "./Html.ts"
import { base, csrfInput, problemPage, when } from "./Layout.ts"
import { isManager, managersOnly, type Person, seeOther, signedInAction, signedInPage } from "./Requests.ts"

export const webhookRoutes = [
  { method: "GET", path: `${base}/webhooks` },
  { method: "POST", path: `${base}/webhooks` },
  { method: "GET", path: `${base}/webhooks/:id` },
  { method: "POST", path: `${base}/webhooks/:id/deliveries/:delivery/resend` }
] as const

const notices: Record<string, string> = { resent: "Sent again now; the attempt is in the log below." }

const listPage = (person: Person, options: { readonly secret?: { readonly url: string; readonly value: string }; readonly error?: string; readonly status?: number }) =>
  Effect.gen(function*() {
    const endpoints = yield* (yield* WebhookEndpoints).list(person.workspaceId)
    return yield* framed(person, {
      title: "Webhooks",
      section: "/webhooks",
      error: options.error,
      status: options.status ?? 200,
      body: html`${
        options.secret === undefined ? "" : html`<section class="card" aria-labelledby="secret-title"><h2 id="secret-title">Signing secret for ${options.secret.url}</h2>
<p>Copy it now: it is shown only this once. Your receiver checks each delivery's <code>svc-signature</code> with it.</p><p class="secret" id="webhook-secret">${options.secret.value}</p></section>`
      }
<form class="card" method="post" action="${base}/webhooks">${csrfInput(person)}
<label for="webhook-url">Receiver URL (https)</label><input id="webhook-url" name="url" type="url" required placeholder="https://hooks.example.com/outreach">
<button type="submit">Add endpoint (every event, full data)</button></form>
${
        endpoints.length === 0
          ? html`<p class="card">No endpoints yet.</p>`
          : html`<ul class="card">${
            endpoints.map((e) =>
              html`<li><a href="${base}/webhooks/${e.id}">${e.url}</a> ${e.enabled ? html`<span class="pill ok">enabled</span>` : html`<span class="pill bad">disabled</span>`} ${e.mode}, ${
                e.events.length === 0 ? "every event" : e.events.join(", ")
              }</li>`
            )
          }</ul>`
      }`
    })
  })

const show = signedInPage((person) => isManager(person) ? listPage(person, {}) : Effect.succeed(managersOnly))

const create = signedInAction((person, form) =>
  Effect.gen(function*() {
    if (!isManager(person)) return managersOnly
    const url = (form.get("url") ?? "").trim()
    const outcome = yield* Effect.result(
      (yield* WebhookEndpoints).create({ workspaceId: person.workspaceId, url, events: [], mode: "fat" })
    )
    if (outcome._tag === "Failure") return yield* listPage(person, { error: outcome.failure.message, status: 422 })
    return yield* listPage(person, { secret: { url, value: outcome.success.secret } })
  })
)

const detail = signedInPage((person, request) =>
  Effect.gen(function*() {
    if (!isManager(person)) return managersOnly
    const params = yield* HttpRouter.params
    const endpoints = yield* WebhookEndpoints
    const id = params["id"] ?? ""
    const endpoint = yield* Effect.result(endpoints.get(person.workspaceId, id))
    if (endpoint._tag === "Failure") {
      return problemPage(404, "Endpoint not found", "There is no such webhook endpoint in this workspace.", html`<a href="${base}/webhooks">All endpoints</a>`)
    }
    const deliveries = yield* endpoints.deliveries(person.workspaceId, id).pipe(Effect.orElseSucceed(() => []))
    return yield* framed(person, {
      title: `Webhook ${endpoint.success.url}`,
      section: "/webhooks",
      notice: noticeFrom(request.url, notices),
      body: deliveries.length === 0 ? html`<p class="card">No deliveries yet.</p>` : html`<div class="table-wrap"><table>
<caption class="muted">The last 50 deliveries, newest first</caption>
<thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Next attempt</th><th scope="col"></th></tr></thead>
<tbody>${
        deliveries.map((d) =>
          html`<tr><td>${d.eventType}<br><span class="muted">${when(d.createdAt)}</span></td><td><span class="pill ${
            d.status === "succeeded" ? "ok" : d.status === "failed" ? "bad" : "warn"
          }">${d.status}</span></td><td><ol>${
            d.attempts.map((a) =>
              html`<li>${when(a.at)} ${a.trigger}: ${a.statusCode === null ? "no answer" : `HTTP ${a.statusCode}`}${a.error === null ? "" : html` — ${a.error}`}</li>`
            )
          }</ol></td><td>${when(d.nextAttemptAt)}</td><td><form method="post" action="${base}/webhooks/${id}/deliveries/${d.id}/resend">${
            csrfInput(person)
          }<button type="submit" class="secondary">Resend</button></form></td></tr>`
        )
      }</tbody></table></div>`
    })
  })
)

const resend = signedInAction((person) =>
  Effect.gen(function*() {
    if (!isManager(person)) return managersOnly
    const params = yield* HttpRouter.params
    const id = params["id"] ?? ""
    const outcome = yield* Effect.result((yield* WebhookDispatcher).resend(person.workspaceId, id, params["delivery"] ?? ""))
    if (outcome._tag === "Failure") {
      return problemPage(404, "Delivery not found", outcome.failure.error.message, html`<a href="${base}/webhooks/${id}">Back to the endpoint</a>`)
    }
    return seeOther(`${base}/webhooks/${id}?notice=resent`)
  })
)

export const layer = Layer.mergeAll(
  HttpRouter.add("GET", `${base}/webhooks`, show),
  HttpRouter.add("POST", `${base}/webhooks`, create),
  HttpRouter.add("GET", `${base}/webhooks/:id`, detail),
  HttpRouter.add("POST", `${base}/webhooks/:id/deliveries/:delivery/resend`, resend)
)
