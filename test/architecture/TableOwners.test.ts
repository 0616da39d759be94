/**
 * One owner per table (issue #19): a table listed in `owners` is read and
 * written by one module of `src/` only; every other module goes through it
 * (inside the caller's transaction where one is needed), asking it once for
 * a whole page, never a query per row. A statement touches a table when a
 * template literal names it after `FROM`, `JOIN`, `INTO` or `UPDATE`
 * (`DELETE FROM` included). A table joins the map once its SQL has been
 * gathered in its owner.
 */
import { readFileSync } from "node:fs"
import { assert, describe, it } from "@effect/vitest"
import { fromRoot, sourcesUnder, src } from "./Sources.ts"

/** Each table with one owner, and that owner (path from the repository's root). */
export const owners: Readonly<Record<string, string>> = {
  account_fences: "src/jobs/JobStore.ts",
  account_limits: "src/accounts/Budgets.ts",
  activity: "src/activity/ActivityLog.ts",
  cluster_secret: "src/platform/Cluster.ts",
  accounts: "src/accounts/AccountStore.ts",
  approvals: "src/jobs/ApprovalTable.ts",
  budget_spend: "src/accounts/Budgets.ts",
  inbox_messages: "src/people/Messages.ts",
  invitations: "src/accounts/Invitations.ts",
  jobs: "src/jobs/JobStore.ts",
  outbox_events: "src/events/Outbox.ts",
  oauth_clients: "src/oauth/Grants.ts",
  oauth_codes: "src/oauth/Grants.ts",
  oauth_grants: "src/oauth/Grants.ts",
  oauth_tokens: "src/oauth/Grants.ts",
  password_resets: "src/people-auth/PasswordResets.ts",
  people: "src/people/People.ts",
  recovery_codes: "src/people-auth/TwoFactorSettings.ts",
  sessions: "src/people-auth/Sessions.ts",
  unipile_accounts: "src/network/unipile/Store.ts",
  unipile_writes: "src/network/unipile/Store.ts",
  users: "src/people-auth/Users.ts",
  webhook_attempts: "src/webhooks/DeliveryStore.ts",
  webhook_deliveries: "src/webhooks/DeliveryStore.ts",
  webhook_endpoints: "src/webhooks/EndpointTable.ts",
  webhook_fanout_claims: "src/webhooks/DeliveryStore.ts",
  workflows: "src/workflows/WorkflowStore.ts",
  workspaces: "src/accounts/WorkspaceTable.ts"
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

describe("one owner per table", () => {
  for (const [table, owner] of Object.entries(owners)) {
    it(`${table}: only ${owner}`, () => {
      assert.deepStrictEqual(modulesMatching(touching(table)), [owner])
    })
  }

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
