/**
 * Who is calling: an API key (acting with the workspace owner's rights), a
 * signed-in person with a role, or an assistant a person signed in with OAuth
 * (acting as that person, with their role and no more). Every rule about roles
 * lives here.
 *
 * @since 1.0.0
 */
import { Context, Schema } from "effect"

/** Roles of people in a workspace. */
export const Role = Schema.Literals(["owner", "admin", "member"])
export type Role = typeof Role.Type

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

/** The role a principal acts with: keys act with the owner's rights (spec, Authentication 3). */
export const roleOf = (principal: Principal): Role => principal.kind === "key" ? "owner" : principal.user.role

/** Owner and admin endpoints (keys, webhooks) are closed to members. */
export const canManageWorkspace = (principal: Principal): boolean => roleOf(principal) !== "member"

/** The caller of the current request, provided by the authentication middleware. */
export class CurrentPrincipal extends Context.Service<CurrentPrincipal, Principal>()("outreach/CurrentPrincipal") {}
