/**
 * People of a workspace for tests: an owner who signed in with a password, and
 * teammates of each role invited by them, each with a session token.
 */
import { assert } from "@effect/vitest"
import { Effect } from "effect"
import { csrfTokenFor } from "../../src/http/SessionCookie.ts"
import { SignIn } from "../../src/team/SignIn.ts"
import { type Actor, Team } from "../../src/team/Team.ts"
import { newWorkspace } from "./TestServer.ts"

export const password = "a long enough passphrase"

/** A workspace with an owner who signed in with a password; returns the session token. */
export const ownerSession = Effect.gen(function*() {
  const { keyValue, workspace } = yield* newWorkspace()
  const email = `owner-${crypto.randomUUID().slice(0, 8)}@acme.test`
  const { userId } = yield* (yield* Team).createOwner({ workspaceId: workspace.id, email, name: "Olivia", password })
  const outcome = yield* (yield* SignIn).password(email, password)
  assert.strictEqual(outcome._tag, "SignedIn")
  const token = outcome._tag === "SignedIn" ? outcome.session.token : ""
  const actor: Actor = { id: userId, email, name: "Olivia", role: "owner", workspaceId: workspace.id }
  return { key: keyValue, workspaceId: workspace.id, token, actor, email }
})

/** Invites and signs in a teammate with `role`. */
export const teammate = (actor: Actor, role: "admin" | "member") =>
  Effect.gen(function*() {
    const team = yield* Team
    const email = `${role}-${crypto.randomUUID().slice(0, 8)}@acme.test`
    const { link } = yield* team.invite(actor, { email, role, baseUrl: "http://x" })
    const session = yield* team.accept(link.split("/").pop() ?? "", { name: role, password })
    const members = yield* team.members(actor.workspaceId)
    const id = members.find((m) => m.email === email)?.id ?? ""
    return { token: session.token, id, email }
  })

/** The dashboard's session cookie. */
export const cookie = (token: string) => ({ cookie: `outreach_session=${token}` })

/** The cookie and the CSRF token a dashboard page sends with a REST change. */
export const cookieWithCsrf = (token: string) => ({ ...cookie(token), "x-csrf-token": csrfTokenFor(token) })

/** A new session of the person signed in with `secret` (empty when two-factor asks for a code first). */
export const sessionTokenOf = (email: string, secret: string) =>
  Effect.gen(function*() {
    const outcome = yield* (yield* SignIn).password(email, secret)
    return outcome._tag === "SignedIn" ? outcome.session.token : ""
  })
