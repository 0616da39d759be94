/**
 * Who is calling: an API key (with the role it was made with), a signed-in
 * person with a role, or an assistant a person signed in with OAuth (acting as
 * that person, with their role and no more). What each role may do is
 * `Permissions.ts`'s table.
 */
import { Context } from "effect"
import type { AccessRole, Role } from "./Permissions.ts"

export { AccessRole, Role } from "./Permissions.ts"

/** A signed-in person (sessions are created by the dashboard or the operator CLI). */
export interface SessionUser {
  readonly id: string
  readonly email: string
  readonly name: string
  readonly role: Role
}

/** The authenticated caller of one request. */
export type Principal =
  | {
    readonly kind: "key"
    readonly workspaceId: string
    readonly keyId: string
    readonly keyName: string
    /** Chosen when the key was made; keys made before keys had roles are owners. */
    readonly role: AccessRole
  }
  | {
    readonly kind: "session"
    readonly workspaceId: string
    readonly sessionId: string
    readonly user: SessionUser
  }
  | {
    /** An assistant's OAuth access token (`/mcp` only): the person's grant to a client. */
    readonly kind: "assistant"
    readonly workspaceId: string
    readonly grantId: string
    readonly clientName: string
    readonly user: SessionUser
  }

/** The role a principal acts with. */
export const roleOf = (principal: Principal): AccessRole => principal.kind === "key" ? principal.role : principal.user.role

/** The caller of the current request, provided by the authentication middleware. */
export class CurrentPrincipal extends Context.Service<CurrentPrincipal, Principal>()("outreach/CurrentPrincipal") {}

/** The principal as approvals and the activity log record who did something: `key:<id>` or `user:<id>`. */
export const actorOf = (principal: Principal): string =>
  principal.kind === "key" ? `key:${principal.keyId}` : `user:${principal.user.id}`

/** The principal in words, as a message names who did something: a person's name, or the key's. */
export const principalName = (principal: Principal): string => {
  switch (principal.kind) {
    case "key":
      return `the API key "${principal.keyName}"`
    case "session":
      return principal.user.name
    case "assistant":
      return `${principal.clientName} for ${principal.user.name}`
  }
}
