import { assert, layer } from "@effect/vitest"
import { Effect, Exit, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Budgets } from "../../src/accounts/Budgets.ts"
import { commands } from "../../src/domain/Commands.ts"
import { NetworkDriver } from "../../src/network/NetworkDriver.ts"
import { JobCompletions } from "../../src/jobs/Completions.ts"
import { layer as serverLayer } from "../support/TestServer.ts"
import { strangers, workspaceWithAccount } from "../jobs/support.ts"

const InvitationRows = Schema.Array(Schema.Struct({ id: Schema.String, source: Schema.String, status: Schema.String }))
const PersonRows = Schema.Array(Schema.Struct({ id: Schema.String, providerId: Schema.String }))

layer(serverLayer())("the command table's completion effects", (it) => {
  it.effect("a connect records its invitation as the service's and touches the person it names", () =>
    Effect.gen(function*() {
      const { workspaceId, accountId } = yield* workspaceWithAccount()
      const sql = yield* SqlClient.SqlClient
      const [person] = strangers(accountId, 1, "completions-connect")
      const sent = yield* (yield* NetworkDriver).write(accountId, "connect", { person })
      const stored = yield* Schema.encodeUnknownEffect(commands.connect.result)(sent)
      const job = { workspaceId, accountId, at: new Date(0).toISOString() }

      const completions = yield* JobCompletions

      const personId = yield* sql.withTransaction(completions.complete("connect", job, stored))

      const invitations = yield* sql`
        SELECT id, source, status FROM invitations WHERE account_id = ${accountId}`.pipe(
        Effect.flatMap(Schema.decodeUnknownEffect(InvitationRows))
      )
      assert.deepStrictEqual(invitations, [{ id: sent.invitationId, source: "svc", status: "pending" }])
      const people = yield* sql`
        SELECT id::text AS id, provider_id AS "providerId" FROM people WHERE workspace_id = ${workspaceId}`.pipe(
        Effect.flatMap(Schema.decodeUnknownEffect(PersonRows))
      )
      assert.deepStrictEqual(people, [{ id: personId ?? "none", providerId: sent.person.providerId }])
    }))

  it.effect("completes nothing for a command about no one person, an unknown command, or a result that is not the command's", () =>
    Effect.gen(function*() {
      const { workspaceId, accountId } = yield* workspaceWithAccount()
      const sql = yield* SqlClient.SqlClient
      const job = { workspaceId, accountId, at: new Date(0).toISOString() }
      const ssi = yield* (yield* NetworkDriver).read(accountId, "ssi", {})
      const storedSsi = yield* Schema.encodeUnknownEffect(commands.ssi.result)(ssi)
      const completions = yield* JobCompletions

      assert.isUndefined(yield* completions.complete("ssi", job, storedSsi))
      assert.isUndefined(yield* completions.complete("teleport", job, storedSsi))
      assert.isUndefined(yield* completions.complete("connect", job, storedSsi))
      const touched = yield* sql`SELECT 1 FROM people WHERE workspace_id = ${workspaceId}
        UNION ALL SELECT 1 FROM invitations WHERE account_id = ${accountId}`
      assert.strictEqual(touched.length, 0)
    }))

  it.effect("the owners' writes join the caller's transaction: an ending that fails leaves no invitation, person or spend", () =>
    Effect.gen(function*() {
      const { workspaceId, accountId } = yield* workspaceWithAccount()
      const sql = yield* SqlClient.SqlClient
      const [person] = strangers(accountId, 1, "completions-rollback")
      const sent = yield* (yield* NetworkDriver).write(accountId, "connect", { person })
      const stored = yield* Schema.encodeUnknownEffect(commands.connect.result)(sent)
      const at = new Date(0).toISOString()
      const completions = yield* JobCompletions
      const budgets = yield* Budgets

      const ending = Effect.gen(function*() {
        yield* budgets.recordSpend({ accountId, category: "invites", units: 1, jobId: null, atIso: at })
        const personId = yield* completions.complete("connect", { workspaceId, accountId, at }, stored)
        assert.isDefined(personId)
        // Inside the transaction the writes are seen, on the same connection.
        const seen = yield* sql`SELECT 1 FROM invitations WHERE account_id = ${accountId}`
        assert.strictEqual(seen.length, 1)
        return yield* Effect.fail("the ending's next step failed")
      })
      const exit = yield* Effect.exit(sql.withTransaction(ending))
      assert.isTrue(Exit.isFailure(exit))

      const left = yield* sql`SELECT 1 FROM invitations WHERE account_id = ${accountId}
        UNION ALL SELECT 1 FROM people WHERE workspace_id = ${workspaceId}
        UNION ALL SELECT 1 FROM budget_spend WHERE account_id = ${accountId}`
      assert.strictEqual(left.length, 0)
    }))
})
