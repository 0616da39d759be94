/**
 * The provider double answers every call the SDK makes with a body the SDK's own validator for
 * that call accepts (the client validates at level `error`, and the double judges each answer
 * itself), and behaves as Unipile documents: checkpoints, cursors, errors with their status and
 * type, the rate limit, hosted links with their callback, webhooks with their headers.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, assert, describe, it } from "@effect/vitest"
import { UnipileClient, UnsuccessfulRequestError, untypedYetValidator } from "unipile-node-sdk"
import { maria, posts, tomas } from "../../support/unipile/Directory.ts"
import * as ProviderDouble from "../../support/unipile/ProviderDouble.ts"

const apiKey = "double-key"
const opened: Array<ProviderDouble.ProviderDouble> = []
afterEach(async () => {
  for (const double of opened.splice(0)) await double.close()
})

const open = async (options: Partial<ProviderDouble.Options> = {}) => {
  const double = await ProviderDouble.start({ apiKey, ...options })
  opened.push(double)
  const client = new UnipileClient(double.dsn, apiKey, { validateRequestPayload: true, validateRequestPayloadLevel: "error" })
  return { double, client }
}

/** The body of the provider's refusal, or fails the test. */
const refusal = async (call: Promise<unknown>) => {
  try {
    await call
  } catch (error) {
    if (error instanceof UnsuccessfulRequestError) return error.body
    throw error
  }
  throw new Error("the call succeeded")
}

describe("the Unipile provider double", () => {
  it("answers every SDK call with what the SDK's validators accept", async () => {
    // The client does not validate here, so every refused answer is listed, not only the first.
    const { double } = await open()
    const client = new UnipileClient(double.dsn, apiKey)
    const created = await client.account.connectLinkedin({ username: "rep-sales@example.com", password: "secret" })
    assert.strictEqual(created.object, "AccountCreated")
    const account_id = created.account_id
    await client.account.getAll()
    await client.account.getOne(account_id)
    const me = await client.users.getOwnProfile(account_id)
    await client.users.getProfile({ account_id, identifier: maria.slug })
    await client.users.getProfile({ account_id, identifier: "provider_id" in me ? me.provider_id : "" })
    await client.users.getAllRelations({ account_id })
    const invitation = await client.users.sendInvitation({ account_id, provider_id: maria.providerId, message: "Hi María" })
    await client.users.getAllInvitationsSent({ account_id })
    await client.users.cancelInvitationSent({ account_id, invitation_id: invitation.invitation_id })
    await client.users.getAllPosts({ account_id, identifier: maria.slug })
    await client.users.getPost({ account_id, post_id: posts[0].id })
    await client.users.sendPostComment({ account_id, post_id: posts[0].id, text: "Well put." })
    await client.users.getAllPostComments({ account_id, post_id: posts[0].id })
    await client.users.sendPostReaction({ account_id, post_id: posts[0].id, reaction_type: "insightful" })
    await client.users.createPost({ account_id, text: "Three questions for every deal review. #sales" })
    await client.users.getCompanyProfile({ account_id, identifier: "harborview-analytics" })
    const started = await client.messaging.startNewChat({ account_id, attendees_ids: [tomas.providerId], text: "Hello Tomás" })
    const chatId = started.chat_id ?? ""
    await client.messaging.sendMessage({ chat_id: chatId, text: "One more thing" })
    await client.messaging.getAllChats({ account_id })
    await client.messaging.getChat(chatId)
    await client.messaging.getAllMessagesFromChat({ chat_id: chatId })
    await client.messaging.getAllAttendeesFromChat(chatId)
    await client.messaging.getAllMessages({ account_id })
    await client.webhook.create({ request_url: "http://127.0.0.1:1/hook", source: "messaging", name: "messages" })
    await client.account.createHostedAuthLink({
      type: "create",
      providers: ["LINKEDIN"],
      api_url: double.dsn,
      expiresOn: "2030-01-01T00:00:00.000Z",
      name: "service-account-1"
    })
    await client.account.delete(account_id)
    assert.deepStrictEqual(double.violations, [])
    assert.isAbove(new Set(double.calls.map((call) => call.route)).size, 25)
  })

  it("judges its own answers: a body the validator refuses is a violation", async () => {
    const { judge } = await import("../../support/unipile/Conformance.ts")
    assert.isUndefined(judge("users.invite", { object: "UserInvitationSent", invitation_id: "7" }))
    assert.deepStrictEqual(judge("users.invite", { object: "UserInvitationSent" })?.route, "users.invite")
  })

  it("stops at each checkpoint kind and passes it with the right code, or in the app", async () => {
    const { client, double } = await open()
    for (const [username, type] of [["rep-2fa@x.io", "2FA"], ["rep-otp@x.io", "OTP"], ["rep-captcha@x.io", "CAPTCHA"]] as const) {
      const step = await client.account.connectLinkedin({ username, password: "secret" })
      assert.strictEqual(step.object, "Checkpoint")
      assert.strictEqual(step.object === "Checkpoint" ? step.checkpoint.type : undefined, type)
      const wrong = await refusal(client.account.solveCodeCheckpoint({ provider: "LINKEDIN", account_id: step.account_id, code: "123" }))
      assert.deepInclude(wrong, { status: 400, type: "errors/invalid_checkpoint_solution" })
      const passed = await client.account.solveCodeCheckpoint({ provider: "LINKEDIN", account_id: step.account_id, code: "000000" })
      assert.strictEqual(passed.object, "AccountCreated")
    }
    const app = await client.account.connectLinkedin({ username: "rep-app@x.io", password: "secret" })
    const waiting = await client.account.solveCodeCheckpoint({ provider: "LINKEDIN", account_id: app.account_id, code: "" })
    assert.strictEqual(waiting.object, "Checkpoint")
    double.approveInApp(app.account_id)
    const approved = await client.account.solveCodeCheckpoint({ provider: "LINKEDIN", account_id: app.account_id, code: "" })
    assert.strictEqual(approved.object, "AccountCreated")
    const bad = await refusal(client.account.connectLinkedin({ username: "rep@x.io", password: "wrong" }))
    assert.deepInclude(bad, { status: 401, type: "errors/invalid_credentials" })
    assert.deepStrictEqual(double.violations, [])
  })

  it("pages with opaque cursors and refuses a cursor it did not give", async () => {
    const { client, double } = await open()
    const { account_id } = await client.account.connectLinkedin({ username: "pager@x.io", password: "p" })
    for (let i = 0; i < 3; i++) double.receiveMessage(account_id, [maria, tomas][i % 2].providerId, `m${i}`)
    const first = await client.messaging.getAllMessages({ account_id, limit: 2 })
    assert.strictEqual(first.items.length, 2)
    assert.isString(first.cursor)
    const second = await client.messaging.getAllMessages({ account_id, limit: 2, cursor: String(first.cursor) })
    assert.strictEqual(second.items.length, 1)
    assert.isNull(second.cursor)
    const bad = await refusal(client.messaging.getAllMessages({ account_id, cursor: "not-a-cursor" }))
    assert.deepInclude(bad, { status: 400, type: "errors/invalid_parameters" })
    assert.deepStrictEqual(double.violations, [])
  })

  it("refuses as LinkedIn does: already invited, cannot resend yet, not connected, no InMail, unknown key", async () => {
    const { client, double } = await open()
    const { account_id } = await client.account.connectLinkedin({ username: "free@x.io", password: "p" })
    const sent = await client.users.sendInvitation({ account_id, provider_id: maria.providerId })
    assert.deepInclude(await refusal(client.users.sendInvitation({ account_id, provider_id: maria.providerId })), {
      status: 422,
      type: "errors/already_invited_recently"
    })
    await client.users.cancelInvitationSent({ account_id, invitation_id: sent.invitation_id })
    assert.deepInclude(await refusal(client.users.sendInvitation({ account_id, provider_id: maria.providerId })), {
      status: 422,
      type: "errors/cannot_resend_yet"
    })
    assert.deepInclude(await refusal(client.messaging.startNewChat({ account_id, attendees_ids: [maria.providerId], text: "hi" })), {
      status: 422,
      type: "errors/no_connection_with_recipient"
    })
    assert.deepInclude(
      await refusal(client.messaging.startNewChat({ account_id, attendees_ids: [maria.providerId], text: "hi", options: { linkedin: { api: "classic", inmail: true } } })),
      { status: 422, type: "errors/not_allowed_inmail" }
    )
    const stranger = new UnipileClient(double.dsn, "other-key")
    assert.deepInclude(await refusal(stranger.account.getAll()), { status: 401, type: "errors/missing_credentials" })
    double.setStatus(account_id, "CREDENTIALS")
    assert.deepInclude(await refusal(client.users.getOwnProfile(account_id)), { status: 401, type: "errors/disconnected_account" })
  })

  it("answers 429 past its rate limit, and injected faults: an error, or a reply lost after the work", async () => {
    const { client, double } = await open({ rateLimit: { limit: 3, windowMs: 60_000 } })
    await client.account.getAll()
    await client.account.getAll()
    await client.account.getAll()
    assert.deepInclude(await refusal(client.account.getAll()), { status: 429, type: "errors/too_many_requests" })
    const other = await open()
    const { account_id } = await other.client.account.connectLinkedin({ username: "x@x.io", password: "p" })
    other.double.inject("users.invite", { kind: "error", status: 503, type: "service_unavailable" })
    assert.deepInclude(await refusal(other.client.users.sendInvitation({ account_id, provider_id: maria.providerId })), { status: 503 })
    other.double.inject("users.invite", { kind: "lostReply" })
    let lost = false
    await other.client.users.sendInvitation({ account_id, provider_id: maria.providerId }).catch(() => {
      lost = true
    })
    assert.isTrue(lost)
    const pending = await other.client.users.getAllInvitationsSent({ account_id })
    assert.deepStrictEqual(pending.items.map((item) => item.invited_user_id), [maria.providerId])
    void double
  })

  it("calls a hosted link's notify_url and sends webhooks with the headers they were registered with", async () => {
    const received: Array<{ readonly path: string; readonly secret: string | undefined; readonly body: unknown }> = []
    const receiver = createServer((request, response) => {
      let text = ""
      request.on("data", (chunk) => (text += String(chunk)))
      request.on("end", () => {
        const secret = request.headers["x-unipile-secret"]
        received.push({ path: request.url ?? "", secret: typeof secret === "string" ? secret : undefined, body: JSON.parse(text) })
        response.end("ok")
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
    const address: AddressInfo | string | null = receiver.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    try {
      const { client, double } = await open()
      const link = await client.account.createHostedAuthLink({
        type: "create",
        providers: ["LINKEDIN"],
        api_url: double.dsn,
        expiresOn: "2030-01-01T00:00:00.000Z",
        name: "our-account",
        notify_url: `http://127.0.0.1:${port}/notify`
      })
      const done = await double.completeHostedLink(link.url, "hosted@x.io")
      assert.strictEqual(done.notified, 200)
      assert.deepStrictEqual(received[0], {
        path: "/notify",
        secret: undefined,
        body: { status: "CREATION_SUCCESS", account_id: done.accountId, name: "our-account" }
      })
      // The SDK's `webhook.create` does not know the `users` source Unipile documents: the REST call.
      await client.request.send<unknown>({
        method: "POST",
        path: ["webhooks"],
        headers: { "Content-Type": "application/json" },
        body: {
          request_url: `http://127.0.0.1:${port}/hook`,
          source: "users",
          name: "relations",
          headers: [{ key: "X-Unipile-Secret", value: "s3cret" }]
        },
        validator: untypedYetValidator
      })
      assert.deepStrictEqual(await double.emit("users", { event: "new_relation", account_id: done.accountId }), [200])
      assert.deepInclude(received[1], { path: "/hook", secret: "s3cret" })
      assert.deepStrictEqual(double.violations, [])
    } finally {
      receiver.close()
    }
  })
})
