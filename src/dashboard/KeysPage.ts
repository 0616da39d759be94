/**
 * `/dashboard/keys` (owners and admins): the workspace's API keys; create one
 * (its value shown once) and revoke one (at once, on every server), through
 * the ApiKeys service.
 */
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { type AccessRole, accessRoles, mayGrant, roleName } from "../domain/Permissions.ts"
import { actorOf } from "../domain/Principal.ts"
import { ApiKeys } from "../keys/ApiKeys.ts"
import { framed, noticeFrom } from "./Frame.ts"
import { confirmed, confirmedForm, notConfirmed } from "./Confirmation.ts"
import { html } from "./Html.ts"
import { base, csrfInput, localTime } from "./Layout.ts"
import { may, notAllowedPage, type Person, seeOther, signedInAction, signedInPage } from "./Requests.ts"

export const keyRoutes = [
  { method: "GET", path: `${base}/keys` },
  { method: "POST", path: `${base}/keys` },
  { method: "POST", path: `${base}/keys/:id/revoke` }
] as const

const notices: Record<string, string> = { revoked: "The key is revoked: requests with it are refused from now on." }

const nameMax = 80

/** The roles a key may be given, in words (from the table). */
const roleDescription: Record<AccessRole, string> = {
  owner: "owner: everything, as the workspace's owner",
  admin: "admin: also seats, keys, webhooks and the team",
  member: "member: read, run commands, decide approvals, start workflows",
  read_only: "read-only: reads only, runs and changes nothing"
}

/** The roles the person may give a key: never above their own. */
const grantable = (person: Person) => accessRoles.filter((role) => mayGrant(person.role, role))

const isAccessRole = (value: string | undefined): value is AccessRole => accessRoles.some((role) => role === value)

const render = (person: Person, options: { readonly created?: { readonly name: string; readonly value: string }; readonly notice?: string | undefined; readonly error?: string; readonly status?: number }) =>
  Effect.gen(function*() {
    const keys = yield* (yield* ApiKeys).list(person.workspaceId)
    return yield* framed(person, {
      title: "API keys",
      section: "/keys",
      notice: options.notice,
      error: options.error,
      status: options.status ?? 200,
      body: html`${
        options.created === undefined ? "" : html`<section class="card" aria-labelledby="new-key"><h2 id="new-key">Key "${options.created.name}"</h2>
<p>Copy it now: it is shown only this once, and the service keeps only a hash.</p><p class="secret" id="key-value">${options.created.value}</p></section>`
      }
<form class="card" method="post" action="${base}/keys">${csrfInput(person)}
<label for="key-name">What the new key is for</label><input id="key-name" name="name" type="text" required maxlength="${nameMax}">
<label for="key-role">What it may do</label><select id="key-role" name="role">${
        grantable(person).map((role) => html`<option value="${role}"${role === "member" ? html` selected` : ""}>${roleDescription[role]}</option>`)
      }</select>
<button type="submit">Create key</button></form>
<div class="table-wrap"><table><caption class="muted">A key acts with its role; keys made before keys had roles are owners</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Role</th><th scope="col">Starts with</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">State</th></tr></thead>
<tbody>${
        keys.map((k) =>
          html`<tr><td>${k.name}</td><td>${roleName(k.role)}</td><td><code>${k.prefix}…</code></td><td>${localTime(k.createdAt)}</td><td>${localTime(k.lastUsedAt)}</td><td>${
            k.revokedAt === null
              ? confirmedForm(person, {
                action: `${base}/keys/${k.id}/revoke`,
                summary: `Revoke ${k.name}`,
                explain: "Requests with this key are refused from then on, on every server; a revoked key cannot be used again.",
                tick: `Yes, revoke ${k.name}`,
                button: "Revoke this key"
              })
              : html`revoked ${localTime(k.revokedAt)}`
          }</td></tr>`
        )
      }</tbody></table></div>`
    })
  })

const show = signedInPage((person, request) =>
  may(person, "manageKeys") ? render(person, { notice: noticeFrom(request.url, notices) }) : Effect.succeed(notAllowedPage(person, "manageKeys"))
)

const create = signedInAction((person, form) =>
  Effect.gen(function*() {
    if (!may(person, "manageKeys")) return notAllowedPage(person, "manageKeys")
    const name = (form.get("name") ?? "").trim()
    if (name === "" || name.length > nameMax) {
      return yield* render(person, { error: `Give the key a name of 1 to ${nameMax} characters.`, status: 400 })
    }
    const role = form.get("role")
    if (!isAccessRole(role)) return yield* render(person, { error: "Choose what the key may do.", status: 400 })
    const created = yield* Effect.result((yield* ApiKeys).create({ workspaceId: person.workspaceId, name, role, by: person.role, actor: actorOf(person.principal) }))
    if (created._tag === "Failure") return yield* render(person, { error: created.failure.message, status: 403 })
    return yield* render(person, { created: { name, value: created.success.value } })
  })
)

const revoke = signedInAction((person, form) =>
  Effect.gen(function*() {
    if (!may(person, "manageKeys")) return notAllowedPage(person, "manageKeys")
    if (!confirmed(form)) return yield* render(person, { error: notConfirmed("Yes, revoke", "a revoked key cannot be used again."), status: 400 })
    const params = yield* HttpRouter.params
    const outcome = yield* Effect.result((yield* ApiKeys).revoke(person.workspaceId, params["id"] ?? "", actorOf(person.principal)))
    if (outcome._tag === "Failure") return yield* render(person, { error: outcome.failure.message, status: 404 })
    return seeOther(`${base}/keys?notice=revoked`)
  })
)

export const layer = Layer.mergeAll(
  HttpRouter.add("GET", `${base}/keys`, show),
  HttpRouter.add("POST", `${base}/keys`, create),
  HttpRouter.add("POST", `${base}/keys/:id/revoke`, revoke)
)
