/**
 * What an account's network can run, used before any job (issue #30): on the Unipile driver (the
 * provider double), an assistant's `get_account` shows the account's `capabilities`; a command
 * tool its network cannot run answers at once the `notSupported` error its job would fail with,
 * and makes no job, while one it can run goes in as before; and the dashboard's seat page names
 * the commands the seat cannot run.
 */
import { afterAll, assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { assistant, callTool } from "../../support/Assistant.ts"
import { cookie, ownerSession } from "../../support/Teammates.ts"
import { call, layer as serverLayer } from "../../support/TestServer.ts"
import { maria, tomas } from "../../support/unipile/Directory.ts"
import * as LiveService from "../../support/unipile/LiveService.ts"

const live = await LiveService.start("capabilities-key", "capabilities-webhook-secret")
afterAll(() => live.double.close())

const notSupported = ["profile_viewers", "ssi", "endorse", "save_lead"]

layer(serverLayer({}, Layer.empty, undefined, live.core), { timeout: 60_000 })("an account's capabilities, used before any job", (it) => {
  it.effect("assistants see them and are refused at once what the network cannot run; the seat page names it", () =>
    Effect.gen(function*() {
      yield* live.follow
      const { key, token } = yield* ownerSession
      const created = yield* call("POST", "/v1/accounts/connect", { token: key, body: { label: "Live seat" } })
      assert.strictEqual(created.status, 201, JSON.stringify(created.body))
      const accountId: string = created.body.account.id
      const signedIn = yield* call("POST", `/v1/accounts/${accountId}/native-auth`, { token: key, body: { username: "capable@x.io", password: "pw" } })
      assert.strictEqual(signedIn.body.status, "connected", JSON.stringify(signedIn.body))

      const client = yield* assistant(key)
      const shown = yield* callTool(client, "get_account", { accountId })
      assert.isFalse(shown.isError, JSON.stringify(shown.body))
      assert.strictEqual(shown.body.account.capabilities.network, "unipile")
      assert.deepStrictEqual(shown.body.account.capabilities.notSupported, notSupported)
      assert.include(shown.body.account.capabilities.commands, "get_profile")

      // Refused at once, naming the command and the network, with no job made.
      for (const [command, input] of [["ssi", {}], ["endorse", { person: tomas.slug, skill: "Logistics" }]] as const) {
        const refused = yield* callTool(client, command, { accountId, input })
        assert.isTrue(refused.isError, command)
        assert.deepStrictEqual(refused.body.error, {
          type: "notSupported",
          message: `The unipile network does not support ${command}.`,
          next: "Use a command this network supports (the account's `capabilities`), or another driver."
        })
      }
      const jobs = yield* call("GET", `/v1/jobs?account=${accountId}`, { token: key })
      assert.deepStrictEqual(jobs.body.jobs, [])
      // What the network runs goes in as before; an account not in the workspace is still not found.
      const read = yield* callTool(client, "get_profile", { accountId, input: { person: maria.slug } })
      assert.isFalse(read.isError, JSON.stringify(read.body))
      assert.strictEqual(read.body.job.kind, "get_profile")
      const unknown = yield* callTool(client, "ssi", { accountId: crypto.randomUUID(), input: {} })
      assert.strictEqual(unknown.body.error.type, "notFound")

      // The seat page says what the seat cannot run.
      const page = yield* call("GET", "/dashboard/seats", { headers: cookie(token) })
      assert.strictEqual(page.status, 200)
      assert.include(String(page.body), `unipile; cannot run ${notSupported.join(", ")}`)
      assert.deepStrictEqual(live.double.violations, [])
    }))
})
