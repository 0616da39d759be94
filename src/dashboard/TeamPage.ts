/**
 * `/dashboard/team`: the workspace's people and their roles. Owners and
 * admins invite by a one-time link (shown here; the mail sender gets it too),
 * change roles and remove people, under the Team service's rules (only an
 * owner makes or changes an owner; the last owner stays). The link leads to
 * `/dashboard/invitations/{token}`, where the invited person picks a name and
 * password and is signed in.
 */
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import type { Role } from "../domain/Principal.ts"
import { AppConfig } from "../platform/AppConfig.ts"
import { passwordLength } from "../team/Password.ts"
import { type NewReset, PasswordResets } from "../team/PasswordResets.ts"
import { invitationDays, resetHours, sessionHours } from "../team/Policy.ts"
import { type Actor, Team } from "../team/Team.ts"
import { baseUrlOf } from "../http/BaseUrl.ts"
import { framed, noticeFrom } from "./Frame.ts"
import { TwoFactorSettings } from "../team/TwoFactorSettings.ts"
import { confirmed, confirmedForm, notConfirmed } from "./Confirmation.ts"
import { html } from "./Html.ts"
import { base, csrfInput, localTime, plainPage, problemPage } from "./Layout.ts"
import { anonymousAction, guarded, may, notAllowedPage, type Person, seeOther, signedInAction, signedInPage, withBrowserToken } from "./Requests.ts"
import { csrfTokenFor, sessionCookie } from "../http/SessionCookie.ts"
import { browserCookie, csrfField, isHttps, withCookie } from "./Session.ts"

export const teamRoutes = [
  { method: "GET", path: `${base}/team` },
  { method: "POST", path: `${base}/team/invite` },
  { method: "POST", path: `${base}/team/two-factor` },
  { method: "POST", path: `${base}/team/invitations/:id/revoke` },
  { method: "POST", path: `${base}/team/:id/role` },
  { method: "POST", path: `${base}/team/:id/remove` },
  { method: "POST", path: `${base}/team/:id/reset-password` },
  { method: "GET", path: `${base}/invitations/:token` },
  { method: "POST", path: `${base}/invitations/:token` }
] as const

const notices: Record<string, string> = {
  "role-changed": "The role is changed; it applies to their next request.",
  removed: "Removed: their sessions ended at once.",
  "invitation-revoked": "The invitation was withdrawn: its link no longer works.",
  "two-factor-required": "Two-factor is now required: everyone without it is asked to set it up before anything else.",
  "two-factor-optional": "Two-factor is no longer required (those who have it keep it)."
}

const roles: ReadonlyArray<Role> = ["owner", "admin", "member"]
const isRole = (value: string | undefined): value is Role => value === "owner" || value === "admin" || value === "member"

const actorOf = (person: Person): Actor => ({ ...person.principal.user, workspaceId: person.workspaceId })

const render = (person: Person, options: {
  readonly link?: string
  readonly reset?: NewReset
  readonly notice?: string | undefined
  readonly error?: string | undefined
  readonly status?: number
}) =>
  Effect.gen(function*() {
    const team = yield* Team
    const members = yield* team.members(person.workspaceId)
    const manager = may(person, "manageTeam")
    const resetter = may(person, "resetPasswords")
    const invitations = manager ? yield* team.invitations(person.workspaceId) : []
    const offered = roles.filter((role) => role !== "owner" || person.role === "owner")
    const rows = members.map((m) =>
      html`<tr><td>${m.name}${m.id === person.userId ? " (you)" : ""}</td><td>${m.email}</td><td>${m.role}</td><td>${
        m.twoFactor ? "on" : "off"
      }</td>${
        manager
          ? html`<td><form class="inline" method="post" action="${base}/team/${m.id}/role">${csrfInput(person)}
<label class="check" for="role-${m.id}">Role <select id="role-${m.id}" name="role">${
            offered.map((r) => html`<option value="${r}"${r === m.role ? html` selected` : ""}>${r}</option>`)
          }</select></label><button type="submit" class="secondary">Change</button></form>
${
            confirmedForm(person, {
              action: `${base}/team/${m.id}/remove`,
              summary: m.id === person.userId ? "Leave the workspace" : `Remove ${m.name}`,
              explain: "Their sessions and their assistants' sign-ins end at once; what they decided stays in the activity log.",
              tick: m.id === person.userId ? "Yes, remove me" : `Yes, remove ${m.name}`,
              button: "Remove from the workspace"
            })
          }${
            resetter && m.id !== person.userId ? resetForm(person, m) : ""
          }</td>`
          : ""
      }</tr>`
    )
    const inviteForm = !manager ? "" : html`<section class="card" aria-labelledby="invite-title"><h2 id="invite-title">Invite a teammate</h2>
<form method="post" action="${base}/team/invite">${csrfInput(person)}
<label for="invite-email">Email</label><input id="invite-email" name="email" type="email" required>
<label for="invite-role">Role</label><select id="invite-role" name="role">${
      offered.map((r) => html`<option value="${r}"${r === "member" ? html` selected` : ""}>${r}</option>`)
    }</select>
<button type="submit">Create invitation link</button></form>
<p class="muted">No mail is sent from here: copy the link and send it yourself. It works once, for ${invitationDays} days.</p></section>`
    const shownLink = options.link === undefined ? "" : html`<section class="card" aria-labelledby="link-title"><h2 id="link-title">Invitation link</h2>
<p>Send this link to your teammate. It is shown only now.</p><p class="secret" id="invitation-link">${options.link}</p></section>`
    const pending = invitations.length === 0 ? "" : html`<section class="card" aria-labelledby="pending-title"><h2 id="pending-title">Invitations not used yet</h2><ul>${
      invitations.map((i) =>
        html`<li>${i.email} as ${i.role}, expires ${localTime(i.expiresAt)} <form class="inline" method="post" action="${base}/team/invitations/${i.id}/revoke">${
          csrfInput(person)
        }<button type="submit" class="secondary">Withdraw</button></form></li>`
      )
    }</ul></section>`
    return yield* framed(person, {
      title: "Team",
      section: "/team",
      notice: options.notice,
      error: options.error,
      status: options.status ?? 200,
      body: html`${shownLink}${options.reset === undefined ? "" : resetLink(options.reset)}
<div class="table-wrap"><table><caption class="muted">People of this workspace</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Two-factor</th>${
        manager ? html`<th scope="col">Change</th>` : ""
      }</tr></thead><tbody>${rows}</tbody></table></div>
${inviteForm}${pending}${yield* requirement(person)}`
    })
  })

/** An owner's button: a one-time link for the teammate to set a new password. */
const resetForm = (person: Person, member: { readonly id: string; readonly name: string }) =>
  html`<form class="inline" method="post" action="${base}/team/${member.id}/reset-password">${csrfInput(person)}<button type="submit" class="secondary" aria-label="Make a password reset link for ${member.name}">Reset password</button></form>`

/** The reset link, shown once, with what to do with it: the service sends no mail. */
const resetLink = (reset: NewReset) =>
  html`<section class="card" aria-labelledby="reset-title"><h2 id="reset-title">Password reset link for ${reset.name}</h2>
<p><strong>The service cannot send email: copy this link and send it to ${reset.name} (${reset.email}) yourself</strong>, by a channel you trust. It is shown only now.</p>
<p class="secret" id="reset-link">${reset.link}</p>
<p class="muted">It works once, until ${localTime(reset.expiresAt)} (${resetHours} hours). On it they choose a new password, and every session of theirs ends. A newer link replaces this one.</p></section>`

/** The owner's switch: require two-factor of everyone (`workspaceSettings`). */
const requirement = (person: Person) =>
  Effect.gen(function*() {
    if (!may(person, "workspaceSettings")) return ""
    const required = yield* (yield* TwoFactorSettings).requiredIn(person.workspaceId)
    return html`<section class="card" aria-labelledby="require-title"><h2 id="require-title">Two-factor for everyone</h2>
<p>${required ? "Required: everyone signs in with a code from an app; someone without it is asked to set it up before anything else." : "Not required: each person chooses."}</p>
<form method="post" action="${base}/team/two-factor">${csrfInput(person)}<input type="hidden" name="required" value="${required ? "no" : "yes"}">
<button type="submit"${required ? html` class="secondary"` : ""}>${required ? "Stop requiring two-factor" : "Require two-factor for everyone"}</button></form></section>`
  })

const requireTwoFactor = signedInAction((person, form) =>
  Effect.gen(function*() {
    if (!may(person, "workspaceSettings")) return notAllowedPage(person, "workspaceSettings")
    const required = form.get("required") === "yes"
    yield* (yield* TwoFactorSettings).requireForEveryone(person.workspaceId, required)
    return seeOther(`${base}/team?notice=${required ? "two-factor-required" : "two-factor-optional"}`)
  })
)

const show = signedInPage((person, request) => render(person, { notice: noticeFrom(request.url, notices) }))

const invite = signedInAction((person, form, request) =>
  Effect.gen(function*() {
    const team = yield* Team
    const config = yield* AppConfig
    const role = form.get("role")
    if (!isRole(role)) return yield* render(person, { error: "Choose a role: owner, admin or member.", status: 400 })
    const outcome = yield* Effect.result(
      team.invite(actorOf(person), { email: form.get("email") ?? "", role, baseUrl: baseUrlOf(request, config) })
    )
    if (outcome._tag === "Failure") return yield* render(person, { error: outcome.failure.message, status: 422 })
    return yield* render(person, { link: outcome.success.link, notice: `Invitation for ${outcome.success.invitation.email} created.` })
  })
)

const idParam = Effect.map(HttpRouter.params, (params) => params["id"] ?? "")

const revoke = signedInAction((person) =>
  Effect.gen(function*() {
    const outcome = yield* Effect.result((yield* Team).revokeInvitation(actorOf(person), yield* idParam))
    if (outcome._tag === "Failure") return yield* render(person, { error: outcome.failure.message, status: 403 })
    return seeOther(`${base}/team?notice=invitation-revoked`)
  })
)

const changeRole = signedInAction((person, form) =>
  Effect.gen(function*() {
    const role = form.get("role")
    if (!isRole(role)) return yield* render(person, { error: "Choose a role: owner, admin or member.", status: 400 })
    const outcome = yield* Effect.result((yield* Team).changeRole(actorOf(person), yield* idParam, role))
    if (outcome._tag === "Failure") return yield* render(person, { error: outcome.failure.message, status: 403 })
    return seeOther(`${base}/team?notice=role-changed`)
  })
)

const remove = signedInAction((person, form) =>
  Effect.gen(function*() {
    const id = yield* idParam
    if (!confirmed(form)) return yield* render(person, { error: notConfirmed("Yes, remove", "removing a teammate cannot be undone (invite them again instead)."), status: 400 })
    const outcome = yield* Effect.result((yield* Team).remove(actorOf(person), id))
    if (outcome._tag === "Failure") return yield* render(person, { error: outcome.failure.message, status: 403 })
    return seeOther(id === person.userId ? `${base}/sign-in?notice=removed` : `${base}/team?notice=removed`)
  })
)

const resetPassword = signedInAction((person, _form, request) =>
  Effect.gen(function*() {
    if (!may(person, "resetPasswords")) return notAllowedPage(person, "resetPasswords")
    const config = yield* AppConfig
    const outcome = yield* Effect.result((yield* PasswordResets).create(actorOf(person), yield* idParam, baseUrlOf(request, config)))
    if (outcome._tag === "Failure") return yield* render(person, { error: outcome.failure.message, status: 422 })
    return yield* render(person, { reset: outcome.success, notice: `A reset link for ${outcome.success.name} is made: copy it below.` })
  })
)

const tokenParam = Effect.map(HttpRouter.params, (params) => params["token"] ?? "")

const joinForm = (options: {
  readonly token: string
  readonly csrf: string
  readonly email: string
  readonly role: Role
  readonly workspace: string
  readonly name?: string
  readonly error?: string
  readonly status?: number
}) =>
  plainPage({
    title: `Join ${options.workspace}`,
    status: options.status ?? 200,
    error: options.error,
    body: html`<p>You are invited as <strong>${options.role}</strong> with the email <strong>${options.email}</strong>.</p>
<form method="post" action="${base}/invitations/${options.token}">
<input type="hidden" name="${csrfField}" value="${options.csrf}">
<label for="name">Your name</label><input id="name" name="name" type="text" autocomplete="name" required maxlength="80" value="${options.name ?? ""}">
<label for="new-password">Password</label>
<input id="new-password" name="password" type="password" autocomplete="new-password" required minlength="${passwordLength.min}" maxlength="${passwordLength.max}" aria-describedby="password-help">
<p id="password-help" class="muted">At least ${passwordLength.min} characters. A few unrelated words make a good one.</p>
<button type="submit">Join and sign in</button></form>`
  })

const unusable = (message: string) =>
  problemPage(410, "This invitation cannot be used", message, html`<a href="${base}/sign-in">Sign in</a>`)

const showInvitation = guarded(Effect.gen(function*() {
  const token = yield* tokenParam
  const found = yield* Effect.result((yield* Team).invitation(token))
  if (found._tag === "Failure") return unusable(found.failure.message)
  return yield* withBrowserToken((csrf) =>
    joinForm({ token, csrf, email: found.success.email, role: found.success.role, workspace: found.success.workspaceName })
  )
}))

const acceptInvitation = anonymousAction(
  (request) => request.cookies[browserCookie],
  (form, request) =>
    Effect.gen(function*() {
      const team = yield* Team
      const config = yield* AppConfig
      const token = yield* tokenParam
      const found = yield* Effect.result(team.invitation(token))
      if (found._tag === "Failure") return unusable(found.failure.message)
      const accepted = yield* Effect.result(team.accept(token, { name: form.get("name") ?? "", password: form.get("password") ?? "" }))
      if (accepted._tag === "Failure") {
        if (accepted.failure._tag === "InvitationUnusable") return unusable(accepted.failure.message)
        return joinForm({
          token,
          csrf: csrfTokenFor(request.cookies[browserCookie] ?? ""),
          email: found.success.email,
          role: found.success.role,
          workspace: found.success.workspaceName,
          name: form.get("name") ?? "",
          error: accepted.failure.message,
          status: 422
        })
      }
      return withCookie(seeOther(base), sessionCookie, accepted.success.token, {
        secure: isHttps(request, config),
        path: "/",
        maxAgeSeconds: sessionHours * 3600
      })
    })
)

export const layer = Layer.mergeAll(
  HttpRouter.add("GET", `${base}/team`, show),
  HttpRouter.add("POST", `${base}/team/invite`, invite),
  HttpRouter.add("POST", `${base}/team/two-factor`, requireTwoFactor),
  HttpRouter.add("POST", `${base}/team/invitations/:id/revoke`, revoke),
  HttpRouter.add("POST", `${base}/team/:id/role`, changeRole),
  HttpRouter.add("POST", `${base}/team/:id/remove`, remove),
  HttpRouter.add("POST", `${base}/team/:id/reset-password`, resetPassword),
  HttpRouter.add("GET", `${base}/invitations/:token`, showInvitation),
  HttpRouter.add("POST", `${base}/invitations/:token`, acceptInvitation)
)
