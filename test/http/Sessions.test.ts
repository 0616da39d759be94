/**
 * The session and role rules over HTTP: the dashboard's cookie is a session on
 * the REST API (changes need the CSRF token), members get 403 `notAllowed` on
 * keys and webhooks, and signing out, signing out everywhere, a role change and
 * a removal take effect on the very next request. Bad input on the dashboard
 * gets a page that says what happened.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { csrfTokenFor } from "../../src/http/SessionCookie.ts"
import { Sessions } from "../../src/team/Sessions.ts"
import { SignIn } from "../../src/team/SignIn.ts"
import { type Actor, Team } from "../../src/team/Team.ts"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import { cookie, ownerSession, password, teammate } from "../support/Teammates.ts"
import { call, layer as serverLayer } from "../support/TestServer.ts"

// Private receivers allowed so a webhook endpoint can be made without a public host.
layer(serverLayer({ allowPrivateWebhooks: true }))("sessions and roles over HTTP", (it) => {
  it.effect("the session cookie is a session on the REST API; a change needs its CSRF token", () =>
    Effect.gen(function*() {
      const { token, workspaceId, email } = yield* ownerSession
      const me = yield* call("GET", "/v1/me", { headers: cookie(token) })
      assert.strictEqual(me.status, 200)
      assert.strictEqual(me.body.kind, "session")
      assert.strictEqual(me.body.org.id, workspaceId)
      assert.strictEqual(me.body.user.email, email)
      assert.strictEqual(me.body.user.role, "owner")
      const forged = yield* call("POST", "/v1/keys", { headers: cookie(token), body: { name: "forged" } })
      assert.strictEqual(forged.status, 401)
      assert.include(forged.body.error.message, "CSRF")
      const wrong = yield* call("POST", "/v1/keys", {
        headers: { ...cookie(token), "x-csrf-token": csrfTokenFor("sess_other") },
        body: { name: "forged" }
      })
      assert.strictEqual(wrong.status, 401)
      const made = yield* call("POST", "/v1/keys", {
        headers: { ...cookie(token), "x-csrf-token": csrfTokenFor(token) },
        body: { name: "from the dashboard" }
      })
      assert.strictEqual(made.status, 201, JSON.stringify(made.body))
      // As a bearer credential the session needs no CSRF token: nothing sends it on its own.
      const bearer = yield* call("POST", "/v1/keys", { token, body: { name: "scripted" } })
      assert.strictEqual(bearer.status, 201)
    }))

  it.effect("members get 403 notAllowed on keys and webhooks; admins and owners do not", () =>
    Effect.gen(function*() {
      const { actor, token } = yield* ownerSession
      const member = yield* teammate(actor, "member")
      const admin = yield* teammate(actor, "admin")
      for (const [method, path, body] of [
        ["GET", "/v1/keys", undefined],
        ["POST", "/v1/keys", { name: "x" }],
        ["GET", "/v1/webhooks", undefined],
        ["POST", "/v1/webhooks", { url: "https://hooks.example.com/x" }]
      ] as const) {
        const reply = yield* call(method, path, { token: member.token, body })
        assert.strictEqual(reply.status, 403, `${method} ${path}`)
        assert.strictEqual(reply.body.error.type, "notAllowed")
      }
      assert.strictEqual((yield* call("GET", "/v1/accounts", { token: member.token })).status, 200)
      assert.strictEqual((yield* call("GET", "/v1/approvals", { token: member.token })).status, 200)
      assert.strictEqual((yield* call("GET", "/v1/keys", { token: admin.token })).status, 200)
      assert.strictEqual((yield* call("GET", "/v1/webhooks", { token })).status, 200)
      // With the cookie as well.
      const viaCookie = yield* call("GET", "/v1/webhooks", { headers: cookie(member.token) })
      assert.strictEqual(viaCookie.status, 403)
    }))

  it.effect("a role change and a removal apply on the next request; the last owner stays", () =>
    Effect.gen(function*() {
      const { actor } = yield* ownerSession
      const team = yield* Team
      const admin = yield* teammate(actor, "admin")
      assert.strictEqual((yield* call("GET", "/v1/keys", { token: admin.token })).status, 200)
      yield* team.changeRole(actor, admin.id, "member")
      assert.strictEqual((yield* call("GET", "/v1/keys", { token: admin.token })).status, 403)
      yield* team.remove(actor, admin.id)
      assert.strictEqual((yield* call("GET", "/v1/me", { token: admin.token })).status, 401)
      const alone = yield* Effect.flip(team.remove(actor, actor.id))
      assert.include(alone.message, "last owner")
      const demoted = yield* Effect.flip(team.changeRole(actor, actor.id, "admin"))
      assert.include(demoted.message, "last owner")
      // An admin may not touch an owner, nor make one.
      const other = yield* teammate(actor, "admin")
      const adminActor: Actor = { ...actor, id: other.id, role: "admin", email: "a@x", name: "A" }
      assert.include((yield* Effect.flip(team.remove(adminActor, actor.id))).message, "Only an owner")
      assert.include((yield* Effect.flip(team.invite(adminActor, { email: "o@x.test", role: "owner", baseUrl: "" }))).message, "Only an owner")
    }))

  it.effect("signing out ends the session; signing out everywhere ends all of them", () =>
    Effect.gen(function*() {
      const { token, email } = yield* ownerSession
      const signIn = yield* SignIn
      const sessions = yield* Sessions
      const second = yield* signIn.password(email, password)
      const secondToken = second._tag === "SignedIn" ? second.session.token : ""
      const me = yield* call("GET", "/v1/me", { token })
      assert.strictEqual(me.status, 200)
      // Sign-out through the dashboard's form: the session is over at once.
      const page = yield* call("GET", "/dashboard", { headers: cookie(token) })
      const csrf = /name="_csrf" value="([^"]+)"/.exec(String(page.body))?.[1] ?? ""
      const out = yield* call("POST", "/dashboard/sign-out", {
        headers: { ...cookie(token), "content-type": "application/x-www-form-urlencoded" },
        raw: { text: `_csrf=${encodeURIComponent(csrf)}`, contentType: "application/x-www-form-urlencoded" }
      })
      // The client follows the redirect to the sign-in page, which says so.
      assert.strictEqual(out.status, 200)
      assert.include(String(out.body), "You are signed out.")
      assert.strictEqual((yield* call("GET", "/v1/me", { token })).status, 401)
      assert.strictEqual((yield* call("GET", "/v1/me", { token: secondToken })).status, 200)
      const third = yield* signIn.password(email, password)
      const userId = me.body.user.id
      assert.strictEqual(yield* sessions.endAllOf(userId), 2)
      assert.strictEqual((yield* call("GET", "/v1/me", { token: secondToken })).status, 401)
      assert.strictEqual(
        (yield* call("GET", "/v1/me", { token: third._tag === "SignedIn" ? third.session.token : "" })).status,
        401
      )
    }))

  it.effect("sessions expire after 12 hours", () =>
    Effect.gen(function*() {
      const { token } = yield* ownerSession
      assert.strictEqual((yield* call("GET", "/v1/me", { token })).status, 200)
      yield* TestClock.adjust("12 hours")
      yield* TestClock.adjust("1 minute")
      assert.strictEqual((yield* call("GET", "/v1/me", { token })).status, 401)
      const page = yield* call("GET", "/dashboard/approvals", { headers: cookie(token) })
      // Sent to sign in (the client follows the redirect), to come back to the approvals after.
      assert.strictEqual(page.status, 200)
      assert.include(String(page.body), "<title>Sign in")
      assert.include(String(page.body), `name="next" value="/dashboard/approvals"`)
    }))

  it.effect("bad input on the dashboard gets a page that says so, never a stack trace", () =>
    Effect.gen(function*() {
      const { token, actor } = yield* ownerSession
      const form = { contentType: "application/x-www-form-urlencoded" }
      const pages: ReadonlyArray<readonly [string, { status: number; body: unknown }, number, string]> = [
        ["no CSRF token", yield* call("POST", "/dashboard/keys", { headers: cookie(token), raw: { ...form, text: "name=x" } }), 403, "cannot be accepted"],
        ["an ended session", yield* call("POST", "/dashboard/keys", { headers: cookie("sess_gone"), raw: { ...form, text: "name=x" } }), 401, "sign in again"],
        ["an unknown page", yield* call("GET", "/dashboard/nowhere", { headers: cookie(token) }), 404, "no such page"],
        ["an unknown invitation", yield* call("GET", "/dashboard/invitations/sess_nothing", {}), 410, "not valid"],
        ["an unknown job", yield* call("GET", "/dashboard/jobs/00000000-0000-4000-8000-000000000000", { headers: cookie(token) }), 404, "no such job"],
        ["a sign-in form without its token", yield* call("POST", "/dashboard/sign-in", { raw: { ...form, text: "email=a&password=b" } }), 403, "cannot be accepted"]
      ]
      const { link } = yield* (yield* Team).invite(actor, { email: "late@acme.test", role: "member", baseUrl: "" })
      yield* TestClock.adjust("8 days")
      const expired = yield* call("GET", link, {})
      for (const [what, reply, status, text] of [...pages, ["an expired invitation", expired, 410, "expired"] as const]) {
        assert.strictEqual(reply.status, status, what)
        const body = String(reply.body)
        assert.match(body, /^<!doctype html>/, what)
        assert.include(body.toLowerCase(), text.toLowerCase(), what)
        assert.notMatch(body, /at .*\.ts:\d+|Error:/, what)
      }
    }))

  it.effect("five wrong passwords lock the email for 15 minutes, whoever has it", () =>
    Effect.gen(function*() {
      const { email } = yield* ownerSession
      const signIn = yield* SignIn
      for (let i = 0; i < 4; i++) {
        const refused = yield* Effect.flip(signIn.password(email, "wrong password here"))
        assert.strictEqual(refused._tag, "SignInRefused")
      }
      assert.strictEqual((yield* Effect.flip(signIn.password(email, "wrong password here")))._tag, "LockedOut")
      assert.strictEqual((yield* Effect.flip(signIn.password(email, password)))._tag, "LockedOut")
      // An email nobody has locks the same way, so a lockout tells nothing.
      for (let i = 0; i < 5; i++) yield* Effect.flip(signIn.password("nobody@acme.test", "whatever it is"))
      assert.strictEqual((yield* Effect.flip(signIn.password("nobody@acme.test", "whatever it is")))._tag, "LockedOut")
      yield* TestClock.adjust("15 minutes")
      const after = yield* signIn.password(email, password)
      assert.strictEqual(after._tag, "SignedIn")
    }))

  it.effect("an owner disables and deletes a webhook endpoint from its page; deleting asks for a confirmation", () =>
    Effect.gen(function*() {
      const { token, key } = yield* ownerSession
      const created = yield* call("POST", "/v1/webhooks", { token: key, body: { url: "http://127.0.0.1:9/dash" } })
      assert.strictEqual(created.status, 201, JSON.stringify(created.body))
      const id: string = created.body.webhook.id
      const page = yield* call("GET", `/dashboard/webhooks/${id}`, { headers: cookie(token) })
      assert.include(String(page.body), "Disable")
      const csrf = encodeURIComponent(/name="_csrf" value="([^"]+)"/.exec(String(page.body))?.[1] ?? "")
      const post = (path: string, fields: string) =>
        call("POST", path, { headers: cookie(token), raw: { text: `_csrf=${csrf}&${fields}`, contentType: "application/x-www-form-urlencoded" } })

      const disabled = yield* post(`/dashboard/webhooks/${id}/enabled`, "enabled=false")
      assert.strictEqual(disabled.status, 200)
      assert.include(String(disabled.body), "Disabled: it receives no events")
      assert.strictEqual((yield* call("GET", `/v1/webhooks/${id}`, { token: key })).body.webhook.enabled, false)
      const enabled = yield* post(`/dashboard/webhooks/${id}/enabled`, "enabled=true")
      assert.include(String(enabled.body), "Enabled: events from now on")
      assert.strictEqual((yield* call("GET", `/v1/webhooks/${id}`, { token: key })).body.webhook.enabled, true)

      const unconfirmed = yield* post(`/dashboard/webhooks/${id}/delete`, "")
      assert.strictEqual(unconfirmed.status, 422)
      assert.include(String(unconfirmed.body), "Tick the box")
      assert.strictEqual((yield* call("GET", `/v1/webhooks/${id}`, { token: key })).status, 200)
      const deleted = yield* post(`/dashboard/webhooks/${id}/delete`, "confirm=yes")
      assert.strictEqual(deleted.status, 200)
      assert.include(String(deleted.body), "Deleted, with its deliveries.")
      assert.strictEqual((yield* call("GET", `/v1/webhooks/${id}`, { token: key })).status, 404)
      const again = yield* post(`/dashboard/webhooks/${id}/delete`, "confirm=yes")
      assert.strictEqual(again.status, 404)
      assert.include(String(again.body), "no such webhook endpoint")
    }))

  it.effect("a suspended workspace's people cannot sign in; a pending invitation names who sent it and its workspace", () =>
    Effect.gen(function*() {
      const { actor, email } = yield* ownerSession
      const team = yield* Team
      const { link } = yield* team.invite(actor, { email: "newcomer@acme.test", role: "member", baseUrl: "http://x" })
      const [pending] = yield* team.invitations(actor.workspaceId)
      assert.strictEqual(pending?.invitedBy, "Olivia")
      const opened = yield* team.invitation(link.split("/").pop() ?? "")
      assert.strictEqual(opened.email, "newcomer@acme.test")
      assert.isAbove(opened.workspaceName.length, 0)

      const workspaces = yield* Workspaces
      yield* workspaces.setStatus(actor.workspaceId, "suspended")
      const refused = yield* Effect.flip((yield* SignIn).password(email, password))
      assert.strictEqual(refused._tag, "SignInRefused")
      yield* workspaces.setStatus(actor.workspaceId, "active")
      assert.strictEqual((yield* (yield* SignIn).password(email, password))._tag, "SignedIn")
    }))
})
