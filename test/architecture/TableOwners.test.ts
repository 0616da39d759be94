/**
 * One owner per table (issues #19, #31): every table the migrations create is
 * read and written by one module of `src/` only; every other module goes
 * through it (inside the caller's transaction where one is needed), asking it
 * once for a whole page, never a query per row. A statement touches a table
 * when a template literal names it after `FROM`, `JOIN`, `INTO` or `UPDATE`
 * (`DELETE FROM` included).
 *
 * The migrations' SQL functions have owners too: each is called by its owner
 * only, or by the modules named beside it that apply the same rule. A table no module names, touched only inside functions, belongs to
 * those functions' owner; the tables a function reads besides are its
 * purpose (a request's credential and rate window in one round trip).
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { fromRoot, root, sourcesUnder, src } from "./Sources.ts"

/** Each table with one owner, and that owner (path from the repository's root). */
export const owners: Readonly<Record<string, string>> = {
  account_fences: "src/jobs/JobStore.ts",
  account_limits: "src/accounts/Budgets.ts",
  accounts: "src/accounts/AccountStore.ts",
  activity: "src/activity/ActivityLog.ts",
  api_keys: "src/keys/ApiKeys.ts",
  approvals: "src/approvals/ApprovalTable.ts",
  automations: "src/workflows/Automations.ts",
  budget_spend: "src/accounts/Budgets.ts",
  cluster_secret: "src/platform/Cluster.ts",
  idempotency_keys: "src/idempotency/Idempotency.ts",
  inbox_messages: "src/people/Messages.ts",
  invitations: "src/accounts/Invitations.ts",
  jobs: "src/jobs/JobStore.ts",
  oauth_clients: "src/oauth/Grants.ts",
  oauth_codes: "src/oauth/Grants.ts",
  oauth_grants: "src/oauth/Grants.ts",
  oauth_tokens: "src/oauth/Grants.ts",
  outbox_events: "src/events/Outbox.ts",
  password_resets: "src/team/PasswordResets.ts",
  people: "src/people/People.ts",
  rate_limit_windows: "src/auth/Credentials.ts",
  recovery_codes: "src/team/TwoFactorSettings.ts",
  sandbox_accounts: "src/sandbox/State.ts",
  sandbox_actions: "src/sandbox/State.ts",
  sandbox_clock: "src/platform/ServiceClock.ts",
  sandbox_fences: "src/sandbox/State.ts",
  sandbox_inbound_messages: "src/sandbox/State.ts",
  sandbox_invitation_answers: "src/sandbox/State.ts",
  sandbox_invitations: "src/sandbox/State.ts",
  sandbox_messages: "src/sandbox/State.ts",
  sandbox_writes: "src/sandbox/State.ts",
  sessions: "src/team/Sessions.ts",
  sign_in_challenges: "src/team/SignIn.ts",
  sign_in_failures: "src/team/Lockout.ts",
  team_invitations: "src/team/Team.ts",
  unipile_accounts: "src/network/unipile/Store.ts",
  unipile_writes: "src/network/unipile/Store.ts",
  users: "src/team/Users.ts",
  webhook_attempts: "src/webhooks/DeliveryStore.ts",
  webhook_deliveries: "src/webhooks/DeliveryStore.ts",
  webhook_dispatch_cursor: "src/webhooks/FanOut.ts",
  webhook_endpoints: "src/webhooks/EndpointTable.ts",
  webhook_fanout_claims: "src/webhooks/DeliveryStore.ts",
  workflow_jobs: "src/workflows/WorkflowStore.ts",
  workflow_log: "src/workflows/WorkflowStore.ts",
  workflow_waits: "src/workflows/Waits.ts",
  workflows: "src/workflows/WorkflowStore.ts",
  workspaces: "src/accounts/WorkspaceTable.ts"
}

/** Each SQL function of the migrations, and the one module that calls it. */
export const functionOwners: Readonly<Record<string, string>> = {
  claim_requests: "src/auth/Credentials.ts",
  credential_principal: "src/auth/Credentials.ts"
}

/** Modules that call a function besides its owner, to apply the same rule, and why. */
const functionSharers: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  claim_requests: {
    "src/network/unipile/RequestRate.ts": "a seat's requests to Unipile, counted by the rule that counts an API key's (bucket unipile:<account>)"
  }
}

const templates = /`(?:[^`\\]|\\.)*`/g
const touching = (table: string) => new RegExp(`\\b(?:FROM|JOIN|INTO|UPDATE)\\s+${table}\\b`, "i")

const sources = sourcesUnder(src).map((file) => ({
  path: fromRoot(file),
  templates: readFileSync(file, "utf8").match(templates) ?? []
}))

/** The modules whose SQL matches `pattern`. */
const modulesMatching = (pattern: RegExp): ReadonlyArray<string> =>
  sources.filter((source) => source.templates.some((text) => pattern.test(text))).map((source) => source.path)

const migrations = sourcesUnder(join(root, "migrations")).map((file) => readFileSync(file, "utf8")).join("\n")
/** Every table the migrations create. */
const createdTables = [...new Set([...migrations.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?([a-z_]+)/gi)].map((m) => m[1]))]
/** Every SQL function the migrations create (or replace), with its bodies. */
const functionBodies = new Map<string, Array<string>>()
for (const [, name, body] of migrations.matchAll(/FUNCTION\s+([a-z_]+)\s*\([\s\S]*?\$\$([\s\S]*?)\$\$/gi)) {
  functionBodies.set(name, [...(functionBodies.get(name) ?? []), body])
}
const calling = (fn: string) => new RegExp(`\\b${fn}\\s*\\(`, "i")
/** The functions whose body touches `table`. */
const functionsTouching = (table: string): ReadonlyArray<string> =>
  [...functionBodies].filter(([, bodies]) => bodies.some((body) => touching(table).test(body))).map(([name]) => name)

describe("one owner per table", () => {
  it("every table the migrations create has an owner, and the map names no other", () => {
    assert.isAtLeast(createdTables.length, 40)
    assert.deepStrictEqual([...createdTables].sort(), Object.keys(owners).sort())
  })

  for (const [table, owner] of Object.entries(owners)) {
    it(`${table}: only ${owner}`, () => {
      const direct = modulesMatching(touching(table))
      if (direct.length > 0) return assert.deepStrictEqual(direct, [owner])
      // Touched only inside SQL functions: those of its owner.
      const through = functionsTouching(table)
      assert.isNotEmpty(through, `no module and no function touches ${table}`)
      assert.deepStrictEqual([...new Set(through.map((fn) => functionOwners[fn]))], [owner])
    })
  }

  it("every SQL function of the migrations has an owner, the only module that calls it", () => {
    assert.deepStrictEqual([...functionBodies.keys()].sort(), Object.keys(functionOwners).sort())
    for (const [fn, owner] of Object.entries(functionOwners)) {
      assert.deepStrictEqual([...modulesMatching(calling(fn))].sort(), [owner, ...Object.keys(functionSharers[fn] ?? {})].sort(), fn)
    }
  })

  it("the scan sees SQL written over several lines and after DELETE", () => {
    const pattern = touching("approvals")
    assert.isTrue(pattern.test("SELECT 1\n  FROM\n    approvals a"))
    assert.isTrue(pattern.test("DELETE FROM approvals WHERE true"))
    assert.isFalse(pattern.test("SELECT 1 FROM approvals_archive"))
    assert.isFalse(pattern.test("SELECT 1 FROM team_approvals"))
    assert.isTrue(pattern.test("DELETE\n  FROM approvals WHERE true"))
    assert.isTrue(pattern.test("INSERT INTO approvals (id) VALUES (1)"))
    assert.isTrue(pattern.test("UPDATE approvals SET status = 'expired'"))
    assert.isTrue(touching("jobs").test("SELECT 1 FROM approvals a JOIN jobs j ON j.id = a.job_id"))
  })
})
