/**
 * An owner makes a password reset link for a teammate (issue #32): one-time,
 * expiring, only its hash stored; the teammate sets a new password on it and
 * every session of theirs ends; both steps are in the activity log; only an
 * owner may; a bad, used, replaced or expired link answers a page that says
 * so; while the teammate's email is locked the link waits.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { SqlClient } from "effect/sql"
import { hashCredential } from "../../src/auth/Tokens.ts"
import { csrfTokenFor } from "../../src/http/SessionCookie.ts"
import { SignIn } from "../../src/team/SignIn.ts"
import { cookie, ownerSession, password, sessionTokenOf, teammate } from "../support/Teammates.ts"
import { call, layer as serverLayer } from "../support/TestServer.ts"

const newPassword = "a fresh and long passphrase"
const browser = "a-browser-value-of-some-length"

const form = (token: string, fields: string) => ({
  headers: cookie(token),
  raw: { text: `_csrf=${encodeURIComponent(csrfTokenFor(token))}&${fields}`, contentType: "application/x-www-form-urlencoded" }
})

/** The reset page's form as a browser without a session sends it. */
const resetForm = (fields: string) => ({
  headers: { cookie: `outreach_browser=${browser}` },
  raw: { text: `_csrf=${encodeURIComponent(csrfTokenFor(browser))}&${fields}`, contentType: "application/x-www-form-urlencoded" }
})

const linkIn = (body: unknown) => {
  const found = /id="reset-link">(http[^<]+)</.exec(String(body))
  assert.isNotNull(found, "the page shows the link")
  return new URL(found?.[1] ?? "http://x").pathname
}

layer(serverLayer())("password reset links", (it) => {
  it.effect("an owner makes a link; the teammate sets a new password on it, their sessions end, and it works once", () =>
    Effect.gen(function*() {
      const { token, actor } = yield* ownerSession
      const member = yield* teammate(actor, "member")
      const admin = yield* teammate(actor, "admin")
      // Only an owner may (the role table's resetPasswords), and not for themselves.
      const byAdmin = yield* call("POST", `/dashboard/team/${member.id}/reset-password`, form(admin.token, ""))
      assert.strictEqual(byAdmin.status, 403)
      assert.include(byAdmin.body, "Only owner may make a teammate a one-time link to set a new password")
      const team = yield* call("GET", "/dashboard/team", { headers: cookie(token) })
      assert.include(team.body, `/dashboard/team/${member.id}/reset-password`)
      assert.notInclude(team.body, `/dashboard/team/${actor.id}/reset-password`)
      const self = yield* call("POST", `/dashboard/team/${actor.id}/reset-password`, form(token, ""))
      assert.strictEqual(self.status, 422)
      const made = yield* call("POST", `/dashboard/team/${member.id}/reset-password`, form(token, ""))
      assert.strictEqual(made.status, 200)
      assert.include(made.body, "The service cannot send email: copy this link")
      const path = linkIn(made.body)
      // Only the hash is stored.
      const sql = yield* SqlClient.SqlClient
      const rawToken = path.split("/").pop() ?? ""
      const stored = yield* sql<{ hash: string }>`SELECT hash FROM password_resets WHERE user_id = ${member.id}`
      assert.deepStrictEqual(stored.map((row) => row.hash), [hashCredential(rawToken)])
      // The page names whose password it sets.
      const page = yield* call("GET", path)
      assert.strictEqual(page.status, 200)
      assert.include(page.body, member.email)
      // Refusals keep the link usable.
      assert.include((yield* call("POST", path, resetForm(`password=${encodeURIComponent(newPassword)}&again=other`))).body, "differ")
      assert.strictEqual((yield* call("POST", path, resetForm("password=short&again=short"))).status, 422)
      assert.strictEqual((yield* call("POST", path, { raw: { text: "password=x&again=x", contentType: "application/x-www-form-urlencoded" } })).status, 403)
      const done = yield* call("POST", path, resetForm(`password=${encodeURIComponent(newPassword)}&again=${encodeURIComponent(newPassword)}`))
      assert.strictEqual(done.status, 200)
      assert.include(done.body, "Your new password is set")
      // Their sessions ended; the new password signs in, the old one no longer.
      assert.strictEqual((yield* call("GET", "/v1/me", { headers: cookie(member.token) })).status, 401)
      assert.notStrictEqual(yield* sessionTokenOf(member.email, newPassword), "")
      const old = yield* Effect.flip((yield* SignIn).password(member.email, password))
      assert.include(old.message, "Wrong email or password")
      // Used once.
      const again = yield* call("GET", path)
      assert.strictEqual(again.status, 410)
      assert.include(again.body, "already used")
      // Both steps in the activity log.
      const log = yield* call("GET", "/v1/activity", { headers: cookie(token) })
      const actions: Array<string> = log.body.activity.map((entry: { action: string }) => entry.action)
      assert.includeMembers(actions, ["team.password_reset_sent", "team.password_reset"])
      const activity = yield* call("GET", "/dashboard/activity", { headers: cookie(token) })
      assert.include(activity.body, "set a new password from a reset link")
    }), { timeout: 60_000 })

  it.effect("an unknown, replaced or expired link answers a page that says so; a locked email makes the link wait", () =>
    Effect.gen(function*() {
      const { token, actor } = yield* ownerSession
      const member = yield* teammate(actor, "admin")
      const unknown = yield* call("GET", "/dashboard/password-reset/sess_not-a-real-token")
      assert.strictEqual(unknown.status, 404)
      assert.include(unknown.body, "not valid")
      const first = linkIn((yield* call("POST", `/dashboard/team/${member.id}/reset-password`, form(token, ""))).body)
      const second = linkIn((yield* call("POST", `/dashboard/team/${member.id}/reset-password`, form(token, ""))).body)
      // A newer link replaces the older one.
      assert.strictEqual((yield* call("GET", first)).status, 410)
      assert.strictEqual((yield* call("GET", second)).status, 200)
      // Five wrong passwords lock the email: the link waits, and says until when.
      for (let i = 0; i < 5; i++) yield* Effect.flip((yield* SignIn).password(member.email, "not the password"))
      const locked = yield* call("POST", second, resetForm(`password=${encodeURIComponent(newPassword)}&again=${encodeURIComponent(newPassword)}`))
      assert.strictEqual(locked.status, 429)
      assert.include(locked.body, "locked until")
      // After 24 hours the link has expired.
      yield* TestClock.adjust("25 hours")
      const expired = yield* call("GET", second)
      assert.strictEqual(expired.status, 410)
      assert.include(expired.body, "expired")
      const late = yield* call("POST", second, resetForm(`password=${encodeURIComponent(newPassword)}&again=${encodeURIComponent(newPassword)}`))
      assert.strictEqual(late.status, 410)
    }), { timeout: 60_000 })
})
