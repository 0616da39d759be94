/**
 * `/dashboard/people`: the workspace's people, searchable, and
 * `/dashboard/people/{id}`: a person's history with every seat, from the
 * People service.
 */
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import type { TimelineEntry } from "../api/PeopleApi.ts"
import { People } from "../people/People.ts"
import { framed } from "./Frame.ts"
import { externalLink, html } from "./Html.ts"
import { base, localTime, problemPage } from "./Layout.ts"
import { signedInPage } from "./Requests.ts"

export const peopleRoutes = [
  { method: "GET", path: `${base}/people` },
  { method: "GET", path: `${base}/people/:id` }
] as const

const entry = (e: TimelineEntry) => {
  const what = e.kind === "job"
    ? html`job <a href="${base}/jobs/${e.jobId}">${e.jobId.slice(0, 8)}</a> ${e.status}`
    : e.kind === "invitation"
    ? html`invitation (${e.source})${e.note === null ? "" : html`: <span class="quote">${e.note}</span>`}`
    : e.kind === "invitation_accepted"
    ? html`accepted the invitation`
    : e.kind === "message_sent"
    ? html`message sent: <span class="quote">${e.text}</span>`
    : html`replied: <span class="quote">${e.text}</span>`
  return html`<li>${localTime(e.at)} · ${e.accountLabel} · ${what}</li>`
}

const list = signedInPage((person, request) =>
  Effect.gen(function*() {
    const people = yield* People
    const q = (new URL(request.url, "http://localhost").searchParams.get("q") ?? "").trim().slice(0, 200)
    const page = yield* people.list(person.workspaceId, { q: q === "" ? undefined : q, limit: 50 }).pipe(
      Effect.orElseSucceed(() => ({ people: [], nextCursor: null }))
    )
    return yield* framed(person, {
      title: "People",
      section: "/people",
      body: html`<form method="get" action="${base}/people" class="card" role="search">
<label for="q">Search by name, headline or company</label>
<input id="q" name="q" type="text" value="${q}">
<button type="submit">Search</button>
</form>
${
        page.people.length === 0
          ? html`<p class="card">Nobody found.</p>`
          : html`<div class="table-wrap"><table><caption class="muted">Latest activity first</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Company</th><th scope="col">Seats</th><th scope="col">Last activity</th></tr></thead>
<tbody>${
            page.people.map((p) =>
              html`<tr><td><a href="${base}/people/${p.id}">${p.name ?? p.profileUrl}</a></td><td>${p.company ?? "—"}</td><td>${
                p.accounts.map((a) => `${a.label} (${a.relationship})`).join(", ")
              }</td><td>${localTime(p.lastActivityAt)}</td></tr>`
            )
          }</tbody></table></div>`
      }`
    })
  })
)

const detail = signedInPage((person) =>
  Effect.gen(function*() {
    const people = yield* People
    const params = yield* HttpRouter.params
    const found = yield* Effect.result(people.get(person.workspaceId, params["id"] ?? ""))
    if (found._tag === "Failure") {
      return problemPage(404, "Person not found", "There is no such person in this workspace.", html`<a href="${base}/people">All people</a>`)
    }
    const { person: who, timeline } = found.success
    return yield* framed(person, {
      title: who.name ?? who.profileUrl,
      section: "/people",
      body: html`<div class="card"><dl class="facts">
<dt>Headline</dt><dd>${who.headline ?? "—"}</dd>
<dt>Company</dt><dd>${who.company ?? "—"}</dd>
<dt>Profile</dt><dd>${externalLink(who.profileUrl)}</dd>
<dt>First seen</dt><dd>${localTime(who.firstSeenAt)}</dd>
</dl></div>
<section class="card" aria-labelledby="history"><h2 id="history">History, newest first</h2>${
        timeline.length === 0 ? html`<p class="muted">Nothing yet.</p>` : html`<ol>${timeline.map(entry)}</ol>`
      }</section>`
    })
  })
)

export const layer = Layer.mergeAll(
  HttpRouter.add("GET", `${base}/people`, list),
  HttpRouter.add("GET", `${base}/people/:id`, detail)
)
