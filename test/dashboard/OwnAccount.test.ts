/**
 * A person's own sign-in (issue #32): change the password (the current one
 * first; a wrong one counts toward the lockout; the other sessions end), the
 * list of open sessions, and signing out any one of them.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { csrfTokenFor } from "../../src/http/dashboard/Session.ts"
import { SignIn } from "../../src/people-auth/SignIn.ts"
import { cookie, ownerSession, password } from "../support/Teammates.ts"
import { call, layer as serverLayer } from "../support/TestServer.ts"

/** A new session of the person, signed in with `secret`. */
const tokenOf = (email: string, secret: string) =>
  Effect.gen(function*() {
    const outcome = yield* (yield* SignIn).password(email, secret)
    return outcome._tag === "SignedIn" ? outcome.session.token : ""
  })

layer(serverLayer())("a person's own sign-in", (it) => {
  it.effect("lists the sessions, signs one out, and changes the password (the other sessions end)", () =>
    Effect.gen(function*() {
      const { token, email } = yield* ownerSession
      const laptop = yield* tokenOf(email, password)
      const phone = yield* tokenOf(email, password)
      const form = (fields: string) => ({
        headers: cookie(token),
        raw: { text: `_csrf=${encodeURIComponent(csrfTokenFor(token))}&${fields}`, contentType: "application/x-www-form-urlencoded" }
      })
      const page = yield* call("GET", "/dashboard/security", { headers: cookie(token) })
      const ends = [...String(page.body).matchAll(/security\/sessions\/([0-9a-f-]{36})\/end/g)].map((m) => m[1])
      assert.strictEqual(ends.length, 2)
      assert.include(page.body, "(this one)")
      // Sign one out: which one is the laptop's is not shown, so end the first listed (the newest: the phone).
      const ended = yield* call("POST", `/dashboard/security/sessions/${ends[0]}/end`, form(""))
      assert.include(ended.body, "That session is signed out")
      assert.strictEqual((yield* call("GET", "/v1/me", { token: phone })).status, 401)
      assert.strictEqual((yield* call("GET", "/v1/me", { token: laptop })).status, 200)
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
      assert.strictEqual((yield* call("GET", "/v1/me", { token: laptop })).status, 401)
      assert.notStrictEqual(yield* tokenOf(email, "a new long passphrase"), "")
      const old = yield* Effect.flip((yield* SignIn).password(email, password))
      assert.match(old.message, /not right|wrong|locked/i)
    }), { timeout: 60_000 })
})
