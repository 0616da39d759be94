/**
 * A person's own sign-in (issue #32): change the password (the current one
 * first; a wrong one counts toward the lockout; the other sessions end), the
 * list of open sessions, and signing out any one of them.
 */
import { assert, layer } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { csrfTokenFor } from "../../src/http/SessionCookie.ts"
import { SignIn } from "../../src/team/SignIn.ts"
import { totpCodeAt } from "../../src/team/TwoFactor.ts"
import { TwoFactorSettings } from "../../src/team/TwoFactorSettings.ts"
import { cookie, ownerSession, password, sessionTokenOf, teammate } from "../support/Teammates.ts"
import { call, layer as serverLayer } from "../support/TestServer.ts"

layer(serverLayer())("a person's own sign-in", (it) => {
  it.effect("lists the sessions, signs one out, and changes the password (the other sessions end)", () =>
    Effect.gen(function*() {
      const { token, email } = yield* ownerSession
      const laptop = yield* sessionTokenOf(email, password)
      const phone = yield* sessionTokenOf(email, password)
      const form = (fields: string) => ({
        headers: cookie(token),
        raw: { text: `_csrf=${encodeURIComponent(csrfTokenFor(token))}&${fields}`, contentType: "application/x-www-form-urlencoded" }
      })
      const page = yield* call("GET", "/dashboard/security", { headers: cookie(token) })
      const ends = [...String(page.body).matchAll(/security\/sessions\/([0-9a-f-]{36})\/end/g)].map((m) => m[1])
      assert.strictEqual(ends.length, 2)
      assert.include(page.body, "(this one)")
      // Sign one of the other two out: it ends, the rest go on.
      const ended = yield* call("POST", `/dashboard/security/sessions/${ends[0]}/end`, form(""))
      assert.include(ended.body, "That session is signed out")
      const statuses = [(yield* call("GET", "/v1/me", { token: laptop })).status, (yield* call("GET", "/v1/me", { token: phone })).status]
      assert.sameMembers(statuses, [200, 401])
      const other = statuses[0] === 200 ? laptop : phone
      assert.strictEqual((yield* call("GET", "/v1/me", { headers: cookie(token) })).status, 200)
      // A wrong current password is refused and counted.
      const wrong = yield* call("POST", "/dashboard/security/password", form("current=nope&next=a%20new%20long%20passphrase&again=a%20new%20long%20passphrase"))
      assert.strictEqual(wrong.status, 422)
      assert.include(wrong.body, "4 attempts left")
      const differ = yield* call("POST", "/dashboard/security/password", form(`current=${encodeURIComponent(password)}&next=a%20new%20long%20passphrase&again=another`))
      assert.include(differ.body, "differ")
      const short = yield* call("POST", "/dashboard/security/password", form(`current=${encodeURIComponent(password)}&next=short&again=short`))
      assert.strictEqual(short.status, 422)
      const changed = yield* call("POST", "/dashboard/security/password", form(`current=${encodeURIComponent(password)}&next=a%20new%20long%20passphrase&again=a%20new%20long%20passphrase`))
      assert.include(changed.body, "Your password is changed")
      // This session stays; the laptop's ends; the new password signs in, the old one no longer.
      assert.strictEqual((yield* call("GET", "/v1/me", { headers: cookie(token) })).status, 200)
      assert.strictEqual((yield* call("GET", "/v1/me", { token: other })).status, 401)
      assert.notStrictEqual(yield* sessionTokenOf(email, "a new long passphrase"), "")
      const old = yield* Effect.flip((yield* SignIn).password(email, password))
      assert.match(old.message, /not right|wrong|locked/i)
    }), { timeout: 60_000 })

  it.effect("an owner requires two-factor: a teammate without it is sent to set it up first, and cannot turn it off", () =>
    Effect.gen(function*() {
      const { token, actor } = yield* ownerSession
      const member = yield* teammate(actor, "member")
      const post = (as: string, path: string, fields: string) =>
        call("POST", path, {
          headers: cookie(as),
          raw: { text: `_csrf=${encodeURIComponent(csrfTokenFor(as))}&${fields}`, contentType: "application/x-www-form-urlencoded" }
        })
      // Only an owner may (workspaceSettings).
      assert.strictEqual((yield* post(member.token, "/dashboard/team/two-factor", "required=yes")).status, 403)
      // The owner sets it up first, then requires it.
      const settings = yield* TwoFactorSettings
      const { secret } = yield* settings.begin(actor.id)
      yield* settings.confirm(actor.id, totpCodeAt(secret, yield* Clock.currentTimeMillis))
      const required = yield* post(token, "/dashboard/team/two-factor", "required=yes")
      assert.include(required.body, "Two-factor is now required")
      // The member is sent to set it up, whatever page they open; REST is not a page and is unchanged.
      const page = yield* call("GET", "/dashboard/approvals", { headers: cookie(member.token) })
      assert.include(page.body, "Your workspace requires two-factor sign-in")
      assert.strictEqual((yield* call("GET", "/v1/approvals", { headers: cookie(member.token) })).status, 200)
      const { secret: theirs } = yield* settings.begin(member.id)
      yield* settings.confirm(member.id, totpCodeAt(theirs, yield* Clock.currentTimeMillis))
      const after = yield* call("GET", "/dashboard/approvals", { headers: cookie(member.token) })
      assert.include(after.body, "<h1>Approvals</h1>")
      // While required, nobody turns it off.
      const off = yield* post(member.token, "/dashboard/security/disable", `code=${totpCodeAt(theirs, (yield* Clock.currentTimeMillis) + 30_000)}`)
      assert.include(off.body, "requires two-factor sign-in, so it cannot be turned off")
    }), { timeout: 60_000 })
})
