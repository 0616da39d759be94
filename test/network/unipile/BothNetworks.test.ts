/**
 * Sandbox and live workspaces in one server (`network/PerWorkspace.ts`): each workspace's accounts
 * run their writes through its own network (the sandbox, or Unipile on the provider double),
 * neither reaches the other's accounts, and the sandbox's endpoints and clock answer only for
 * sandbox workspaces. A live workspace is refused at creation by a server that cannot reach real
 * seats (no Unipile settings, or the test clock), which still serves its sandbox workspaces; on the
 * test clock a live workspace's key is not served at all.
 */
import { afterAll, assert, describe, layer } from "@effect/vitest"
import { Effect, Layer, Option, Redacted, Schema } from "effect"
import { TestClock } from "effect/testing"
import * as App from "../../../src/App.ts"
import { WorkspaceTable } from "../../../src/accounts/WorkspaceTable.ts"
import { commands } from "../../../src/domain/Commands.ts"
import { PACING_MAX_MS } from "../../../src/domain/Job.ts"
import { nextOf } from "../../../src/http/ServiceErrors.ts"
import { ApiKeys } from "../../../src/keys/ApiKeys.ts"
import { Workspaces } from "../../../src/workspaces/Workspaces.ts"
import { alwaysOpen, connectedAccount, jobWhen, strangers } from "../../jobs/support.ts"
import { call, layer as serverLayer } from "../../support/TestServer.ts"
import { tomas } from "../../support/unipile/Directory.ts"
import * as LiveService from "../../support/unipile/LiveService.ts"

const apiKey = "both-networks-key"
const live = await LiveService.start(apiKey, "both-networks-webhook-secret")
const { double } = live
afterAll(() => double.close())

/** The server's settings name the double, so live workspaces may be created; the sandbox stays the default. */
const unipile = { unipileDsn: Option.some(double.dsn), unipileApiKey: Option.some(Redacted.make(apiKey)) }

/** Runs `command` as the account and waits for its job to finish. */
const run = (workspaceId: string, token: string, accountId: string, command: string, input: Record<string, unknown>) =>
  Effect.gen(function*() {
    yield* TestClock.adjust(PACING_MAX_MS)
    const job = yield* call("POST", `/v1/accounts/${accountId}/${command}`, { token, body: input })
    assert.strictEqual(job.status, 202, `${command}: ${JSON.stringify(job.body)}`)
    const id: string = job.body.job?.id ?? job.body.id
    return yield* jobWhen(workspaceId, id, (one) => one.status === "completed" || one.status === "failed")
  })

layer(serverLayer(unipile, Layer.empty, undefined, App.coreWith(App.networksWith(live.driver))), { timeout: 120_000 })(
  "a sandbox and a live workspace in one server",
  (it) => {
    it.effect("each writes through its own network; neither reaches the other's accounts; sandbox endpoints refuse the live one", () =>
      Effect.gen(function*() {
        yield* live.follow
        const workspaces = yield* Workspaces
        const sandbox = yield* workspaces.create({ name: "Integration", network: "sandbox" })
        const liveOne = yield* workspaces.create({ name: "Production", network: "live" })
        assert.strictEqual(sandbox.workspace.network, "sandbox")
        assert.strictEqual(liveOne.workspace.network, "live")
        // A person signed in to the live workspace sees its network.
        const person = yield* workspaces.createSession({ workspaceId: liveOne.workspace.id, email: "ops@acme.test", name: "Ops", role: "owner" })
        assert.strictEqual((yield* call("GET", "/v1/me", { token: person.token })).body.org.network, "live")
        // The default stays OUTREACH_NETWORK's.
        assert.strictEqual((yield* workspaces.create({ name: "Default" })).workspace.network, "sandbox")

        // The live seat signs in on the provider; the sandbox seat on the sandbox.
        const created = yield* call("POST", "/v1/accounts/connect", { token: liveOne.keyValue, body: { label: "Real seat" } })
        assert.strictEqual(created.status, 201, JSON.stringify(created.body))
        const liveAccount: string = created.body.account.id
        const signedIn = yield* call("POST", `/v1/accounts/${liveAccount}/native-auth`, {
          token: liveOne.keyValue,
          body: { username: "real-seat@x.io", password: "pw" }
        })
        assert.strictEqual(signedIn.body.status, "connected", JSON.stringify(signedIn.body))
        const seat = [...double.accounts.values()].find((one) => one.username === "real-seat@x.io")
        assert.isDefined(seat)
        const sandboxAccount = yield* connectedAccount(sandbox.keyValue)
        assert.strictEqual(double.accounts.size, 1, "the sandbox seat never reached the provider")
        const patched = yield* call("PATCH", `/v1/accounts/${liveAccount}`, {
          token: liveOne.keyValue,
          body: { mode: "autopilot", minInviteQuality: 0, workingHours: alwaysOpen }
        })
        assert.strictEqual(patched.status, 200, JSON.stringify(patched.body))

        // Each account shows its workspace's network.
        const shownLive = yield* call("GET", `/v1/accounts/${liveAccount}`, { token: liveOne.keyValue })
        assert.strictEqual(shownLive.body.account.capabilities.network, "unipile")
        assert.include(shownLive.body.account.capabilities.notSupported, "ssi")
        const shownSandbox = yield* call("GET", `/v1/accounts/${sandboxAccount}`, { token: sandbox.keyValue })
        assert.strictEqual(shownSandbox.body.account.capabilities.network, "sandbox")
        assert.deepStrictEqual(shownSandbox.body.account.capabilities.notSupported, [])

        // A write of each: the live one reaches the provider, the sandbox one never does.
        const sent = yield* run(liveOne.workspace.id, liveOne.keyValue, liveAccount, "send_message", { person: tomas.slug, text: "Hello from production" })
        assert.strictEqual(sent.status, "completed", JSON.stringify(sent.error))
        const chat = seat?.chats.find((one) => one.messages.some((message) => message.fromMe && message.text === "Hello from production"))
        assert.isDefined(chat, "the live message is on the provider")
        assert.strictEqual(Schema.decodeUnknownSync(commands.send_message.result)(sent.result).chatId, chat?.id)
        const callsBefore = double.calls.length
        const invited = yield* run(sandbox.workspace.id, sandbox.keyValue, sandboxAccount, "connect", { person: strangers(sandboxAccount, 1)[0] })
        assert.strictEqual(invited.status, "completed", JSON.stringify(invited.error))
        assert.strictEqual(double.calls.length, callsBefore, "the sandbox write made no call to the provider")

        // Neither key reaches the other workspace's account.
        assert.strictEqual((yield* call("GET", `/v1/accounts/${liveAccount}`, { token: sandbox.keyValue })).status, 404)
        assert.strictEqual((yield* call("GET", `/v1/accounts/${sandboxAccount}`, { token: liveOne.keyValue })).status, 404)
        const crossed = yield* call("POST", `/v1/accounts/${liveAccount}/get_profile`, { token: sandbox.keyValue, body: { person: tomas.slug } })
        assert.strictEqual(crossed.status, 404, JSON.stringify(crossed.body))

        // The sandbox's endpoints and its clock answer only for the sandbox workspace.
        const refusals = [
          yield* call("POST", `/v1/sandbox/accounts/${liveAccount}/events`, {
            token: liveOne.keyValue,
            body: { type: "message_received", person: tomas.slug, text: "Hi" }
          }),
          yield* call("POST", `/v1/sandbox/accounts/${liveAccount}/sync`, { token: liveOne.keyValue, body: {} }),
          yield* call("POST", `/v1/sandbox/accounts/${liveAccount}/complete-connection`, { token: liveOne.keyValue, body: {} }),
          yield* call("GET", "/v1/sandbox/clock", { token: liveOne.keyValue })
        ]
        for (const refused of refusals) {
          assert.strictEqual(refused.status, 404, JSON.stringify(refused.body))
          assert.strictEqual(refused.body.ok, false)
          assert.strictEqual(refused.body.error.type, "notFound")
          assert.include(refused.body.error.message, "only for sandbox workspaces")
          assert.include(refused.body.error.next, "--network sandbox")
        }
        const clock = yield* call("GET", "/v1/sandbox/clock", { token: sandbox.keyValue })
        assert.strictEqual(clock.status, 200, JSON.stringify(clock.body))
        // A live account named through the sandbox workspace's key is not found there either.
        const elsewhere = yield* call("POST", `/v1/sandbox/accounts/${liveAccount}/events`, {
          token: sandbox.keyValue,
          body: { type: "message_received", person: tomas.slug, text: "Hi" }
        })
        assert.strictEqual(elsewhere.status, 404, JSON.stringify(elsewhere.body))
        assert.deepStrictEqual(double.violations, [])
      }))
  }
)

/** A live workspace put in the database directly (as one created while the server had the settings), and its key. */
const liveWorkspaceInDatabase = Effect.gen(function*() {
  const workspace = yield* (yield* WorkspaceTable).insert({
    id: crypto.randomUUID(),
    name: "Live elsewhere",
    seatsTotal: 5,
    network: "live",
    nowIso: new Date().toISOString()
  })
  const key = yield* (yield* ApiKeys).create({ workspaceId: workspace.id, name: "Owner key" })
  return key.value
}).pipe(Effect.provide(WorkspaceTable.layer))

describe("a server that cannot reach real seats", () => {
  layer(serverLayer({}), { timeout: 60_000 })("without UNIPILE_DSN and UNIPILE_API_KEY", (it) => {
    it.effect("refuses to create a live workspace, serves its sandbox ones, and refuses a live workspace's seat", () =>
      Effect.gen(function*() {
        const workspaces = yield* Workspaces
        const refused = yield* Effect.flip(workspaces.create({ name: "Live", network: "live" }))
        assert.strictEqual(refused._tag, "Invalid")
        assert.include(refused.message, "needs UNIPILE_DSN and UNIPILE_API_KEY")
        assert.include(nextOf(refused.advice), "--network sandbox")
        assert.lengthOf((yield* workspaces.list).filter((one) => one.name === "Live"), 0)

        const sandbox = yield* workspaces.create({ name: "Sandbox" })
        yield* connectedAccount(sandbox.keyValue)

        const token = yield* liveWorkspaceInDatabase
        const connect = yield* call("POST", "/v1/accounts/connect", { token, body: { label: "Real seat" } })
        assert.strictEqual(connect.status, 422, JSON.stringify(connect.body))
        assert.strictEqual(connect.body.ok, false)
        assert.include(connect.body.error.message, "this server cannot reach real seats")
        assert.include(connect.body.error.next, "UNIPILE_DSN")
        const webhook = yield* call("POST", "/webhooks/unipile", { body: {} })
        assert.strictEqual(webhook.status, 404)
      }))
  })

  layer(serverLayer({ ...unipile, clock: "test" }), { timeout: 60_000 })("on the test clock", (it) => {
    it.effect("refuses to create or serve a live workspace, even with the Unipile settings", () =>
      Effect.gen(function*() {
        const refused = yield* Effect.flip((yield* Workspaces).create({ name: "Live", network: "live" }))
        assert.include(refused.message, "cannot run on OUTREACH_CLOCK=test")
        // A live workspace's key is not served at all; a sandbox workspace's is.
        const token = yield* liveWorkspaceInDatabase
        for (const [method, path] of [["GET", "/v1/me"], ["GET", "/v1/accounts"], ["POST", "/v1/accounts/connect"], ["GET", "/v1/sandbox/clock"]] as const) {
          const refusedHere = yield* call(method, path, { token, body: method === "POST" ? {} : undefined })
          assert.strictEqual(refusedHere.status, 401, `${path}: ${JSON.stringify(refusedHere.body)}`)
          assert.strictEqual(refusedHere.body.error.type, "unauthorized")
          assert.include(refusedHere.body.error.message, "serves no live workspace")
          assert.include(refusedHere.body.error.next, "system clock")
        }
        const sandbox = yield* (yield* Workspaces).create({ name: "Sandbox" })
        assert.strictEqual((yield* call("GET", "/v1/sandbox/clock", { token: sandbox.keyValue })).status, 200)
        assert.strictEqual((yield* call("GET", "/v1/accounts", { token: sandbox.keyValue })).status, 200)
      }))
  })
})
