/**
 * `/dashboard/webhooks` (owners and admins): the endpoints, adding one (its
 * secret shown once), and `/dashboard/webhooks/{id}`: enabling, disabling or
 * deleting it, its events, payload mode and URL, rotating its secret, sending
 * it a test event, its last 50 deliveries with every attempt, the payload sent
 * and each response (status, the start of its body, duration), and resending
 * one, through the webhook services.
 */
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { WebhookDispatcher } from "../webhooks/Dispatcher.ts"
import { responseKeptBytes } from "../webhooks/SafeTransport.ts"
import { type EventType, eventTypes } from "../domain/Events.ts"
import { testEventType } from "../domain/WebhookPayload.ts"
import { type DeliveryRecord, WebhookEndpoints } from "../webhooks/Endpoints.ts"
import { framed, noticeFrom } from "./Frame.ts"
import { html } from "./Html.ts"
import { base, csrfInput, localTime, problemPage } from "./Layout.ts"
import { may, notAllowedPage, type Person, seeOther, signedInAction, signedInPage } from "./Requests.ts"

export const webhookRoutes = [
  { method: "GET", path: `${base}/webhooks` },
  { method: "POST", path: `${base}/webhooks` },
  { method: "GET", path: `${base}/webhooks/:id` },
  { method: "POST", path: `${base}/webhooks/:id/deliveries/:delivery/resend` },
  { method: "POST", path: `${base}/webhooks/:id/enabled` },
  { method: "POST", path: `${base}/webhooks/:id/delete` },
  { method: "POST", path: `${base}/webhooks/:id/settings` },
  { method: "POST", path: `${base}/webhooks/:id/rotate` },
  { method: "POST", path: `${base}/webhooks/:id/test` }
] as const

const notices: Record<string, string> = {
  resent: "Sent again now; the attempt is in the log below.",
  enabled: "Enabled: events from now on are delivered to it.",
  disabled: "Disabled: it receives no events until it is enabled again.",
  deleted: "Deleted, with its deliveries.",
  saved: "Saved: the next events go out as set here."
}

const notFound = problemPage(404, "Endpoint not found", "There is no such webhook endpoint in this workspace.", html`<a href="${base}/webhooks">All endpoints</a>`)

const listPage = (person: Person, options: {
  readonly secret?: { readonly url: string; readonly value: string }
  readonly error?: string
  readonly status?: number
  readonly notice?: string | undefined
}) =>
  Effect.gen(function*() {
    const endpoints = yield* (yield* WebhookEndpoints).list(person.workspaceId)
    return yield* framed(person, {
      title: "Webhooks",
      section: "/webhooks",
      error: options.error,
      notice: options.notice,
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

const show = signedInPage((person, request) =>
  may(person, "manageWebhooks") ? listPage(person, { notice: noticeFrom(request.url, notices) }) : Effect.succeed(notAllowedPage(person, "manageWebhooks")))

const create = signedInAction((person, form) =>
  Effect.gen(function*() {
    if (!may(person, "manageWebhooks")) return notAllowedPage(person, "manageWebhooks")
    const url = (form.get("url") ?? "").trim()
    const outcome = yield* Effect.result(
      (yield* WebhookEndpoints).create({ workspaceId: person.workspaceId, url, events: [], mode: "fat" })
    )
    if (outcome._tag === "Failure") return yield* listPage(person, { error: outcome.failure.message, status: 422 })
    return yield* listPage(person, { secret: { url, value: outcome.success.secret } })
  })
)

/** Which events and how (URL, payload mode), editable. */
const settingsForm = (person: Person, endpoint: { readonly id: string; readonly url: string; readonly mode: string; readonly events: ReadonlyArray<string> }) =>
  html`<details class="card"><summary>Change the URL, the events or the payload</summary>
<form method="post" action="${base}/webhooks/${endpoint.id}/settings">${csrfInput(person)}
<label for="hook-url">URL (https)</label><input id="hook-url" name="url" type="url" value="${endpoint.url}" required>
<fieldset><legend>Events (none ticked: every event)</legend>${
    eventTypes.map((type) =>
      html`<label class="check"><input type="checkbox" name="events" value="${type}"${endpoint.events.includes(type) ? html` checked` : ""}> ${type}</label>`
    )
  }</fieldset>
<label for="hook-mode">Payload</label><select id="hook-mode" name="mode">${
    (["fat", "thin"] as const).map((m) =>
      html`<option value="${m}"${m === endpoint.mode ? html` selected` : ""}>${m === "fat" ? "fat: the full data of each event" : "thin: ids, status, kind and type only"}</option>`
    )
  }</select>
<button type="submit">Save</button></form>
<form method="post" action="${base}/webhooks/${endpoint.id}/rotate">${csrfInput(person)}
<p class="muted">A new signing secret is shown once; the previous one keeps signing for a while, so your receiver can switch.</p>
<button type="submit" class="secondary">Rotate the secret</button></form></details>`

const detail = signedInPage((person, request) =>
  Effect.flatMap(HttpRouter.params, (params) => detailPage(person, params["id"] ?? "", { notice: noticeFrom(request.url, notices) }))
)

const detailPage = (person: Person, id: string, options: { readonly notice?: string | undefined; readonly error?: string | undefined; readonly secret?: string; readonly status?: number }) =>
  Effect.gen(function*() {
    if (!may(person, "manageWebhooks")) return notAllowedPage(person, "manageWebhooks")
    const endpoints = yield* WebhookEndpoints
    const endpoint = yield* Effect.result(endpoints.get(person.workspaceId, id))
    if (endpoint._tag === "Failure") return notFound
    const enabled = endpoint.success.enabled
    const deliveries = yield* endpoints.deliveries(person.workspaceId, id).pipe(Effect.orElseSucceed(() => []))
    const settings = html`<section class="card" aria-labelledby="endpoint-state"><h2 id="endpoint-state">${
      enabled ? html`<span class="pill ok">enabled</span>` : html`<span class="pill bad">disabled</span>`
    } ${endpoint.success.mode}, ${endpoint.success.events.length === 0 ? "every event" : endpoint.success.events.join(", ")}</h2>
<form method="post" action="${base}/webhooks/${id}/enabled">${csrfInput(person)}<input type="hidden" name="enabled" value="${
      enabled ? "false" : "true"
    }"><button type="submit" class="secondary">${enabled ? "Disable" : "Enable"}</button></form>
<form method="post" action="${base}/webhooks/${id}/delete">${csrfInput(person)}
<label><input type="checkbox" name="confirm" value="yes" required> Delete this endpoint and its delivery log</label>
<button type="submit" class="danger">Delete endpoint</button></form></section>
<section class="card" aria-labelledby="test-title"><h2 id="test-title">Send a test event</h2>
<p>A <code>${testEventType}</code> event goes to this endpoint now, signed like every delivery, whatever events it receives; nothing happened, so your receiver answers 2xx and does nothing else. What it answers shows below. It is not retried.</p>
<form method="post" action="${base}/webhooks/${id}/test">${csrfInput(person)}<button type="submit">Send a test event</button></form></section>
${settingsForm(person, endpoint.success)}`
    const secret = options.secret === undefined ? "" : html`<section class="card" aria-labelledby="new-secret"><h2 id="new-secret">The new signing secret</h2>
<p>Copy it now: it is shown only this once.</p><p class="secret" id="secret-value">${options.secret}</p></section>`
    return yield* framed(person, {
      title: `Webhook ${endpoint.success.url}`,
      section: "/webhooks",
      notice: options.notice,
      error: options.error,
      status: options.status ?? 200,
      body: html`${secret}${settings}${deliveries.length === 0 ? html`<p class="card">No deliveries yet.</p>` : html`<div class="table-wrap"><table class="deliveries">
<caption class="muted">The last 50 deliveries, newest first</caption>
<thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Next attempt</th><th scope="col"></th></tr></thead>
<tbody>${deliveries.map((d) => deliveryRows(person, id, d))}</tbody></table></div>`}`
    })
  })

const statusWords: Record<DeliveryRecord["status"], { readonly words: string; readonly pill: string }> = {
  succeeded: { words: "Delivered", pill: "ok" },
  failed: { words: "Failed", pill: "bad" },
  pending: { words: "Waiting to be sent", pill: "warn" }
}

/** What an attempt got, in words: "HTTP 204 in 35 ms", or why nothing came back. */
const answerWords = (a: DeliveryRecord["attempts"][number]) =>
  `${a.statusCode === null ? "no answer" : `HTTP ${a.statusCode}`} in ${a.durationMs} ms${a.error === null ? "" : ` — ${a.error}`}`

/** A payload as people read it: indented JSON (it is ours; anything else as it is). */
const readable = (payload: string) => {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2)
  } catch {
    return payload
  }
}

/** One delivery: its row, then what was sent and what came back, behind a toggle. */
const deliveryRows = (person: Person, endpointId: string, d: DeliveryRecord) => {
  const status = statusWords[d.status]
  return html`<tr id="delivery-${d.id}"><td>${d.eventType === testEventType ? "Test event" : d.eventType}<br><span class="muted">${localTime(d.createdAt)}</span></td>
<td><span class="pill ${status.pill}">${status.words}</span></td><td><ol>${
    d.attempts.map((a) => html`<li>${localTime(a.at)} ${a.trigger === "manual" ? "by hand" : "automatic"}: ${answerWords(a)}</li>`)
  }</ol></td><td>${d.nextAttemptAt === null ? "—" : localTime(d.nextAttemptAt)}</td><td><form method="post" action="${base}/webhooks/${endpointId}/deliveries/${d.id}/resend">${
    csrfInput(person)
  }<button type="submit" class="secondary">Resend</button></form></td></tr>
<tr class="exchange"><td colspan="5"><details><summary>Payload and response</summary>
<h3>Payload sent</h3><pre class="quote payload">${readable(d.payload)}</pre>${
    d.attempts.map((a, i) =>
      html`<h3>Attempt ${i + 1}: ${answerWords(a)}</h3>${
        a.response === null
          ? html`<p class="muted">No response arrived.</p>`
          : a.response === ""
          ? html`<p class="muted">The response had no body.</p>`
          : html`<pre class="quote response">${a.response}</pre>${
            mayBeCut(a.response) ? html`<p class="muted">Only the first ${responseKeptBytes.toLocaleString("en")} bytes of the response are kept.</p>` : ""
          }`
      }`
    )
  }</details></td></tr>`
}

/** Whether a kept response may have been cut: it fills what is kept (a character cut in two reads as one of 3 bytes). */
const mayBeCut = (response: string) => Buffer.byteLength(response, "utf8") >= responseKeptBytes - 3

const sendTest = signedInAction((person) =>
  Effect.gen(function*() {
    if (!may(person, "manageWebhooks")) return notAllowedPage(person, "manageWebhooks")
    const id = (yield* HttpRouter.params)["id"] ?? ""
    const outcome = yield* Effect.result((yield* WebhookDispatcher).sendTest(person.workspaceId, id, person.name))
    if (outcome._tag === "Failure") return notFound
    const attempt = outcome.success.attempts.at(-1)
    // The words end without a full stop: the sentence goes on.
    const answer = (attempt === undefined ? "no attempt was made" : answerWords(attempt)).replace(/\.$/, "")
    return yield* detailPage(person, id, outcome.success.status === "succeeded"
      ? { notice: `Test event delivered: ${answer}. The payload and the response are in the first delivery below.` }
      : { error: `The test event was not delivered: ${answer}. The payload and the response are in the first delivery below.` })
  })
)

const setEnabled = signedInAction((person, form) =>
  Effect.gen(function*() {
    if (!may(person, "manageWebhooks")) return notAllowedPage(person, "manageWebhooks")
    const id = (yield* HttpRouter.params)["id"] ?? ""
    const enabled = form.get("enabled") === "true"
    const outcome = yield* Effect.result((yield* WebhookEndpoints).update(person.workspaceId, id, { enabled }))
    if (outcome._tag === "Failure") return notFound
    return seeOther(`${base}/webhooks/${id}?notice=${enabled ? "enabled" : "disabled"}`)
  })
)

const remove = signedInAction((person, form) =>
  Effect.gen(function*() {
    if (!may(person, "manageWebhooks")) return notAllowedPage(person, "manageWebhooks")
    const id = (yield* HttpRouter.params)["id"] ?? ""
    if (form.get("confirm") !== "yes") {
      return problemPage(422, "Not deleted", "Tick the box to confirm that the endpoint and its delivery log go.", html`<a href="${base}/webhooks/${id}">Back to the endpoint</a>`)
    }
    const outcome = yield* Effect.result((yield* WebhookEndpoints).remove(person.workspaceId, id))
    if (outcome._tag === "Failure") return notFound
    return seeOther(`${base}/webhooks?notice=deleted`)
  })
)

const resend = signedInAction((person) =>
  Effect.gen(function*() {
    if (!may(person, "manageWebhooks")) return notAllowedPage(person, "manageWebhooks")
    const params = yield* HttpRouter.params
    const id = params["id"] ?? ""
    const outcome = yield* Effect.result((yield* WebhookDispatcher).resend(person.workspaceId, id, params["delivery"] ?? ""))
    if (outcome._tag === "Failure") {
      return problemPage(404, "Delivery not found", outcome.failure.message, html`<a href="${base}/webhooks/${id}">Back to the endpoint</a>`)
    }
    return seeOther(`${base}/webhooks/${id}?notice=resent`)
  })
)

const isEventType = (value: string): value is EventType => eventTypes.some((type) => type === value)

const saveSettings = signedInAction((person, form) =>
  Effect.gen(function*() {
    if (!may(person, "manageWebhooks")) return notAllowedPage(person, "manageWebhooks")
    const id = (yield* HttpRouter.params)["id"] ?? ""
    const mode = form.get("mode")
    const events = form.all("events")
    if ((mode !== "fat" && mode !== "thin") || !events.every(isEventType)) {
      return yield* detailPage(person, id, { error: "Choose the payload (fat or thin) and events from the list.", status: 400 })
    }
    const outcome = yield* Effect.result(
      (yield* WebhookEndpoints).update(person.workspaceId, id, { url: (form.get("url") ?? "").trim(), mode, events: events.filter(isEventType) })
    )
    if (outcome._tag === "Failure") {
      return outcome.failure._tag === "Missing" ? notFound : yield* detailPage(person, id, { error: outcome.failure.message, status: 422 })
    }
    return seeOther(`${base}/webhooks/${id}?notice=saved`)
  })
)

const rotate = signedInAction((person) =>
  Effect.gen(function*() {
    if (!may(person, "manageWebhooks")) return notAllowedPage(person, "manageWebhooks")
    const id = (yield* HttpRouter.params)["id"] ?? ""
    const outcome = yield* Effect.result((yield* WebhookEndpoints).rotateSecret(person.workspaceId, id))
    if (outcome._tag === "Failure") return notFound
    return yield* detailPage(person, id, { secret: outcome.success.secret, notice: "The secret is rotated." })
  })
)

export const layer = Layer.mergeAll(
  HttpRouter.add("POST", `${base}/webhooks/:id/settings`, saveSettings),
  HttpRouter.add("POST", `${base}/webhooks/:id/rotate`, rotate),
  HttpRouter.add("POST", `${base}/webhooks/:id/test`, sendTest),
  HttpRouter.add("GET", `${base}/webhooks`, show),
  HttpRouter.add("POST", `${base}/webhooks`, create),
  HttpRouter.add("GET", `${base}/webhooks/:id`, detail),
  HttpRouter.add("POST", `${base}/webhooks/:id/deliveries/:delivery/resend`, resend),
  HttpRouter.add("POST", `${base}/webhooks/:id/enabled`, setEnabled),
  HttpRouter.add("POST", `${base}/webhooks/:id/delete`, remove)
)
