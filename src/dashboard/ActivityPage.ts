/**
 * `/dashboard/activity`: the activity log (who did what, when, and what a
 * setting was before and after), newest first, filtered by action and by who
 * did it, in pages of 50, through the ActivityLog service as `GET /v1/activity`.
 */
import { Effect, Schema } from "effect"
import { HttpRouter } from "effect/http"
import { ActivityLog } from "../activity/ActivityLog.ts"
import { ActivityAction } from "../domain/Activity.ts"
import { ApiKeys } from "../keys/ApiKeys.ts"
import { Team } from "../team/Team.ts"
import { entryOf } from "../http/ActivityHandlers.ts"
import { actorNamer } from "../http/Actors.ts"
import { framed } from "./Frame.ts"
import { html } from "./Html.ts"
import { base, localTime } from "./Layout.ts"
import { signedInPage } from "./Requests.ts"

export const activityRoutes = [{ method: "GET", path: `${base}/activity` }] as const

const actionWords: Record<ActivityAction, string> = {
  "approval.approved": "approved",
  "approval.edited": "edited and approved",
  "approval.rejected": "rejected",
  "seat.connected": "connected a seat",
  "seat.settings_changed": "changed a seat's settings",
  "seat.mode_changed": "changed a seat's mode",
  "seat.limits_changed": "changed a seat's limits",
  "seat.paused": "paused a seat",
  "seat.resumed": "resumed a seat",
  "seat.disconnected": "disconnected a seat",
  "team.invited": "invited a teammate",
  "team.removed": "removed a teammate",
  "team.role_changed": "changed a role",
  "team.password_reset_sent": "made a password reset link",
  "team.password_reset": "set a new password from a reset link",
  "key.created": "created a key",
  "key.revoked": "revoked a key",
  "workflow.paused": "paused a workflow",
  "workflow.resumed": "resumed a workflow",
  "workflow.stopped": "stopped a workflow",
  "automation.paused": "paused an automation",
  "automation.resumed": "resumed an automation",
  "automation.stopped": "stopped an automation"
}

const isAction = Schema.is(ActivityAction)
const pageSize = 50

/** A change's fields in words: `mode: approve → autopilot`. */
const change = (before: unknown, after: unknown) => {
  const was = typeof before === "object" && before !== null ? Object.entries(before) : []
  const now = typeof after === "object" && after !== null ? Object.entries(after) : []
  const fields = [...new Set([...was.map(([k]) => k), ...now.map(([k]) => k)])]
  const show = (value: unknown) =>
    value === undefined || value === null ? "—" : value === "" ? "(none)" : typeof value === "string" ? value : JSON.stringify(value)
  return fields.length === 0 ? "" : html`<ul class="changes">${
    fields.map((field) => {
      const from = was.find(([k]) => k === field)?.[1]
      const to = now.find(([k]) => k === field)?.[1]
      return html`<li><span class="muted">${field}:</span> ${from === undefined ? "" : html`${show(from)} → `}${show(to)}</li>`
    })
  }</ul>`
}

const show = signedInPage((person, request) =>
  Effect.gen(function*() {
    const params = new URL(request.url, "http://dashboard").searchParams
    const action = params.get("action") ?? ""
    const actor = params.get("actor") ?? ""
    const cursor = params.get("cursor") ?? undefined
    const people = yield* (yield* Team).members(person.workspaceId)
    const keys = yield* (yield* ApiKeys).list(person.workspaceId)
    const actors = [
      ...people.map((p) => ({ id: `user:${p.id}`, label: p.name === "" ? p.email : p.name })),
      ...keys.map((k) => ({ id: `key:${k.id}`, label: `API key "${k.name}"` }))
    ]
    const chosenActor = actors.some((a) => a.id === actor) ? actor : undefined
    const chosenAction = isAction(action) ? action : undefined
    const page = yield* Effect.result((yield* ActivityLog).list(person.workspaceId, {
      action: chosenAction,
      actor: chosenActor,
      cursor,
      limit: pageSize
    }))
    const nameOf = yield* actorNamer(person.workspaceId)
    const entries = page._tag === "Success" ? page.success.entries.map(entryOf(nameOf)) : []
    const next = page._tag === "Success" ? page.success.nextCursor : null
    const older = new URLSearchParams({
      ...(chosenAction === undefined ? {} : { action: chosenAction }),
      ...(chosenActor === undefined ? {} : { actor: chosenActor }),
      ...(next === null ? {} : { cursor: next })
    })
    return yield* framed(person, {
      title: "Activity",
      section: "/activity",
      error: page._tag === "Failure" ? "That page of the log is out of date: start again from the newest." : undefined,
      status: page._tag === "Failure" ? 400 : 200,
      body: html`<form class="card filters" method="get" action="${base}/activity" aria-label="Filters"><div class="row">
<div><label for="filter-action">What</label><select id="filter-action" name="action"><option value="">everything</option>${
        ActivityAction.literals.map((a) => html`<option value="${a}"${a === chosenAction ? html` selected` : ""}>${actionWords[a]}</option>`)
      }</select></div>
<div><label for="filter-actor">Who</label><select id="filter-actor" name="actor"><option value="">anyone</option>${
        actors.map((a) => html`<option value="${a.id}"${a.id === chosenActor ? html` selected` : ""}>${a.label}</option>`)
      }</select></div></div>
<button type="submit">Filter</button> <a href="${base}/activity">Clear filters</a></form>
${
        entries.length === 0
          ? html`<p class="card">Nothing recorded${chosenAction !== undefined || chosenActor !== undefined ? " with these filters" : " yet"}.</p>`
          : html`<div class="table-wrap"><table class="activity"><thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Details</th></tr></thead>
<tbody>${
            entries.map((e) =>
              html`<tr><td>${localTime(e.at)}</td><td>${e.actor.name}</td><td>${e.summary}</td><td>${change(e.before, e.after)}</td></tr>`
            )
          }</tbody></table></div>`
      }
${next === null ? "" : html`<p><a href="${base}/activity?${older.toString()}" rel="next">Older entries</a></p>`}`
    })
  }))

export const layer = HttpRouter.add("GET", `${base}/activity`, show)
