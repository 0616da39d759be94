/**
 * Who may do what: THE table. REST (every operation names its action), MCP
 * (every tool call) and the dashboard (every page and form) ask
 * {@link permits}; `docs/dashboard.md` and the OpenAPI document (`x-roles` on
 * each operation) show it.
 *
 * A person has one of three roles; an API key has one of those or `read_only`.
 * Keys made before keys had roles act as owners, as they always did.
 */
import { Schema } from "effect"

/** Roles of people in a workspace, strongest first. */
export const Role = Schema.Literals(["owner", "admin", "member"])
export type Role = typeof Role.Type

/** What a credential acts as: a person's role, or for API keys also `read_only`. */
export const AccessRole = Schema.Literals(["owner", "admin", "member", "read_only"])
export type AccessRole = typeof AccessRole.Type

/** Every access role, strongest first. */
export const accessRoles: ReadonlyArray<AccessRole> = AccessRole.literals

/** What a request, a tool call or a form does. */
export type Action =
  | "read"
  | "runCommands"
  | "decideApprovals"
  | "startWorkflows"
  | "manageSeats"
  | "driveSandbox"
  | "manageKeys"
  | "manageWebhooks"
  | "manageTeam"
  | "manageOwners"
  | "resetPasswords"
  | "workspaceSettings"

interface Rule {
  readonly roles: ReadonlyArray<AccessRole>
  /** What the action covers, in words (docs, OpenAPI, refusals). */
  readonly covers: string
}

const everyone: ReadonlyArray<AccessRole> = ["owner", "admin", "member", "read_only"]
const members: ReadonlyArray<AccessRole> = ["owner", "admin", "member"]
const managers: ReadonlyArray<AccessRole> = ["owner", "admin"]
const owners: ReadonlyArray<AccessRole> = ["owner"]

/** The table. */
export const rules: { readonly [A in Action]: Rule } = {
  read: {
    roles: everyone,
    covers: "read accounts, limits, jobs, approvals, people, inbox, workflows, automations and the activity log"
  },
  runCommands: {
    roles: members,
    covers: "run commands (reads and writes, each a job through the Governor) and cancel jobs"
  },
  decideApprovals: { roles: members, covers: "approve (with an edited text) or reject a write waiting for a person" },
  startWorkflows: { roles: members, covers: "start, pause, resume and stop workflows and automations" },
  manageSeats: {
    roles: managers,
    covers: "connect, reconnect and sign in seats; change a seat's settings, mode and limits; pause, resume and disconnect it"
  },
  driveSandbox: { roles: managers, covers: "drive the sandbox network (finish a connection, network events, sync, move its clock)" },
  manageKeys: { roles: managers, covers: "list, create and revoke API keys" },
  manageWebhooks: { roles: managers, covers: "list, create, change, delete and test webhook endpoints, and read their deliveries" },
  manageTeam: { roles: managers, covers: "invite, remove and change the role of members and admins" },
  manageOwners: { roles: owners, covers: "make someone an owner, and change or remove an owner" },
  resetPasswords: { roles: owners, covers: "make a teammate a one-time link to set a new password" },
  workspaceSettings: { roles: owners, covers: "the workspace's settings, such as requiring two-factor for everyone" }
}

/** Every action, in the table's order. */
export const actions = Object.keys(rules).filter((key): key is Action => key in rules)

/** Whether `role` may do `action`. */
export const permits = (role: AccessRole, action: Action): boolean => rules[action].roles.includes(role)

/** How strong a role is (0 the strongest): a credential never makes a key stronger than itself. */
export const rank = (role: AccessRole): number => accessRoles.indexOf(role)

/** Whether `role` may hand out `granted` (a key's role): never above its own. */
export const mayGrant = (role: AccessRole, granted: AccessRole): boolean => rank(granted) >= rank(role)

/** A role in words. */
export const roleName = (role: AccessRole): string => role === "read_only" ? "read-only" : role

/** The roles allowed `action`, in words: "owner and admin". */
export const allowedNames = (action: Action): string => {
  const names = rules[action].roles.map(roleName)
  return names.length === 1 ? names[0] ?? "" : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`
}

/** The refusal's words, the same on every surface. */
export const refusal = (role: AccessRole, action: Action): string =>
  `Only ${allowedNames(action)} may ${rules[action].covers}; this ${role === "read_only" ? "read-only key" : roleName(role)} may not.`
