/**
 * Assistants a person signed in with OAuth: `/dashboard/oauth/authorize`, the
 * consent page an assistant's authorization request leads to (it names the
 * client, the workspace and the role the assistant will act with), and
 * `/dashboard/assistants`, the person's grants, each revocable at once (the
 * assistant's next call is refused).
 */
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { Grants } from "../oauth/Grants.ts"
import { baseUrl, consentPath } from "../http/OAuthRoutes.ts"
import * as Protocol from "../http/OAuthProtocol.ts"
import { Workspaces } from "../workspaces/Workspaces.ts"
import { framed, noticeFrom } from "./Frame.ts"
import { html } from "./Html.ts"
import { base, csrfInput, formsMayRedirectTo, localTime, plainPage } from "./Layout.ts"
import { seeOther, signedInAction, signedInPage } from "./Requests.ts"

export const assistantRoutes = [
  { method: "GET", path: consentPath },
  { method: "POST", path: consentPath },
  { method: "GET", path: `${base}/assistants` },
  { method: "POST", path: `${base}/assistants/:id/revoke` }
] as const

const notices: Record<string, string> = {
  revoked: "The assistant's access is revoked: its next call is refused."
}

/** The request, checked again (the query could have been changed on the way). */
const checked = (get: (name: string) => string | undefined) =>
  Effect.flatMap(baseUrl, (url) => Effect.result(Protocol.checkAuthorization(Protocol.authorizationParamsOf(get), url)))

const showConsent = signedInPage((person, request) =>
  Effect.gen(function*() {
    const query = new URL(request.url, "http://localhost").searchParams
    const outcome = yield* checked((name) => query.get(name) ?? undefined)
    if (outcome._tag === "Failure") return yield* Protocol.refusal(outcome.failure)
    const { client, params } = outcome.success
    const workspace = yield* (yield* Workspaces).get(person.workspaceId).pipe(Effect.orDie)
    const origin = new URL(outcome.success.redirectUri).origin
    const hidden = Object.entries(params).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)
    return formsMayRedirectTo(plainPage({
      title: "Allow an assistant?",
      body: html`<p><strong id="client-name">${client.name}</strong> asks to act as you,
<strong>${person.name}</strong> (${person.role}), in the workspace <strong id="workspace-name">${workspace.name}</strong>.</p>
<p>It could do through the MCP server whatever your role allows, and no more. It will send to
<code>${origin}</code>. You can revoke it at any time under
<a href="${base}/assistants">Assistants</a>.</p>
<form method="post" action="${consentPath}">${csrfInput(person)}${hidden}
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>`
    }), origin)
  })
)

const decide = signedInAction((person, form) =>
  Effect.gen(function*() {
    const outcome = yield* checked(form.get)
    if (outcome._tag === "Failure") return yield* Protocol.refusal(outcome.failure)
    const { client, redirectUri, codeChallenge, params } = outcome.success
    if (form.get("decision") !== "allow") {
      return Protocol.redirectBack(redirectUri, {
        error: "access_denied",
        error_description: "The person denied the request.",
        state: params.state
      })
    }
    const code = yield* (yield* Grants).authorize({ clientId: client.id, userId: person.userId, redirectUri, codeChallenge })
    return Protocol.redirectBack(redirectUri, { code, state: params.state })
  })
)

const list = signedInPage((person, request) =>
  Effect.gen(function*() {
    const grants = yield* (yield* Grants).list(person.userId)
    return yield* framed(person, {
      title: "Assistants",
      section: "/assistants",
      notice: noticeFrom(request.url, notices),
      body: html`<p>Assistants you allowed to act as you over MCP (OAuth sign-in). Each acts with your role.</p>
<div class="table-wrap"><table><thead><tr><th scope="col">Assistant</th><th scope="col">Allowed</th><th scope="col">State</th></tr></thead>
<tbody>${
        grants.map((grant) =>
          html`<tr><td>${grant.clientName}</td><td>${localTime(grant.createdAt)}</td><td>${
            grant.revokedAt === null
              ? html`<form class="inline" method="post" action="${base}/assistants/${grant.id}/revoke">${csrfInput(person)}<button type="submit" class="danger" aria-label="Revoke ${grant.clientName}">Revoke</button></form>`
              : html`revoked ${localTime(grant.revokedAt)}`
          }</td></tr>`
        )
      }</tbody></table></div>`
    })
  })
)

const revoke = signedInAction((person) =>
  Effect.gen(function*() {
    const params = yield* HttpRouter.params
    const revoked = yield* (yield* Grants).revoke(person.userId, params["id"] ?? "")
    if (!revoked) {
      return yield* framed(person, {
        title: "Assistants",
        section: "/assistants",
        error: "You have no such assistant grant.",
        status: 404,
        body: html`<p><a href="${base}/assistants">Back to your assistants</a></p>`
      })
    }
    return seeOther(`${base}/assistants?notice=revoked`)
  })
)

export const layer = Layer.mergeAll(
  HttpRouter.add("GET", consentPath, showConsent),
  HttpRouter.add("POST", consentPath, decide),
  HttpRouter.add("GET", `${base}/assistants`, list),
  HttpRouter.add("POST", `${base}/assistants/:id/revoke`, revoke)
)
