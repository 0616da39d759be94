/**
 * What cannot be undone is asked twice on the dashboard (issue #32): removing a teammate and
 * revoking a key need their box ticked; a form without it is refused in words and changes nothing.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { csrfTokenFor } from "../../src/http/SessionCookie.ts"
import { Team } from "../../src/team/Team.ts"
import { cookie, ownerSession, teammate } from "../support/Teammates.ts"
import { call, layer as serverLayer } from "../support/TestServer.ts"

layer(serverLayer())("confirmations on the dashboard", (it) => {
  it.effect("a teammate is removed and a key revoked only once the box is ticked", () =>
    Effect.gen(function*() {
      const { actor, key, token } = yield* ownerSession
      const member = yield* teammate(actor, "member")
      const post = (path: string, fields = "") =>
        call("POST", path, {
          headers: cookie(token),
          raw: { text: `_csrf=${encodeURIComponent(csrfTokenFor(token))}${fields}`, contentType: "application/x-www-form-urlencoded" }
        })
      const team = yield* Team
      const members = () => Effect.map(team.members(actor.workspaceId), (all) => all.map((m) => m.id))

      const page = yield* call("GET", "/dashboard/team", { headers: cookie(token) })
      assert.include(page.body, "Yes, remove member")
      const unticked = yield* post(`/dashboard/team/${member.id}/remove`)
      assert.strictEqual(unticked.status, 400)
      assert.include(unticked.body, "Tick &quot;Yes, remove&quot; to confirm")
      assert.include(yield* members(), member.id)
      const removed = yield* post(`/dashboard/team/${member.id}/remove`, "&confirm=yes")
      assert.include(removed.body, "Removed: their sessions ended at once.")
      assert.notInclude(yield* members(), member.id)

      const made = yield* call("POST", "/v1/keys", { token: key, body: { name: "to revoke" } })
      const keyId: string = made.body.key.id
      const keys = yield* call("GET", "/dashboard/keys", { headers: cookie(token) })
      assert.include(keys.body, "Yes, revoke to revoke")
      const notYet = yield* post(`/dashboard/keys/${keyId}/revoke`)
      assert.strictEqual(notYet.status, 400)
      assert.include(notYet.body, "a revoked key cannot be used again")
      assert.strictEqual((yield* call("GET", "/v1/me", { token: made.body.value })).status, 200)
      const revoked = yield* post(`/dashboard/keys/${keyId}/revoke`, "&confirm=yes")
      assert.include(revoked.body, "The key is revoked")
      assert.strictEqual((yield* call("GET", "/v1/me", { token: made.body.value })).status, 401)
    }), { timeout: 60_000 })
})
