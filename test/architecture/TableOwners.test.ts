/**
 * One owner per table (issue #19): a table listed in `owners` is read and
 * written by one module of `src/` only; every other module goes through it
 * (inside the caller's transaction where one is needed). A statement touches
 * a table when a template literal names it after `FROM`, `JOIN`, `INTO` or
 * `UPDATE` (`DELETE FROM` included). A table joins the map once its SQL has
 * been gathered in its owner.
 *
 * The exceptions, each listed with its reason. In `joinedReads`: a read whose main
 * table is the reader's own may join (or test with EXISTS) a table owned
 * elsewhere in the same statement, when splitting it would cost a round trip
 * per row, a consistent snapshot, or an index the join uses. Such a module
 * only reads the other table: an INSERT, UPDATE or DELETE on it fails here.
 *
 * `awaitingMove` names a read that belongs in its table's owner but sits, for
 * now, in a module this branch may not change; it too may only read, and the
 * test fails once it is gone, so the entry goes with it.
 */
import { readFileSync } from "node:fs"
import { assert, describe, it } from "@effect/vitest"
import { fromRoot, sourcesUnder, src } from "./Sources.ts"

/** Each table with one owner, and that owner (path from the repository's root). */
export const owners: Readonly<Record<string, string>> = {
  account_limits: "src/accounts/Budgets.ts",
  cluster_secret: "src/platform/Cluster.ts",
  accounts: "src/accounts/AccountStore.ts",
  approvals: "src/jobs/ApprovalTable.ts",
  budget_spend: "src/accounts/Budgets.ts",
  inbox_messages: "src/people/Messages.ts",
  invitations: "src/accounts/Invitations.ts",
  jobs: "src/jobs/JobStore.ts",
  outbox_events: "src/events/Outbox.ts",
  people: "src/people/People.ts",
  recovery_codes: "src/people-auth/TwoFactorSettings.ts",
  sessions: "src/people-auth/Sessions.ts",
  users: "src/people-auth/Users.ts",
  webhook_attempts: "src/webhooks/DeliveryStore.ts",
  webhook_deliveries: "src/webhooks/DeliveryStore.ts",
  webhook_endpoints: "src/webhooks/EndpointTable.ts",
  workflows: "src/workflows/WorkflowStore.ts",
  workspaces: "src/accounts/WorkspaceTable.ts"
}

/** A module reading a table it does not own, inside statements on its own table, and why. */
interface JoinedRead {
  readonly module: string
  readonly tables: ReadonlyArray<string>
  readonly why: string
}

export const joinedReads: ReadonlyArray<JoinedRead> = [
  {
    module: "src/people/People.ts",
    tables: ["accounts", "invitations", "inbox_messages", "jobs"],
    why: "a person's timeline (their jobs, invitations and messages, each account named by its label) and the " +
      "other seat holding a person (a write in flight, a pending invitation, a cold message not answered) are one " +
      "read per page or claim, on the person's row; people/ stands beside accounts/ and below jobs/ in the " +
      "import rule, so it cannot call their stores"
  },
]

export const awaitingMove: ReadonlyArray<JoinedRead> = []

const templates = /`(?:[^`\\]|\\.)*`/g
const touching = (table: string) => new RegExp(`\\b(?:FROM|JOIN|INTO|UPDATE)\\s+${table}\\b`, "i")
const writing = (table: string) => new RegExp(`\\b(?:INTO|UPDATE|DELETE\\s+FROM)\\s+${table}\\b`, "i")

const sources = sourcesUnder(src).map((file) => ({
  path: fromRoot(file),
  templates: readFileSync(file, "utf8").match(templates) ?? []
}))

/** The modules whose SQL matches `pattern`. */
const modulesMatching = (pattern: RegExp): ReadonlyArray<string> =>
  sources.filter((source) => source.templates.some((text) => pattern.test(text))).map((source) => source.path)

const joinedReaders = (table: string): ReadonlyArray<string> =>
  [...joinedReads, ...awaitingMove].filter((read) => read.tables.includes(table)).map((read) => read.module)

describe("one owner per table", () => {
  for (const [table, owner] of Object.entries(owners)) {
    const readers = joinedReaders(table)
    it(`${table}: only ${owner}${readers.length === 0 ? "" : `, and joined into reads of ${readers.join(", ")}`}`, () => {
      assert.deepStrictEqual([...modulesMatching(touching(table))].sort(), [owner, ...readers].sort())
      assert.deepStrictEqual(modulesMatching(writing(table)), [owner])
    })
  }

  it("each joined read (or read awaiting its move) names an owned table, gives a reason, and still reads it", () => {
    for (const read of [...joinedReads, ...awaitingMove]) {
      assert.isAbove(read.why.length, 20, read.module)
      for (const table of read.tables) {
        assert.property(owners, table, `${read.module} joins ${table}, which has no owner yet`)
        assert.notStrictEqual(owners[table], read.module)
        assert.include(modulesMatching(touching(table)), read.module, `${read.module} no longer reads ${table}: drop it`)
      }
    }
  })

  it("the scan sees SQL written over several lines and after DELETE", () => {
    const pattern = touching("approvals")
    assert.isTrue(pattern.test("SELECT 1\n  FROM\n    approvals a"))
    assert.isTrue(pattern.test("DELETE FROM approvals WHERE true"))
    assert.isFalse(pattern.test("SELECT 1 FROM approvals_archive"))
    assert.isFalse(pattern.test("SELECT 1 FROM team_approvals"))
    assert.isTrue(writing("approvals").test("DELETE\n  FROM approvals WHERE true"))
    assert.isTrue(writing("approvals").test("INSERT INTO approvals (id) VALUES (1)"))
    assert.isFalse(writing("approvals").test("SELECT 1 FROM approvals a JOIN jobs j ON j.id = a.job_id"))
  })
})
