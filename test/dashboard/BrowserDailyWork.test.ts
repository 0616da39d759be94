/**
 * A day's work on the dashboard, in a real browser (Debian's chromium through
 * playwright-core), issue #32: the job explorer (filters, a job as a sentence, cancel, retry of a
 * failed write as a new job), the activity log with its filters, two-factor required for
 * everyone (a teammate without it is sent to set it up before any page), and a seat the network
 * signed out reconnected from its card, the approvals and jobs lists updating without a reload,
 * and a webhook endpoint's events, payload and URL changed and its secret rotated. Pages are saved under .ci/results/screenshots.
 */
import { afterAll, assert, layer } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { HttpServer } from "effect/http"
import { TestClock } from "effect/testing"
import type { BrowserContext } from "playwright-core"
import { SignIn } from "../../src/team/SignIn.ts"
import { totpCodeAt } from "../../src/team/TwoFactor.ts"
import { TwoFactorSettings } from "../../src/team/TwoFactorSettings.ts"
import { connectedAccount, strangers } from "../jobs/support.ts"
import { closeAll, open, screenshot } from "../support/Browser.ts"
import { ownerSession, password, teammate } from "../support/Teammates.ts"
import { call, layer as serverLayer } from "../support/TestServer.ts"

const promise = <A>(run: () => Promise<A>) => Effect.promise(run)

const baseUrl = Effect.gen(function*() {
  const server = yield* HttpServer.HttpServer
  const address = server.address
  if (address._tag === "UnixPathAddress") return yield* Effect.die(new Error("no TCP address"))
  return `http://127.0.0.1:${address.port}`
})

/** A new session of the person. */
const sessionOf = (email: string) =>
  Effect.gen(function*() {
    const outcome = yield* (yield* SignIn).password(email, password)
    assert.strictEqual(outcome._tag, "SignedIn")
    return outcome._tag === "SignedIn" ? outcome.session.token : ""
  })

/** A browser signed in with the session `token` (its cookie set, as the sign-in page would). */
const signedInBrowser = (base: string, token: string) =>
  promise(async (): Promise<BrowserContext> => {
    const browser = await open()
    await browser.addCookies([{ name: "outreach_session", value: token, url: base }])
    return browser
  })

// Private receivers allowed so an endpoint can be made without a public host.
layer(serverLayer({ allowPrivateWebhooks: true }))("operating from the dashboard in a browser", (it) => {
  afterAll(closeAll)
  it.effect("the job explorer: filter the failed, retry one as a new job, read a job as a sentence and cancel it; the activity log says who rejected", () =>
    Effect.gen(function*() {
      // A working morning, so the pages (and their screenshots) show a plausible date.
      yield* TestClock.setTime(Date.parse("2026-11-27T09:30:00Z"))
      const { email, key } = yield* ownerSession
      const base = yield* baseUrl
      const accountId = yield* connectedAccount(key, { mode: "approve" })
      // Signed in after the seat's warm-up, which moved the clock by days.
      const token = yield* sessionOf(email)
      const [first, second] = strangers(accountId, 2, "browser-explorer")
      const one = (yield* call("POST", `/v1/accounts/${accountId}/connect`, { token: key, body: { person: first, note: "Kept for later" } })).body.job
      const two = (yield* call("POST", `/v1/accounts/${accountId}/connect`, { token: key, body: { person: second, note: "Not this one" } })).body.job
      const approvals = (yield* call("GET", "/v1/approvals", { token: key })).body.approvals
      const approvalOfTwo = approvals.find((a: { jobId: string }) => a.jobId === two.id).id
      yield* call("POST", `/v1/approvals/${approvalOfTwo}/reject`, { token: key, body: { reason: "wrong person" } })

      const browser = yield* signedInBrowser(base, token)
      const page = yield* promise(() => browser.newPage())
      yield* promise(async () => {
        await page.goto(`${base}/dashboard/jobs`)
        await page.getByLabel("Status").selectOption("failed")
        await page.getByRole("button", { name: "Filter" }).click()
        await page.waitForURL(/status=failed/)
        const failedRow = page.locator(`#job-${two.id}`)
        assert.include(await failedRow.innerText(), "wrong person")
        assert.strictEqual(await page.locator(`#job-${one.id}`).count(), 0, "the filter shows failed jobs only")
        await screenshot(page, "jobs-filtered", { fullPage: false })
        await failedRow.getByRole("button", { name: "Retry as a new job" }).click()
        await page.locator("[role=status]", { hasText: "A new job was made" }).waitFor()

        await page.goto(`${base}/dashboard/jobs/${one.id}`)
        assert.match(await page.locator(".sentence").innerText(), /^Invitation to .+, note “Kept for later”/)
        assert.include(await page.locator("#job-status").innerText(), "Waiting for approval")
        await page.getByRole("button", { name: "Cancel" }).click()
        await page.waitForLoadState("load")
        await screenshot(page, "job-cancelled", { fullPage: false })
      })
      assert.strictEqual((yield* call("GET", `/v1/jobs/${one.id}`, { token: key })).body.job.status, "cancelled")
      const retried = (yield* call("GET", `/v1/jobs?account=${accountId}&status=awaiting_approval`, { token: key })).body.jobs
      assert.deepStrictEqual(retried.map((job: { input: unknown }) => job.input), [two.input])

      yield* promise(async () => {
        await page.goto(`${base}/dashboard/activity`)
        await page.getByLabel("What").selectOption("approval.rejected")
        await page.getByRole("button", { name: "Filter" }).click()
        await page.waitForURL(/action=approval.rejected/)
        const rows = page.locator("table.activity tbody tr")
        assert.strictEqual(await rows.count(), 1)
        const row = await rows.first().innerText()
        assert.include(row, "rejected")
        assert.include(row, "API key")
        await screenshot(page, "activity-filtered", { fullPage: false })
      })
    }), { timeout: 120_000 })

  it.effect("an owner requires two-factor from the Team page: a teammate without it is sent to set it up before any page", () =>
    Effect.gen(function*() {
      const { actor, token } = yield* ownerSession
      const base = yield* baseUrl
      const member = yield* teammate(actor, "member")
      // The owner has two-factor first (required for everyone includes them).
      const settings = yield* TwoFactorSettings
      const { secret } = yield* settings.begin(actor.id)
      yield* settings.confirm(actor.id, totpCodeAt(secret, yield* Clock.currentTimeMillis))

      const owners = yield* signedInBrowser(base, token)
      const ownerPage = yield* promise(() => owners.newPage())
      yield* promise(async () => {
        await ownerPage.goto(`${base}/dashboard/team`)
        await ownerPage.getByRole("button", { name: "Require two-factor for everyone" }).click()
        await ownerPage.locator("[role=status]", { hasText: "Two-factor is now required" }).waitFor()
        assert.strictEqual(await ownerPage.getByRole("button", { name: "Stop requiring two-factor" }).count(), 1)
      })

      const members = yield* signedInBrowser(base, member.token)
      const memberPage = yield* promise(() => members.newPage())
      yield* promise(async () => {
        await memberPage.goto(`${base}/dashboard/approvals`)
        await memberPage.getByText("Your workspace requires two-factor sign-in").waitFor()
        await screenshot(memberPage, "two-factor-required", { fullPage: false })
        // Any other page sends them to the same place.
        await memberPage.goto(`${base}/dashboard/jobs`)
        await memberPage.getByText("Your workspace requires two-factor sign-in").waitFor()
      })
    }), { timeout: 120_000 })

  it.effect("a seat the network signed out is reconnected from its card, through the network's sign-in page", () =>
    Effect.gen(function*() {
      const { email, key } = yield* ownerSession
      const base = yield* baseUrl
      const accountId = yield* connectedAccount(key, {}, "Grace")
      const token = yield* sessionOf(email)
      const signedOut = yield* call("POST", `/v1/sandbox/accounts/${accountId}/events`, { token: key, body: { type: "signed_out" } })
      assert.strictEqual(signedOut.status, 200, JSON.stringify(signedOut.body))
      assert.strictEqual(signedOut.body.account.status, "reconnect_required")

      const browser = yield* signedInBrowser(base, token)
      const page = yield* promise(() => browser.newPage())
      yield* promise(async () => {
        await page.goto(`${base}/dashboard/seats`)
        const card = page.locator(`#seat-${accountId}`)
        await screenshot(page, "seat-signed-out", { fullPage: false })
        await card.getByRole("button", { name: "Reconnect (opens the sign-in page)" }).click()
        // The sandbox's own sign-in page, as for a new seat.
        await page.getByRole("button", { name: "Sign in and connect" }).click()
        await page.waitForLoadState("load")
      })
      const back = yield* call("GET", `/v1/accounts/${accountId}`, { token: key })
      assert.notStrictEqual(back.body.account.status, "reconnect_required", JSON.stringify(back.body.account))
      assert.include(["active", "warming"], back.body.account.status)
    }), { timeout: 120_000 })

  it.effect("the approvals and jobs lists update without a reload, and leave a list alone while someone types in it", () =>
    Effect.gen(function*() {
      const { email, key } = yield* ownerSession
      const base = yield* baseUrl
      const accountId = yield* connectedAccount(key, { mode: "approve" }, "Lin")
      const token = yield* sessionOf(email)
      const [first, second, third] = strangers(accountId, 3, "browser-live")
      const ask = (person: string, note: string) =>
        Effect.map(call("POST", `/v1/accounts/${accountId}/connect`, { token: key, body: { person, note } }), (reply) => {
          assert.strictEqual(reply.status, 202, JSON.stringify(reply.body))
          return reply.body.job.id as string
        })
      const one = yield* ask(first, "Already waiting")

      const browser = yield* signedInBrowser(base, token)
      const page = yield* promise(() => browser.newPage())
      // The live script is slow to arrive (a slow network): held until the stream answered, or for
      // two seconds if the page waits for the script before it connects. Live either way.
      yield* promise(() =>
        page.route("**/dashboard/assets/live.js", async (route) => {
          const response = await route.fetch()
          await page.waitForResponse((r) => r.url().endsWith("/dashboard/live"), { timeout: 2_000 }).catch(() => undefined)
          await route.fulfill({ response })
        })
      )
      yield* promise(() => page.goto(`${base}/dashboard/approvals`))
      yield* promise(() => page.locator("tr.approval", { hasText: "Already waiting" }).waitFor())
      // The page is live once its stream is connected (slow on a busy machine: give it a minute).
      yield* promise(() => page.locator('html[data-live="connected"]').waitFor({ state: "attached", timeout: 60_000 }))
      // A new write asks for approval: its row comes in without a reload.
      yield* ask(second, "Arrived while the page was open")
      yield* promise(() => page.locator("tr.approval", { hasText: "Arrived while the page was open" }).waitFor())
      // While a text is being edited, a change leaves the list as it is.
      const edited = page.locator("tr.approval", { hasText: "Already waiting" })
      yield* promise(async () => {
        await edited.locator("summary").first().click()
        await edited.locator("textarea").fill("Edited, not yet sent")
      })
      yield* ask(third, "Comes in after the edit")
      // The header's counts say 3 waiting: the change reached the page, which kept the list for the person typing.
      yield* promise(() => page.locator("#live", { hasText: /3\s*approvals waiting/ }).waitFor())
      assert.strictEqual(yield* promise(() => edited.locator("textarea").inputValue()), "Edited, not yet sent")
      assert.strictEqual(yield* promise(() => page.locator("tr.approval", { hasText: "Comes in after the edit" }).count()), 0)

      // The jobs list: a job asked for elsewhere shows up, and its ending too.
      yield* promise(() => page.goto(`${base}/dashboard/jobs`))
      yield* promise(() => page.locator(`#job-${one}`).waitFor())
      const read = (yield* call("POST", `/v1/accounts/${accountId}/get_profile`, { token: key, body: { person: first } })).body.job.id as string
      yield* promise(() => page.locator(`#job-${read}`).waitFor())
      yield* promise(() => page.locator(`#job-${read}`, { hasText: "Done" }).waitFor())
    }), { timeout: 120_000 })

  it.effect("an endpoint's events, payload and URL changed on its page, and its secret rotated (shown once)", () =>
    Effect.gen(function*() {
      const { key, token } = yield* ownerSession
      const base = yield* baseUrl
      const made = yield* call("POST", "/v1/webhooks", { token: key, body: { url: "http://127.0.0.1:9/outreach" } })
      assert.strictEqual(made.status, 201, JSON.stringify(made.body))
      const id: string = made.body.webhook.id
      const browser = yield* signedInBrowser(base, token)
      const page = yield* promise(() => browser.newPage())
      const secret = yield* promise(async () => {
        await page.goto(`${base}/dashboard/webhooks/${id}`)
        await page.locator("summary", { hasText: "Change the URL, the events or the payload" }).click()
        await page.getByLabel("URL (https)").fill("http://127.0.0.1:9/outreach-v2")
        await page.getByLabel("job.completed").check()
        await page.getByLabel("job.failed").check()
        await page.getByLabel("Payload").selectOption("thin")
        await page.getByRole("button", { name: "Save", exact: true }).click()
        await page.locator("[role=status]", { hasText: "Saved" }).waitFor()
        await page.locator("summary", { hasText: "Change the URL, the events or the payload" }).click()
        await page.getByRole("button", { name: "Rotate the secret" }).click()
        const shown = await page.locator("#secret-value").innerText()
        await screenshot(page, "webhook-secret-rotated", { fullPage: false })
        return shown
      })
      assert.match(secret, /^whsec_/)
      const after = (yield* call("GET", `/v1/webhooks/${id}`, { token: key })).body.webhook
      assert.deepStrictEqual(
        [after.url, after.mode, [...after.events].sort()],
        ["http://127.0.0.1:9/outreach-v2", "thin", ["job.completed", "job.failed"]]
      )
      // Shown once: the page opened again does not show it.
      const again = yield* promise(async () => {
        await page.goto(`${base}/dashboard/webhooks/${id}`)
        return page.locator("#secret-value").count()
      })
      assert.strictEqual(again, 0)
    }), { timeout: 120_000 })
})
