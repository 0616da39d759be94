/**
 * Nothing a person sends or sees is trusted (issue #32): every dashboard route
 * gets garbage ids, queries and form values and never answers 500; a path id
 * that is not one answers the dashboard's 404 page before any SQL; a target
 * such as `javascript:…` is shown as text, never as a link; a wrong step-up
 * code counts toward the sign-in lockout.
 */
import { assert, layer } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { TestClock } from "effect/testing"
import * as Dashboard from "../../src/dashboard/Dashboard.ts"
import { csrfTokenFor } from "../../src/http/SessionCookie.ts"
import { externalLink, safeHref } from "../../src/dashboard/Html.ts"
import { SignIn } from "../../src/team/SignIn.ts"
import { TwoFactorSettings } from "../../src/team/TwoFactorSettings.ts"
import { totpCodeAt } from "../../src/team/TwoFactor.ts"
import { Team } from "../../src/team/Team.ts"
import { connectedAccount, strangers } from "../jobs/support.ts"
import { cookie, ownerSession, password, teammate } from "../support/Teammates.ts"
import { quietConnections } from "../workflows/support.ts"
import { call, layer as serverLayer } from "../support/TestServer.ts"

const garbageIds = ["not-a-uuid", "1", "'; DROP TABLE jobs; --", "00000000-0000-0000-0000-00000000000g", "%00", "x".repeat(300)]
const garbageQuery = "?page=-1&seat=%27%3B--&kind=%3Cscript%3E&left=zzz&status=nope&notice=%3Cb%3E&cursor=%00&q=" + "y".repeat(500)
const garbageForm = (csrf: string) =>
  [
    `_csrf=${encodeURIComponent(csrf)}`,
    "name=" + "n".repeat(400),
    "role=superuser",
    "text=" + "t".repeat(9000),
    "reason=%00",
    "ids=not-a-uuid",
    "ids=" + crypto.randomUUID(),
    "action=explode",
    "mode=warp",
    "offHoursPolicy=maybe",
    "timezone=Mars%2FOlympus",
    "days=9",
    "from=25:61",
    "to=-1",
    "invitesDaily=-5",
    "messagesDaily=1e9",
    "url=javascript:alert(1)",
    "enabled=perhaps",
    "email=%40%40",
    "code=abcdef",
    "password=x",
    "label=" + "l".repeat(200)
  ].join("&")

/** Every dashboard route with its path parameters filled by `id`. */
/** The code an authenticator app shows now. */
const currentCode = (secret: string) => Effect.map(Clock.currentTimeMillis, (now) => totpCodeAt(secret, now))

const withIds = (path: string, id: string) => path.replace(/:\w+/g, () => encodeURIComponent(id))

// Private webhooks allowed: an endpoint on this machine takes a test event (refused at once, port 9).
layer(serverLayer({ allowPrivateWebhooks: true }))("the dashboard trusts nothing it is sent or shows", (it) => {
  it.effect("garbage ids, queries and form values to every route: never a 500, and a bad id is the 404 page", () =>
    Effect.gen(function*() {
      const { token } = yield* ownerSession
      const headers = cookie(token)
      const csrf = csrfTokenFor(token)
      const page = yield* call("GET", "/dashboard/jobs/not-a-uuid", { headers })
      assert.strictEqual(page.status, 404)
      assert.include(page.body, "Page not found")
      const wrong: Array<string> = []
      // Signing out (here or everywhere) ends the session the other routes need: those go last, and
      // the live stream after them (signed in, it stays open by design; signed out, it answers at once).
      const order = (path: string) => path.endsWith("/live") ? 2 : Number(path.includes("/sign-out"))
      const routes = [...Dashboard.routes].sort((a, b) => order(a.path) - order(b.path))
      for (const route of routes) {
        const ids = route.path.includes(":") ? garbageIds : [""]
        for (const id of ids) {
          const path = withIds(route.path, id)
          const reply = route.method === "GET"
            ? yield* call("GET", `${path}${garbageQuery}`, { headers })
            : yield* call("POST", `${path}${garbageQuery}`, {
              headers,
              raw: { text: garbageForm(csrf), contentType: "application/x-www-form-urlencoded" }
            })
          if (reply.status >= 500) wrong.push(`${route.method} ${path}: ${reply.status}`)
          // An id that is not one never reaches a handler (invitation tokens are looked up by hash).
          if (id !== "" && !route.path.includes(":token") && reply.status !== 404) {
            wrong.push(`${route.method} ${path}: ${reply.status}, expected the 404 page`)
          }
          if (typeof reply.body === "string" && /href="(?!\/|https:\/\/|#)/.test(reply.body)) {
            wrong.push(`${route.method} ${path}: a link that is neither this service's nor https`)
          }
        }
      }
      assert.deepStrictEqual(wrong, [])
    }), { timeout: 180_000 })

  it.effect("the workflow, automation, webhook test and password reset pages, with real ids: garbage queries and form values never answer 500", () =>
    Effect.gen(function*() {
      const { actor, key } = yield* ownerSession
      const accountId = yield* connectedAccount(key, { mode: "approve" })
      // Connecting moved the clock past the owner's session: an owner made now signs in.
      const owner = yield* teammate(actor, "admin")
      yield* (yield* Team).changeRole(actor, owner.id, "owner")
      const member = yield* teammate(actor, "member")
      const [person] = strangers(accountId, 1, "garbage-workflow")
      const workflow = yield* call("POST", "/v1/workflows", {
        token: key,
        body: { account: accountId, person, steps: [{ type: "command", command: "connect", input: { note: "Hi" } }] }
      })
      const automation = yield* call("POST", "/v1/automations", {
        token: key,
        body: { account: accountId, name: "<b>x</b>", people: quietConnections(accountId, 1, "garbage-automation"), messages: [{ text: "Hi" }] }
      })
      const hook = yield* call("POST", "/v1/webhooks", { token: key, body: { url: "http://127.0.0.1:9/x" } })
      const ids: Record<string, string> = {
        workflows: workflow.body.workflow.id,
        automations: automation.body.automation.id,
        webhooks: hook.body.webhook.id,
        team: member.id
      }
      // A reset link for another teammate: the walk below removes the member.
      const other = yield* teammate(actor, "member")
      const headers = cookie(owner.token)
      const made = yield* call("POST", `/dashboard/team/${other.id}/reset-password`, {
        headers,
        raw: { text: `_csrf=${encodeURIComponent(csrfTokenFor(owner.token))}`, contentType: "application/x-www-form-urlencoded" }
      })
      const link = /id="reset-link">https?:\/\/[^/]+([^<]+)</.exec(String(made.body))?.[1] ?? ""
      assert.match(link, /^\/dashboard\/password-reset\/sess_/)
      const wrong: Array<string> = []
      const routes = Dashboard.routes.filter((route) => /^\/dashboard\/(workflows|automations|webhooks|team)\/:id/.test(route.path))
      assert.isAtLeast(routes.length, 12)
      for (const route of routes) {
        const path = route.path.replace(/:id/, ids[route.path.split("/")[2] ?? ""] ?? "").replace(/:\w+/g, crypto.randomUUID())
        const reply = route.method === "GET"
          ? yield* call("GET", `${path}${garbageQuery}`, { headers })
          : yield* call("POST", `${path}${garbageQuery}`, {
            headers,
            raw: { text: garbageForm(csrfTokenFor(owner.token)), contentType: "application/x-www-form-urlencoded" }
          })
        if (reply.status >= 500) wrong.push(`${route.method} ${path}: ${reply.status}`)
      }
      // The reset link's page, with garbage in its form.
      const browser = "garbage-browser-value"
      for (const text of [garbageForm(csrfTokenFor(browser)), `_csrf=${encodeURIComponent(csrfTokenFor(browser))}&password=%00%00&again=%00%00`]) {
        const reply = yield* call("POST", `${link}${garbageQuery}`, {
          headers: { cookie: `outreach_browser=${browser}` },
          raw: { text, contentType: "application/x-www-form-urlencoded" }
        })
        if (reply.status >= 500) wrong.push(`POST ${link}: ${reply.status}`)
      }
      assert.deepStrictEqual(wrong, [])
    }), { timeout: 120_000 })

  it("links are made only from https addresses (or this service's own pages in development)", () => {
    assert.strictEqual(safeHref("https://www.linkedin.com/in/ada"), "https://www.linkedin.com/in/ada")
    assert.strictEqual(safeHref("http://127.0.0.1:8080/sandbox/connect/x?y=1"), "/sandbox/connect/x?y=1")
    for (const bad of ["javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "data:text/html,x", "http://evil.example/", "vbscript:x", "//evil.example", "ada", "https://user:pw@evil.example/"]) {
      assert.isUndefined(safeHref(bad), bad)
      assert.notInclude(externalLink(bad).value, "<a ", bad)
    }
  })

  it.effect("every page names the favicon, which the service serves itself", () =>
    Effect.gen(function*() {
      const icon = yield* call("GET", "/dashboard/assets/favicon.svg")
      assert.strictEqual(icon.status, 200)
      assert.strictEqual(icon.headers["content-type"], "image/svg+xml")
      assert.include(icon.body, "<svg")
      const signIn = yield* call("GET", "/dashboard/sign-in")
      assert.include(signIn.body, `<link rel="icon" href="/dashboard/assets/favicon.svg" type="image/svg+xml">`)
    }))

  it.effect("a job whose person is javascript:… shows the address as text on the approvals page", () =>
    Effect.gen(function*() {
      const { key, email } = yield* ownerSession
      const accountId = yield* connectedAccount(key, { mode: "approve" })
      const evil = "javascript:alert(document.cookie)//www.linkedin.com/in/x"
      const job = yield* call("POST", `/v1/accounts/${accountId}/connect`, { token: key, body: { person: evil, note: "Hi" } })
      // Refused by the contract, or accepted and shown as text: either way never a link.
      const outcome = yield* (yield* SignIn).password(email, password)
      const token = outcome._tag === "SignedIn" ? outcome.session.token : ""
      const page = yield* call("GET", "/dashboard/approvals", { headers: cookie(token) })
      assert.strictEqual(page.status, 200)
      assert.notMatch(page.body, /href="javascript:/i)
      assert.strictEqual(job.status, 202, JSON.stringify(job.body))
      assert.include(page.body, "javascript:alert(document.cookie)")
    }), { timeout: 60_000 })

  it.effect("a wrong step-up code counts toward the sign-in lockout", () =>
    Effect.gen(function*() {
      const { actor, email } = yield* ownerSession
      const settings = yield* TwoFactorSettings
      const { secret } = yield* settings.begin(actor.id)
      yield* settings.confirm(actor.id, yield* currentCode(secret))
      const messages: Array<string> = []
      for (let i = 0; i < 5; i++) {
        const refused = yield* Effect.flip(settings.disable(actor.id, "000001"))
        messages.push(refused.message)
      }
      assert.include(messages[0], "4 attempts left")
      assert.include(messages[4], "locked until")
      // Locked: the right code is refused too, and so is signing in with the right password.
      yield* TestClock.adjust(30_000)
      const right = yield* Effect.flip(settings.disable(actor.id, yield* currentCode(secret)))
      assert.include(right.message, "locked until")
      const signIn = yield* Effect.flip((yield* SignIn).password(email, password))
      assert.include(signIn.message, "locked")
    }))
})
