/**
 * The real processes, as an operator runs them: `npm start` (src/main.ts) and
 * `npm run cli` (src/cli.ts), on the backend the tests run on.
 */
import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import { cli, get, keyIn, send, startServer, stop, storage } from "../support/Processes.ts"
import { backend, serverDatabaseUrl } from "../support/TestDatabase.ts"

it.live(`first start prints a key once; SIGTERM exits cleanly; a restart loses nothing (${backend})`, () =>
  Effect.gen(function*() {
    const env = yield* storage
    const first = yield* startServer(env)
    const key = keyIn(first.output())
    assert.isDefined(key, first.output())
    assert.strictEqual((yield* get(`${first.base}/healthz`)).status, 200)
    const me = yield* get(`${first.base}/v1/me`, key)
    assert.strictEqual(me.status, 200)
    const created = yield* send("POST", `${first.base}/v1/accounts/connect`, key, { label: "Ada", timezone: "Europe/Berlin" })
    const accountId = created.body.account.id
    yield* send("POST", `${first.base}/v1/accounts/${accountId}/native-auth`, key, { username: "ada", password: "pw" })
    yield* send("PATCH", `${first.base}/v1/accounts/${accountId}`, key, { mode: "autopilot", minInviteQuality: 55 })
    yield* send("POST", `${first.base}/v1/accounts/${accountId}/pause`, key)
    const before = yield* get(`${first.base}/v1/accounts/${accountId}`, key)
    assert.strictEqual(before.body.account.status, "paused")
    assert.strictEqual(yield* stop(first), 0)

    const second = yield* startServer(env)
    assert.isUndefined(keyIn(second.output()), "a key was printed again")
    const again = yield* get(`${second.base}/v1/me`, key)
    assert.strictEqual(again.status, 200)
    assert.strictEqual(again.body["orgId"], me.body["orgId"])
    const after = yield* get(`${second.base}/v1/accounts/${accountId}`, key)
    // Reads go on while an account is paused: during working hours an inbox sync may spend a list
    // poll across the restart, so only that budget may have gone down; everything else is as it was.
    const { budgets: { list_polls: pollsAfter, ...budgetsAfter }, ...accountAfter } = after.body.account
    const { budgets: { list_polls: pollsBefore, ...budgetsBefore }, ...accountBefore } = before.body.account
    assert.deepStrictEqual({ ...accountAfter, budgets: budgetsAfter }, { ...accountBefore, budgets: budgetsBefore })
    assert.isAtMost(pollsAfter.today, pollsBefore.today)
    const resumed = yield* send("POST", `${second.base}/v1/accounts/${accountId}/resume`, key)
    assert.strictEqual(resumed.body.account.status, "warming")
    assert.strictEqual(yield* stop(second), 0)
  }), { timeout: 180_000 })

it.live(`the bootstrap key makes sure its workspace exists, idempotently (${backend})`, () =>
  Effect.gen(function*() {
    const env = yield* storage
    const bootstrapKey = "svc_" + "A".repeat(43)
    const first = yield* startServer({ ...env, OUTREACH_BOOTSTRAP_KEY: bootstrapKey })
    assert.isUndefined(keyIn(first.output()))
    const me = yield* get(`${first.base}/v1/me`, bootstrapKey)
    assert.strictEqual(me.status, 200)
    assert.strictEqual(yield* stop(first), 0)
    const second = yield* startServer({ ...env, OUTREACH_BOOTSTRAP_KEY: bootstrapKey })
    const again = yield* get(`${second.base}/v1/me`, bootstrapKey)
    assert.strictEqual(again.body["orgId"], me.body["orgId"])
    assert.strictEqual(yield* stop(second), 0)
  }), { timeout: 180_000 })

it.live(`the operator CLI creates, lists and changes workspaces (${backend})`, () =>
  Effect.gen(function*() {
    const env = yield* storage
    const created = yield* cli(["workspace", "create", "--name", "Acme", "--seats", "3"], env)
    assert.strictEqual(created.code, 0, created.output)
    const key = keyIn(created.output)
    assert.isDefined(key, created.output)
    const id = /workspace ([0-9a-f-]{36})/.exec(created.output)?.[1]
    assert.isDefined(id)

    const seats = yield* cli(["workspace", "seats", id!, "7"], env)
    assert.strictEqual(seats.code, 0, seats.output)
    const listed = yield* cli(["workspace", "list"], env)
    assert.include(listed.output, id!)
    assert.match(listed.output, /seats\s+7\s+Acme/)

    const unknown = yield* cli(["workspace", "seats", crypto.randomUUID(), "2"], env)
    assert.notStrictEqual(unknown.code, 0)

    const server = yield* startServer(env)
    const live = yield* cli(["workspace", "create", "--name", "Live"], env)
    if (serverDatabaseUrl !== undefined) {
      // On PostgreSQL the CLI works while the server runs.
      assert.strictEqual(live.code, 0, live.output)
      const me = yield* get(`${server.base}/v1/me`, keyIn(live.output))
      assert.strictEqual(me.status, 200)
    } else {
      // The embedded database is one process's at a time: the CLI refuses, clearly, and nothing breaks.
      assert.notStrictEqual(live.code, 0)
      assert.include(live.output, "in use by process")
      assert.strictEqual((yield* get(`${server.base}/healthz`)).status, 200)
    }
    assert.strictEqual(yield* stop(server), 0)
  }), { timeout: 180_000 })
