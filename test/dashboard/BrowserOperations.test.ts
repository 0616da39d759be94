/**
 * The dashboard's operations in a real browser (Debian's chromium through
 * playwright-core), against the real service on a port (issue #32): changing
 * your password; an owner's password reset link, used by the teammate in
 * their own browser; a webhook's test event with the payload and the response
 * it got; a workflow and an automation paused, resumed and stopped from their
 * pages, then seen in the activity log. Times show in the browser's own zone
 * (Europe/Berlin here). Every page is saved as a screenshot under
 * .ci/results/screenshots.
 */
import { afterAll, assert, layer } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { HttpServer } from "effect/http"
import { TestClock } from "effect/testing"
import type { Page } from "playwright-core"
import { Team } from "../../src/team/Team.ts"
import { closeAll, open, screenshot } from "../support/Browser.ts"
import { call, layer as serverLayer, newWorkspace } from "../support/TestServer.ts"
import { connectedAccount, strangers } from "../jobs/support.ts"
import { receiver } from "../webhooks/support.ts"
import { quietConnections, workflowUntil } from "../workflows/support.ts"

const password = "correct horse battery staple"
const zone = "Europe/Berlin"

const promise = <A>(run: () => Promise<A>) => Effect.promise(run)

const baseUrl = Effect.gen(function*() {
  const address = (yield* HttpServer.HttpServer).address
  if (address._tag === "UnixPathAddress") return yield* Effect.die(new Error("no TCP address"))
  return `http://127.0.0.1:${address.port}`
})

const signIn = async (page: Page, base: string, email: string, secret = password) => {
  await page.goto(`${base}/dashboard/sign-in`)
  await page.getByLabel("Email").fill(email)
  await page.getByLabel("Password").fill(secret)
  await page.getByRole("button", { name: "Sign in" }).click()
  await page.waitForLoadState("load")
}

/**
 * A workspace with a seat in approve mode (connecting it moves the test clock past its warm-up, so
 * people sign in afterwards), an owner who signs in with a password, and a member.
 */
const setUp = Effect.gen(function*() {
  // A day of this century, so the pages' dates read as they would.
  if ((yield* Clock.currentTimeMillis) < Date.parse("2026-11-27T08:00:00Z")) yield* TestClock.setTime(Date.parse("2026-11-27T08:00:00Z"))
  const { keyValue: key, workspace } = yield* newWorkspace()
  const accountId = yield* connectedAccount(key, { mode: "approve", label: "Ada (sales)" })
  const team = yield* Team
  const email = `owner-${crypto.randomUUID().slice(0, 8)}@acme.test`
  const { userId } = yield* team.createOwner({ workspaceId: workspace.id, email, name: "Olivia Owner", password })
  const owner = { id: userId, email, name: "Olivia Owner", role: "owner" as const, workspaceId: workspace.id }
  const memberEmail = `mia-${crypto.randomUUID().slice(0, 8)}@acme.test`
  const { link } = yield* team.invite(owner, { email: memberEmail, role: "member", baseUrl: "http://x" })
  yield* team.accept(link.split("/").pop() ?? "", { name: "Mia Member", password })
  return { key, accountId, email, memberEmail, base: yield* baseUrl }
})

layer(serverLayer({ allowPrivateWebhooks: true }))("the dashboard's operations in a browser", (it) => {
  afterAll(closeAll)
  it.effect("a person changes their password; an owner makes a teammate a reset link, on which they set a new one and their sessions end", () =>
    Effect.gen(function*() {
      const { base, email, memberEmail } = yield* setUp
      const ownerBrowser = yield* promise(() => open({ timezoneId: zone }))
      const page = yield* promise(() => ownerBrowser.newPage())
      const changed = "a brand new passphrase for olivia"
      yield* promise(async () => {
        await signIn(page, base, email)
        await page.getByRole("link", { name: "Security" }).click()
        await page.getByLabel("Current password").fill("not my password")
        await page.getByLabel("New password (12 to 256 characters)").fill(changed)
        await page.getByLabel("New password again").fill(changed)
        await page.getByRole("button", { name: "Change password" }).click()
        assert.include(await page.locator("[role=alert]").innerText(), "Your current password is not right. 4 attempts left")
        await page.getByLabel("Current password").fill(password)
        await page.getByLabel("New password (12 to 256 characters)").fill(changed)
        await page.getByLabel("New password again").fill(changed)
        await page.getByRole("button", { name: "Change password" }).click()
        assert.include(await page.locator("[role=status]").innerText(), "Your password is changed")
        await screenshot(page, "password-changed")
        // The new password signs in; the old one no longer.
        await page.getByRole("button", { name: "Sign out" }).first().click()
        await signIn(page, base, email)
        assert.include(await page.locator("[role=alert]").innerText(), "Wrong email or password")
        await signIn(page, base, email, changed)
        assert.strictEqual(await page.locator("h1").innerText(), "Needs attention")
      })
      // The member is signed in on their laptop; they forgot the password there.
      const memberBrowser = yield* promise(() => open({ timezoneId: zone }))
      const laptop = yield* promise(() => memberBrowser.newPage())
      yield* promise(() => signIn(laptop, base, memberEmail))
      const link = yield* promise(async () => {
        await page.getByRole("link", { name: "Team" }).click()
        await page.getByRole("button", { name: "Make a password reset link for Mia Member" }).click()
        assert.include(await page.locator("#reset-title").innerText(), "Password reset link for Mia Member")
        assert.include(await page.locator("main").innerText(), "The service cannot send email: copy this link")
        await screenshot(page, "password-reset-link")
        return await page.locator("#reset-link").innerText()
      })
      assert.match(link, /\/dashboard\/password-reset\/sess_/)
      const phone = yield* promise(() => open({ timezoneId: zone }))
      const fresh = yield* promise(() => phone.newPage())
      const renewed = "mias renewed long passphrase"
      yield* promise(async () => {
        await fresh.goto(link)
        assert.strictEqual(await fresh.locator("h1").innerText(), "Choose a new password")
        assert.include(await fresh.locator("main").innerText(), memberEmail)
        await fresh.getByLabel("New password", { exact: true }).fill(renewed)
        await fresh.getByLabel("The same password again").fill("something else entirely")
        await fresh.getByRole("button", { name: "Set the new password" }).click()
        assert.include(await fresh.locator("[role=alert]").innerText(), "The two passwords differ")
        await screenshot(fresh, "password-reset-form")
        await fresh.getByLabel("New password", { exact: true }).fill(renewed)
        await fresh.getByLabel("The same password again").fill(renewed)
        await fresh.getByRole("button", { name: "Set the new password" }).click()
        await fresh.waitForURL(/\/dashboard\/sign-in\?notice=password-reset/)
        assert.include(await fresh.locator("[role=status]").innerText(), "Your new password is set")
        await fresh.getByLabel("Email").fill(memberEmail)
        await fresh.getByLabel("Password").fill(renewed)
        await fresh.getByRole("button", { name: "Sign in" }).click()
        await fresh.waitForURL(`${base}/dashboard`)
        assert.include(await fresh.locator(".who").innerText(), "Mia Member (member)")
        // The laptop's session ended with the reset.
        await laptop.goto(`${base}/dashboard/approvals`)
        assert.match(laptop.url(), /\/dashboard\/sign-in/)
        // The link worked once.
        const again = await fresh.goto(link)
        assert.strictEqual(again?.status(), 410)
        assert.include(await fresh.locator("main").innerText(), "already used")
        await screenshot(fresh, "password-reset-used")
        // The owner sees both steps in the activity log.
        await page.getByRole("link", { name: "Activity" }).click()
        const log = await page.locator("table.activity").innerText()
        assert.include(log, "made a password reset link for Mia Member")
        assert.include(log, "Mia Member")
        assert.include(log, "set a new password from a reset link")
      })
    }), { timeout: 120_000 })

  it.effect("an owner sends a webhook a test event and reads the payload and the response; a failing receiver's answer shows too", () =>
    Effect.gen(function*() {
      const { base, email, key } = yield* setUp
      const { base: hooks, behave } = yield* receiver
      const made = yield* call("POST", "/v1/webhooks", { token: key, body: { url: `${hooks}/outreach`, events: ["job.completed"] } })
      const id: string = made.body.webhook.id
      const browser = yield* promise(() => open({ timezoneId: zone }))
      const page = yield* promise(() => browser.newPage())
      yield* promise(async () => {
        await signIn(page, base, email)
        await page.getByRole("link", { name: "Webhooks", exact: true }).click()
        await page.getByRole("link", { name: `${hooks}/outreach` }).click()
        await page.getByRole("button", { name: "Send a test event" }).click()
        assert.include(await page.locator("[role=status]").innerText(), "Test event delivered: HTTP 204 in")
        // A failing receiver: the page says why, and shows what it answered.
        behave("/outreach", "fail500")
        await page.getByRole("button", { name: "Send a test event" }).click()
        assert.include(await page.locator("[role=alert]").innerText(), "The test event was not delivered: HTTP 500 in")
        const first = page.locator("tr.exchange details").first()
        await first.locator("summary").click()
        assert.include(await first.locator("pre.payload").innerText(), `"webhookId": "${id}"`)
        assert.strictEqual(await first.locator("pre.response").innerText(), "boom")
        // Times in the browser's zone, the ISO time in the title.
        const time = page.locator("table.deliveries time").first()
        assert.match(await time.innerText(), /GMT\+1|CET/)
        assert.match((await time.getAttribute("title")) ?? "", /^\d{4}-\d\d-\d\dT/)
        await screenshot(page, "webhook-test-event")
      })
      const history = yield* call("GET", `/v1/webhooks/${id}/deliveries`, { token: key })
      assert.deepStrictEqual(history.body.deliveries.map((d: { eventType: string; status: string }) => [d.eventType, d.status]), [
        ["webhook.test", "failed"],
        ["webhook.test", "succeeded"]
      ])
    }), { timeout: 120_000 })

  it.effect("a member pauses, resumes and stops a workflow and an automation from their pages; the activity log names them", () =>
    Effect.gen(function*() {
      const { accountId, base, key, memberEmail } = yield* setUp
      const [person] = strangers(accountId, 1, "browser-workflow")
      const workflow = yield* call("POST", "/v1/workflows", {
        token: key,
        body: {
          account: accountId,
          person,
          steps: [
            { type: "command", command: "connect", input: { note: "Hi, I enjoyed your talk on onboarding." } },
            {
              type: "waitFor",
              condition: { type: "accepted" },
              timeoutSeconds: 14 * 86_400,
              then: [{ type: "command", command: "send_message", input: { text: "Thanks for connecting!" } }],
              else: [{ type: "command", command: "withdraw_invite" }]
            }
          ]
        }
      })
      assert.strictEqual(workflow.status, 202, JSON.stringify(workflow.body))
      const workflowId: string = workflow.body.workflow.id
      yield* workflowUntil(key, workflowId, (w) => w.jobs[0]?.status === "awaiting_approval")
      const automation = yield* call("POST", "/v1/automations", {
        token: key,
        body: {
          account: accountId,
          name: "Spring follow-ups",
          people: quietConnections(accountId, 3, "browser-automation"),
          messages: [
            { text: "Hi, thanks for connecting! Worth a chat about onboarding?" },
            { text: "Following up: happy to share a short demo video.", afterDays: 3 }
          ]
        }
      })
      assert.strictEqual(automation.status, 202, JSON.stringify(automation.body))
      const browser = yield* promise(() => open({ timezoneId: zone }))
      const page = yield* promise(() => browser.newPage())
      yield* promise(async () => {
        await signIn(page, base, memberEmail)
        await page.getByRole("link", { name: "Workflows", exact: true }).click()
        assert.include(await page.locator("table.workflows").innerText(), "Waiting for approval")
        await screenshot(page, "workflows")
        await page.locator(`a[href="/dashboard/workflows/${workflowId}"]`).click()
        const steps = await page.locator("#steps + ol").innerText()
        assert.include(steps, "Invitation “Hi, I enjoyed your talk on onboarding.”")
        assert.include(steps, "Wait up to 14 days until the invitation is accepted, then:")
        assert.include(steps, "otherwise:")
        await page.getByRole("button", { name: "Pause" }).click()
        assert.include(await page.locator("[role=status]").innerText(), "Paused: no further step starts")
        assert.include(await page.locator("dl.facts").innerText(), "Paused")
        await screenshot(page, "workflow")
        await page.getByRole("button", { name: "Resume" }).click()
        assert.include(await page.locator("[role=status]").innerText(), "Resumed where it stopped")
        // Stopping asks to confirm first (the browser's own check, then the server's).
        await page.getByLabel("Stop it for good: its unstarted jobs are cancelled (this cannot be undone)").check()
        await page.getByRole("button", { name: "Stop workflow" }).click()
        assert.include(await page.locator("[role=status]").innerText(), "Stopped: its unstarted jobs are cancelled")
        assert.include(await page.locator("dl.facts").innerText(), "Stopped by hand")
        assert.strictEqual(await page.getByRole("button", { name: "Pause" }).count(), 0)
        await page.getByRole("link", { name: "Invitation" }).click()
        assert.include(await page.locator("main").innerText(), "Cancelled")
        await page.getByRole("link", { name: "Automations", exact: true }).click()
        assert.include(await page.locator("table.automations").innerText(), "3 people, 3 going, 0 replied, 0 done")
        await screenshot(page, "automations")
        await page.getByRole("link", { name: "Spring follow-ups" }).click()
        assert.include(await page.locator("main").innerText(), "3 days after the one before")
        await page.getByRole("button", { name: "Pause" }).click()
        assert.include(await page.locator("[role=status]").innerText(), "Paused: every run holds its next message")
        await screenshot(page, "automation")
        await page.getByLabel("Stop it for good: every run still going stops (this cannot be undone)").check()
        await page.getByRole("button", { name: "Stop automation" }).click()
        assert.include(await page.locator("dl.facts").innerText(), "Stopped by hand")
        await page.getByRole("link", { name: "Activity" }).click()
        const log = await page.locator("table.activity").innerText()
        for (const line of ["stopped the automation \"Spring follow-ups\" (3 people)", "paused the automation", "stopped the workflow about", "resumed the workflow about", "paused the workflow about"]) {
          assert.include(log, line)
        }
        assert.include(log, "Mia Member")
        await screenshot(page, "activity-workflows")
      })
      assert.strictEqual((yield* call("GET", `/v1/automations/${automation.body.automation.id}`, { token: key })).body.automation.status, "stopped")
    }), { timeout: 120_000 })
})
