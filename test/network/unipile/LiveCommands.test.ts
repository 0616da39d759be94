/**
 * The whole service on the Unipile driver, against the provider double: a seat signs in through
 * native-auth (the provider's checkpoint API), shows beforehand which commands its network runs
 * (`capabilities`), and runs all 21 commands as jobs through the Governor: the supported ones
 * complete with results mapped from the provider's answers, the others fail `notSupported`.
 */
import { afterAll, assert, layer } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { TestClock } from "effect/testing"
import { commandNames, commands, isWriteCommand } from "../../../src/domain/Commands.ts"
import { PACING_MAX_MS } from "../../../src/domain/Job.ts"
import { alwaysOpen, DAY, jobWhen } from "../../jobs/support.ts"
import { call, layer as serverLayer, newWorkspace } from "../../support/TestServer.ts"
import { maria, posts, tomas } from "../../support/unipile/Directory.ts"
import * as LiveService from "../../support/unipile/LiveService.ts"

const apiKey = "live-e2e-key"
const live = await LiveService.start(apiKey, "live-e2e-webhook-secret")
const { core, double } = live
afterAll(() => double.close())


layer(serverLayer({}, Layer.empty, undefined, core), { timeout: 120_000 })("a live workspace on the Unipile double", (it) => {
  it.effect("runs all 21 commands through the Governor: supported ones complete, the others fail notSupported as listed beforehand", () =>
    Effect.gen(function*() {
      yield* live.follow
      const { keyValue: token, workspace } = yield* newWorkspace()
      const created = yield* call("POST", "/v1/accounts/connect", { token, body: { label: "Live seat" } })
      assert.strictEqual(created.status, 201, JSON.stringify(created.body))
      const accountId: string = created.body.account.id
      const signIn = yield* call("POST", `/v1/accounts/${accountId}/native-auth`, { token, body: { username: "premium-2fa@x.io", password: "pw" } })
      assert.strictEqual(signIn.body.status, "checkpoint", JSON.stringify(signIn.body))
      assert.strictEqual(signIn.body.checkpoint.type, "2fa")
      const passed = yield* call("POST", `/v1/accounts/${accountId}/native-checkpoint`, { token, body: { code: "000000" } })
      assert.strictEqual(passed.body.status, "connected", JSON.stringify(passed.body))
      assert.strictEqual(passed.body.account.tier, "premium")
      assert.strictEqual(passed.body.account.connections, 1)
      yield* TestClock.adjust(14 * DAY)
      const patched = yield* call("PATCH", `/v1/accounts/${accountId}`, {
        token,
        body: { mode: "autopilot", minInviteQuality: 0, workingHours: alwaysOpen }
      })
      assert.strictEqual(patched.status, 200, JSON.stringify(patched.body))

      // Shown beforehand.
      const shown = yield* call("GET", `/v1/accounts/${accountId}`, { token })
      const notSupported = ["profile_viewers", "ssi", "endorse", "save_lead"]
      assert.deepStrictEqual(shown.body.account.capabilities, {
        network: "unipile",
        commands: commandNames.filter((command) => !notSupported.includes(command)),
        notSupported
      })

      const run = (command: string, input: Record<string, unknown>) =>
        Effect.gen(function*() {
          // Past the Governor's pacing gap since the previous write.
          if (isWriteCommand(command)) yield* TestClock.adjust(PACING_MAX_MS)
          const job = yield* call("POST", `/v1/accounts/${accountId}/${command}`, { token, body: input })
          assert.strictEqual(job.status, 202, `${command}: ${JSON.stringify(job.body)}`)
          const id: string = job.body.job?.id ?? job.body.id
          const done = yield* jobWhen(workspace.id, id, (one) => one.status === "completed" || one.status === "failed")
          return done
        })
      const completed = (command: string, input: Record<string, unknown>) =>
        Effect.map(run(command, input), (job) => {
          assert.strictEqual(job.status, "completed", `${command}: ${JSON.stringify(job.error)}`)
          return job.result
        })

      const results: Record<string, unknown> = {}
      results.get_profile = yield* completed("get_profile", { person: maria.slug })
      results.get_company = yield* completed("get_company", { company: "harborview-analytics" })
      results.search_people = yield* completed("search_people", { keywords: "harborview" })
      results.search_companies = yield* completed("search_companies", { keywords: "analytics" })
      results.get_posts = yield* completed("get_posts", { person: maria.slug })
      results.get_post = yield* completed("get_post", { post: `urn:li:activity:${posts[0].id}` })
      const invites = Schema.decodeUnknownSync(commands.list_invites.result)(yield* completed("list_invites", {}))
      const connected = Schema.decodeUnknownSync(commands.connect.result)(yield* completed("connect", { person: maria.slug, note: "Hi María" }))
      results.withdraw_invite = yield* completed("withdraw_invite", { invitationId: connected.invitationId })
      const message = Schema.decodeUnknownSync(commands.send_message.result)(yield* completed("send_message", { person: tomas.slug, text: "Hello Tomás" }))
      results.list_chats = yield* completed("list_chats", {})
      results.get_conversation = yield* completed("get_conversation", { chatId: message.chatId })
      results.accept_invite = yield* completed("accept_invite", { invitationId: invites.items[0].id })
      results.decline_invite = yield* completed("decline_invite", { invitationId: invites.items[1].id })
      results.react = yield* completed("react", { post: posts[0].id, reaction: "celebrate" })
      results.comment = yield* completed("comment", { post: posts[0].id, text: "Well put." })
      results.create_post = yield* completed("create_post", { text: "Three questions for every deal review. #sales" })
      for (const [command, input] of [["profile_viewers", {}], ["ssi", {}], ["endorse", { person: tomas.slug, skill: "Logistics" }], ["save_lead", { person: maria.slug }]] as const) {
        const job = yield* run(command, input)
        assert.strictEqual(job.status, "failed", command)
        assert.deepInclude(job.error, { type: "notSupported", message: `The unipile network does not support ${command}.` })
      }

      assert.deepInclude(results.get_profile, { providerId: maria.providerId, name: "María García" })
      assert.deepInclude(results.get_company, { slug: "harborview-analytics", followers: 18450 })
      assert.deepInclude(connected, { status: "pending", note: "Hi María" })
      assert.deepInclude(results.withdraw_invite, { invitationId: connected.invitationId, providerId: maria.providerId })
      assert.deepInclude(message, { recipientProviderId: tomas.providerId, text: "Hello Tomás" })
      assert.deepInclude(results.accept_invite, { answer: "accepted" })
      assert.deepInclude(results.decline_invite, { answer: "declined" })
      assert.deepInclude(results.react, { reaction: "celebrate" })
      assert.deepInclude(results.comment, { text: "Well put." })
      const seat = [...double.accounts.values()].find((one) => one.name === "premium-2fa@x.io")
      assert.deepStrictEqual(seat?.posts.map((one) => one.text), ["Three questions for every deal review. #sales"])
      assert.deepStrictEqual(double.violations, [])
    }))
})
