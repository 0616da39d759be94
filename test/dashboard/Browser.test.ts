/**
 * The dashboard in a real browser (Debian's chromium through playwright-core),
 * against the real service on a port: sign-in with password and TOTP, a wrong
 * code then the lockout, a recovery code, inviting a member who then cannot
 * see keys or webhooks, editing and approving a write then seeing its job
 * complete, rejecting one with a reason, a form without its CSRF token, and
 * sign-out. Every page is saved as a screenshot under .ci/results/screenshots.
 */
import { afterAll, assert, layer } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { HttpServer } from "effect/http"
import { TestClock } from "effect/testing"
import type { Page } from "playwright-core"
import { Team } from "../../src/team/Team.ts"
import { totpCodeAt } from "../../src/team/TwoFactor.ts"
import { TwoFactorSettings } from "../../src/team/TwoFactorSettings.ts"
import { closeAll, open, screenshot } from "../support/Browser.ts"
import { call, layer as serverLayer } from "../support/TestServer.ts"
import { alwaysOpen, connectedAccount, strangers, workspaceWithAccount } from "../jobs/support.ts"

const password = "correct horse battery staple"

const baseUrl = Effect.gen(function*() {
  const server = yield* HttpServer.HttpServer
  const address = server.address
  if (address._tag === "UnixPathAddress") return yield* Effect.die(new Error("no TCP address"))
  return `http://127.0.0.1:${address.port}`
})

/** A profile address as the approvals queue shows it (without `https://www.`). */
const shown = (address: string) => address.replace(/^https:\/\/(www\.)?/, "")

const promise = <A>(run: () => Promise<A>) => Effect.promise(run)

/** A code the server accepts now and that no earlier sign-in used: the next time step's. */
const nextCode = (secret: string) => Effect.map(Clock.currentTimeMillis, (now) => totpCodeAt(secret, now + 30_000))

const signInWithPassword = async (page: Page, base: string, email: string, secret = password) => {
  await page.goto(`${base}/dashboard`)
  await page.getByLabel("Email").fill(email)
  await page.getByLabel("Password").fill(secret)
  await page.getByRole("button", { name: "Sign in" }).click()
  await page.waitForLoadState("load")
}

/** A workspace with a seat in `approve` mode and an owner who signs in with a password. */
const setUp = Effect.gen(function*() {
  const { token, workspaceId, accountId } = yield* workspaceWithAccount({ mode: "approve" })
  const email = `owner-${crypto.randomUUID().slice(0, 8)}@acme.test`
  const { userId } = yield* (yield* Team).createOwner({ workspaceId, email, name: "Olivia Owner", password })
  return { token, workspaceId, accountId, email, userId, base: yield* baseUrl }
})

layer(serverLayer())("the dashboard in a browser", (it) => {
  afterAll(closeAll)
  it.effect("signs in with a password, sets up two-factor from the QR page, then signs in with a TOTP code; sign-out ends the session", () =>
    Effect.gen(function*() {
      const { base, email } = yield* setUp
      const browser = yield* promise(() => open())
      const page = yield* promise(() => browser.newPage())
      yield* promise(async () => {
        await page.goto(`${base}/dashboard`)
        assert.match(page.url(), /\/dashboard\/sign-in\?next=/)
        await screenshot(page, "sign-in")
        await signInWithPassword(page, base, email, "not the password at all")
        assert.include(await page.locator("[role=alert]").innerText(), "Wrong email or password")
        await signInWithPassword(page, base, email)
        assert.strictEqual(new URL(page.url()).pathname, "/dashboard")
        assert.strictEqual(await page.locator("h1").innerText(), "Needs attention")
        await screenshot(page, "needs-attention")
        await page.getByRole("link", { name: "Security" }).click()
        await page.getByRole("button", { name: "Set up two-factor" }).click()
        assert.isTrue(await page.locator(".qr svg").isVisible())
        await screenshot(page, "two-factor-set-up")
      })
      const secret = yield* promise(() => page.locator("#totp-secret").innerText())
      const confirmCode = yield* Effect.map(Clock.currentTimeMillis, (now) => totpCodeAt(secret, now))
      const codes = yield* promise(async () => {
        await page.getByLabel("Code from the app").fill(confirmCode)
        await page.getByRole("button", { name: "Turn on two-factor" }).click()
        await page.waitForLoadState("load")
        const codes = await page.locator("#recovery-codes li").allInnerTexts()
        await screenshot(page, "two-factor-recovery-codes")
        return codes
      })
      assert.strictEqual(codes.length, 10)
      // Signing out ends the session on the server: the cookie it held is refused afterwards.
      const cookie = yield* promise(async () => (await browser.cookies()).find((c) => c.name === "outreach_session")?.value)
      assert.isString(cookie)
      assert.strictEqual((yield* call("GET", "/v1/me", { headers: { cookie: `outreach_session=${cookie}` } })).body.kind, "session")
      yield* promise(async () => {
        await page.getByRole("button", { name: "Sign out" }).first().click()
        await page.waitForLoadState("load")
        assert.include(await page.locator("[role=status]").innerText(), "You are signed out")
        await page.goto(`${base}/dashboard/approvals`)
        assert.match(page.url(), /\/dashboard\/sign-in/)
      })
      const after = yield* call("GET", "/v1/me", { headers: { cookie: `outreach_session=${cookie}` } })
      assert.strictEqual(after.status, 401)
      // Now the password leads to the code page, where a right code signs in.
      const code = yield* nextCode(secret)
      yield* promise(async () => {
        await signInWithPassword(page, base, email)
        assert.match(page.url(), /\/dashboard\/sign-in\/code/)
        await screenshot(page, "sign-in-code")
        await page.getByLabel("Code").fill("000000")
        await page.getByRole("button", { name: "Continue" }).click()
        assert.include(await page.locator("[role=alert]").innerText(), "not right")
        await page.getByLabel("Code").fill(code)
        await page.getByRole("button", { name: "Continue" }).click()
        await page.waitForURL(`${base}/dashboard`)
        assert.strictEqual(await page.locator("h1").innerText(), "Needs attention")
      })
      // The same code cannot sign in twice; a recovery code can, once.
      const other = yield* promise(() => open())
      const second = yield* promise(() => other.newPage())
      yield* promise(async () => {
        await signInWithPassword(second, base, email)
        await second.getByLabel("Code").fill(code)
        await second.getByRole("button", { name: "Continue" }).click()
        assert.include(await second.locator("[role=alert]").innerText(), "already used")
        await second.getByLabel("Code").fill(codes[0].toUpperCase())
        await second.getByRole("button", { name: "Continue" }).click()
        await second.waitForURL(`${base}/dashboard`)
        await second.getByRole("button", { name: "Sign out" }).first().click()
        await signInWithPassword(second, base, email)
        await second.getByLabel("Code").fill(codes[0])
        await second.getByRole("button", { name: "Continue" }).click()
        assert.include(await second.locator("[role=alert]").innerText(), "not right")
      })
    }), { timeout: 120_000 })

  it.effect("a wrong code five times locks signing in, even with the right code", () =>
    Effect.gen(function*() {
      const { base, email, userId } = yield* setUp
      // Two-factor set up through the service, as the set-up page does.
      const settings = yield* TwoFactorSettings
      const { secret } = yield* settings.begin(userId)
      yield* settings.confirm(userId, totpCodeAt(secret, yield* Clock.currentTimeMillis))
      const browser = yield* promise(() => open())
      const page = yield* promise(() => browser.newPage())
      yield* promise(async () => {
        await signInWithPassword(page, base, email)
        for (let attempt = 1; attempt <= 4; attempt++) {
          await page.getByLabel("Code").fill("123456")
          await page.getByRole("button", { name: "Continue" }).click()
          assert.include(await page.locator("[role=alert]").innerText(), `${5 - attempt} attempt`)
        }
        await page.getByLabel("Code").fill("123456")
        await page.getByRole("button", { name: "Continue" }).click()
        assert.strictEqual(await page.locator("h1").innerText(), "Signing in is locked for now")
        await screenshot(page, "sign-in-locked")
        // Locked: the right password and then the right code are refused too.
        await signInWithPassword(page, base, email)
        assert.strictEqual(await page.locator("h1").innerText(), "Signing in is locked for now")
      })
      // Fifteen minutes later it opens again.
      yield* TestClock.adjust("16 minutes")
      const later = yield* nextCode(secret)
      yield* promise(async () => {
        await signInWithPassword(page, base, email)
        await page.getByLabel("Code").fill(later)
        await page.getByRole("button", { name: "Continue" }).click()
        await page.waitForURL(`${base}/dashboard`)
      })
    }), { timeout: 120_000 })
})

// Private receivers allowed so the webhooks page can add an endpoint without a public host.
layer(serverLayer({ allowPrivateWebhooks: true }))("the dashboard in a browser: team, approvals and forms", (it) => {
  afterAll(closeAll)
  it.effect("an owner invites a member by link; the member joins and cannot see keys or webhooks", () =>
    Effect.gen(function*() {
      const { base, email } = yield* setUp
      const owner = yield* promise(() => open())
      const page = yield* promise(() => owner.newPage())
      const link = yield* promise(async () => {
        await signInWithPassword(page, base, email)
        await page.getByRole("link", { name: "Team" }).click()
        await page.getByLabel("Email").fill("mia@acme.test")
        await page.getByLabel("Role", { exact: true }).selectOption("member")
        await page.getByRole("button", { name: "Create invitation link" }).click()
        const link = await page.locator("#invitation-link").innerText()
        await screenshot(page, "team")
        return link
      })
      assert.match(link, /\/dashboard\/invitations\/sess_/)
      const member = yield* promise(() => open())
      const memberPage = yield* promise(() => member.newPage())
      const cookie = yield* promise(async () => {
        await memberPage.goto(link)
        await screenshot(memberPage, "invitation")
        await memberPage.getByLabel("Your name").fill("Mia Member")
        await memberPage.getByLabel("Password").fill("short")
        // The browser's own minlength check is bypassed to see the server's message.
        await memberPage.locator("#new-password").evaluate((input) => input.removeAttribute("minlength"))
        await memberPage.getByRole("button", { name: "Join and sign in" }).click()
        assert.include(await memberPage.locator("[role=alert]").innerText(), "at least 12 characters")
        await memberPage.getByLabel("Password").fill("a long enough passphrase")
        await memberPage.getByRole("button", { name: "Join and sign in" }).click()
        await memberPage.waitForURL(`${base}/dashboard`)
        assert.include(await memberPage.locator(".who").innerText(), "Mia Member (member)")
        const nav = await memberPage.locator("nav.main").innerText()
        assert.notInclude(nav, "API keys")
        assert.notInclude(nav, "Webhooks")
        for (const path of ["/dashboard/keys", "/dashboard/webhooks"]) {
          const response = await memberPage.goto(`${base}${path}`)
          assert.strictEqual(response?.status(), 403)
          assert.strictEqual(await memberPage.locator("h1").innerText(), "Not for your role")
        }
        await screenshot(memberPage, "members-may-not-see-keys")
        return (await member.cookies()).find((c) => c.name === "outreach_session")?.value
      })
      // Over REST too: the member's session reads, but keys and webhooks are 403 notAllowed.
      const headers = { cookie: `outreach_session=${cookie}` }
      const me = yield* call("GET", "/v1/me", { headers })
      assert.strictEqual(me.body.user.role, "member")
      for (const path of ["/v1/keys", "/v1/webhooks"]) {
        const reply = yield* call("GET", path, { headers })
        assert.strictEqual(reply.status, 403)
        assert.strictEqual(reply.body.error.type, "notAllowed")
      }
      // The link worked once.
      yield* promise(async () => {
        const again = await (await open()).newPage()
        const response = await again.goto(link)
        assert.strictEqual(response?.status(), 410)
        assert.include(await again.locator("main").innerText(), "already used")
      })
    }), { timeout: 120_000 })

  it.effect("edits and approves a write, whose job then completes; rejects another with a reason", () =>
    Effect.gen(function*() {
      const { base, email, token, accountId } = yield* setUp
      const [first, second] = strangers(accountId, 2, "dashboard")
      const asked = yield* call("POST", `/v1/accounts/${accountId}/connect`, { token, body: { person: first, note: "Hi, glad to connect." } })
      assert.strictEqual(asked.body.job.status, "awaiting_approval", JSON.stringify(asked.body))
      const other = yield* call("POST", `/v1/accounts/${accountId}/connect`, { token, body: { person: second, note: "Hello there." } })
      const browser = yield* promise(() => open())
      const page = yield* promise(() => browser.newPage())
      const approvalId = yield* promise(async () => {
        await signInWithPassword(page, base, email)
        assert.strictEqual(await page.locator("[data-count=approvals]").first().innerText(), "2")
        await screenshot(page, "needs-attention")
        await page.getByRole("link", { name: "Approvals", exact: true }).click()
        await screenshot(page, "approvals")
        const row = page.locator("tr.approval", { hasText: shown(first) })
        const id = (await row.getAttribute("data-id")) ?? ""
        await row.locator("summary").click()
        assert.include(await row.locator("textarea").inputValue(), "Hi, glad to connect.")
        await row.locator("textarea").fill("Hi María, I enjoyed your talk. Glad to connect!")
        await row.getByRole("button", { name: "Approve" }).click()
        await page.locator("[role=status]", { hasText: "Approved" }).waitFor()
        assert.strictEqual(await page.locator(`#approval-${id}`).count(), 0)
        // The header's count follows over server-sent events.
        await page.locator("#live [data-count=approvals]", { hasText: /^1$/ }).waitFor({ timeout: 15_000 })
        return id
      })
      assert.isString(approvalId)
      // The edited text is what goes out; the Governor then runs the write.
      yield* TestClock.adjust("5 minutes")
      const done = yield* call("GET", `/v1/jobs/${asked.body.job.id}?wait=20`, { token })
      assert.strictEqual(done.body.job.status, "completed", JSON.stringify(done.body.job))
      assert.strictEqual(done.body.job.input.note, "Hi María, I enjoyed your talk. Glad to connect!")
      yield* promise(async () => {
        // The Decided view says who approved it, and the text that went out.
        await page.getByRole("link", { name: "Decided" }).click()
        const decided = page.locator(`#approval-${approvalId}`)
        assert.include(await decided.innerText(), "Olivia Owner")
        assert.include(await decided.innerText(), "Hi María, I enjoyed your talk. Glad to connect!")
        await decided.getByRole("link", { name: "job" }).click()
        assert.strictEqual(await page.locator("#job-status").innerText(), "Done")
        await screenshot(page, "job")
        await page.getByRole("link", { name: "Approvals", exact: true }).click()
        const row = page.locator("tr.approval", { hasText: shown(second) })
        await row.locator("summary").click()
        await row.getByLabel("Reason for rejecting (optional)").fill("Wrong person: she moved company.")
        await row.getByRole("button", { name: "Reject" }).click()
        await page.locator("[role=status]", { hasText: "Rejected" }).waitFor()
        await page.getByRole("link", { name: "Decided" }).click()
        await page.locator("table.decided tr", { hasText: "Wrong person: she moved company." }).locator(".pill.bad").waitFor()
        await page.getByRole("link", { name: "Jobs", exact: true }).click()
        await screenshot(page, "jobs")
        await page.getByRole("link", { name: "People", exact: true }).click()
        await screenshot(page, "people")
        await page.getByRole("link", { name: "Seats", exact: true }).click()
        // The seat's forecast: both writes were decided, so nothing is queued.
        assert.include(await page.locator("section.forecast").first().innerText(), "Nothing is queued.")
        await screenshot(page, "seats")
        await page.getByRole("link", { name: "Inbox", exact: true }).click()
        await screenshot(page, "inbox")
      })
      const rejected = yield* call("GET", `/v1/jobs/${other.body.job.id}`, { token })
      assert.strictEqual(rejected.body.job.status, "failed")
      assert.include(JSON.stringify(rejected.body.job.error), "Wrong person: she moved company.")
      // On a phone the approvals page reads in one column.
      const phone = yield* promise(() => open({ phone: true }))
      yield* promise(async () => {
        const small = await phone.newPage()
        await signInWithPassword(small, base, email)
        await small.goto(`${base}/dashboard/approvals`)
        const width = await small.locator("html").evaluate((root) => root.scrollWidth)
        assert.isAtMost(width, 390)
        await screenshot(small, "approvals-phone")
      })
    }), { timeout: 120_000 })

  it.effect("150 approvals: true counts, pages, filters, keyboard, a bulk approve that sends the edited text, a refused edit kept as typed", () =>
    Effect.gen(function*() {
      const { base, email, token, accountId } = yield* setUp
      const other = yield* connectedAccount(token, { mode: "approve", minInviteQuality: 0, workingHours: alwaysOpen }, "Bea")
      const ask = (seat: string, person: string, i: number) =>
        call("POST", `/v1/accounts/${seat}/connect`, { token, body: { person, note: `Note number ${i}` } }).pipe(
          Effect.tap((reply) => Effect.sync(() => assert.strictEqual(reply.status, 202, JSON.stringify(reply.body))))
        )
      yield* Effect.forEach(strangers(accountId, 140, "volume"), (person, i) => ask(accountId, person, i), { concurrency: 8 })
      yield* Effect.forEach(strangers(other, 10, "volume-bea"), (person, i) => ask(other, person, 140 + i), { concurrency: 8 })
      const browser = yield* promise(() => open())
      const page = yield* promise(() => browser.newPage())
      const picked = yield* promise(async () => {
        await signInWithPassword(page, base, email)
        await page.goto(`${base}/dashboard/approvals`)
        const count = () => page.locator("#queue-count").innerText()
        assert.strictEqual(await count(), "Showing 1–50 of 150 waiting")
        assert.include(await page.locator("nav.tabs").innerText(), "Waiting (150)")
        // The header counts every one, never "100".
        assert.strictEqual(await page.locator("[data-count=approvals]").first().innerText(), "150")
        assert.strictEqual(await page.locator("tr.approval").count(), 50)
        await screenshot(page, "approvals-volume", { fullPage: false })
        await page.getByRole("link", { name: "Next page" }).click()
        assert.strictEqual(await count(), "Showing 51–100 of 150 waiting")
        await page.getByRole("link", { name: "Next page" }).click()
        assert.strictEqual(await count(), "Showing 101–150 of 150 waiting")
        assert.strictEqual(await page.getByRole("link", { name: "Next page" }).count(), 0)
        // Filters: by seat, by kind, by time left; each with its true count.
        await page.getByLabel("Seat").selectOption({ label: "Bea" })
        await page.getByRole("button", { name: "Filter" }).click()
        assert.strictEqual(await count(), "Showing 1–10 of 10 waiting")
        await page.getByLabel("Kind").selectOption({ label: "Message" })
        await page.getByRole("button", { name: "Filter" }).click()
        assert.strictEqual(await count(), "Showing 0 of 0 waiting")
        await page.getByRole("link", { name: "Clear filters" }).click()
        await page.getByLabel("Time left").selectOption("1h")
        await page.getByRole("button", { name: "Filter" }).click()
        assert.strictEqual(await count(), "Showing 0 of 0 waiting")
        await page.getByRole("link", { name: "Clear filters" }).click()
        // Keyboard: j moves to a row, x selects it; the first row's text is edited in place.
        const rows = page.locator("tr.approval")
        const firstId = (await rows.nth(0).getAttribute("data-id")) ?? ""
        const secondId = (await rows.nth(1).getAttribute("data-id")) ?? ""
        await page.keyboard.press("j")
        await page.keyboard.press("x")
        await page.keyboard.press("j")
        await page.keyboard.press("x")
        assert.isTrue(await rows.nth(0).locator("input[type=checkbox]").isChecked())
        assert.isTrue(await rows.nth(1).locator("input[type=checkbox]").isChecked())
        await rows.nth(0).locator("summary").click()
        const area = rows.nth(0).locator("textarea")
        await area.fill("An edited note, sent by the bulk approve.")
        assert.strictEqual(await page.locator(`#text-${firstId}-count`).innerText(), "41 / 300")
        await page.getByRole("button", { name: "Approve selected" }).click()
        await page.locator("[role=status]", { hasText: "Approved" }).waitFor()
        assert.strictEqual(await count(), "Showing 1–50 of 148 waiting")
        // A note too long is refused in words and kept as typed.
        const third = page.locator("tr.approval").first()
        const thirdId = (await third.getAttribute("data-id")) ?? ""
        await third.locator("summary").click()
        const long = "x".repeat(350)
        await third.locator("textarea").fill(long)
        await screenshot(page, "approvals-editing", { fullPage: false })
        assert.include(await page.locator(`#text-${thirdId}-count`).getAttribute("class") ?? "", "over")
        await third.getByRole("button", { name: "Approve" }).click()
        const refused = page.locator(`#approval-${thirdId}`)
        assert.include(await refused.locator("[role=alert]").innerText(), "350 characters; the network allows at most 300")
        assert.strictEqual(await refused.locator("textarea").inputValue(), long)
        await refused.scrollIntoViewIfNeeded()
        await screenshot(page, "approvals-refused-edit", { fullPage: false })
        assert.include(await count(), "of 148 waiting")
        // An invitation can go without its note.
        await refused.getByRole("button", { name: "Send without a note" }).click()
        await page.locator("[role=status]", { hasText: "Approved" }).waitFor()
        // The keyboard approves the focused row and the queue moves on.
        await page.keyboard.press("a")
        await page.locator("#queue-count", { hasText: "of 146 waiting" }).waitFor()
        await page.getByRole("link", { name: "Decided" }).click()
        assert.include(await page.locator("#queue-count").innerText(), "of 4 decided")
        await screenshot(page, "approvals-decided")
        // The activity log lists each decision with who made it, and filters by what was done.
        await page.getByRole("link", { name: "Activity", exact: true }).click()
        assert.isAtLeast(await page.locator("table.activity tbody tr").count(), 4)
        await page.getByLabel("What").selectOption({ label: "edited and approved" })
        await page.getByRole("button", { name: "Filter" }).click()
        // The bulk approve's edit, and the note removed before sending.
        assert.strictEqual(await page.locator("table.activity tbody tr").count(), 2)
        const edited = page.locator("table.activity tbody tr", { hasText: "An edited note, sent by the bulk approve." })
        assert.include(await edited.innerText(), "Olivia Owner")
        await page.getByRole("link", { name: "Clear filters" }).click()
        await screenshot(page, "activity", { fullPage: false })
        return { firstId, secondId, thirdId }
      })
      const decided = yield* call("GET", "/v1/approvals?status=approved&limit=10", { token })
      const byId = new Map<string, { jobId: string; text: string | null }>(decided.body.approvals.map((a: { id: string; jobId: string; text: string | null }) => [a.id, a]))
      const jobOf = (id: string) => call("GET", `/v1/jobs/${byId.get(id)?.jobId ?? ""}`, { token }).pipe(Effect.map((reply) => reply.body.job))
      assert.strictEqual((yield* jobOf(picked.firstId)).input.note, "An edited note, sent by the bulk approve.")
      assert.match((yield* jobOf(picked.secondId)).input.note, /^Note number \d+$/)
      assert.strictEqual((yield* jobOf(picked.thirdId)).input.note, "")
    }), { timeout: 240_000 })

  it.effect("seats operated from the page: connect on the sandbox, pause, resume, rename, autopilot only when confirmed, disconnect with a confirmation", () =>
    Effect.gen(function*() {
      const { base, email, token } = yield* setUp
      const browser = yield* promise(() => open())
      const page = yield* promise(() => browser.newPage())
      const seatId = yield* promise(async () => {
        await signInWithPassword(page, base, email)
        await page.getByRole("link", { name: "Seats", exact: true }).click()
        await page.getByLabel("Connect a seat: its name").fill("Grace")
        await page.getByRole("button", { name: "Connect a seat" }).click()
        // The sandbox's own sign-in page, opened from the dashboard.
        await page.getByRole("button", { name: "Sign in and connect" }).click()
        await page.goto(`${base}/dashboard/seats`)
        const card = page.locator("article", { hasText: "Grace" })
        const id = ((await card.getAttribute("id")) ?? "").replace("seat-", "")
        assert.include(await card.locator(".pill").first().innerText(), "Warming up")
        await card.getByRole("button", { name: "Pause" }).click()
        await page.locator("[role=status]", { hasText: "Paused" }).waitFor()
        assert.strictEqual(await page.locator(`#seat-${id} .pill`).first().innerText(), "Paused")
        await page.locator(`#seat-${id}`).getByRole("button", { name: "Resume" }).click()
        await page.locator("[role=status]", { hasText: "Resumed" }).waitFor()
        await page.locator(`#seat-${id} summary`, { hasText: "Rename" }).click()
        await page.locator(`#seat-${id}`).getByLabel("Name", { exact: true }).fill("Grace H.")
        await page.locator(`#seat-${id}`).getByRole("button", { name: "Save the name" }).click()
        await page.locator("[role=status]", { hasText: "Renamed" }).waitFor()
        // Autopilot needs the explanation acknowledged.
        const settings = page.locator(`#seat-${id}`)
        await settings.locator("summary", { hasText: "Change settings" }).click()
        await settings.getByLabel("Mode").selectOption("autopilot")
        await settings.getByRole("button", { name: "Save settings" }).click()
        assert.include(await page.locator("[role=alert]").innerText(), "without anyone approving them")
        await screenshot(page, "seats-operated", { fullPage: false })
        await page.locator(`#seat-${id} summary`, { hasText: "Disconnect" }).click()
        await page.locator(`#seat-${id}`).getByLabel("Yes, disconnect").check()
        await page.locator(`#seat-${id}`).getByRole("button", { name: "Disconnect this seat" }).click()
        await page.locator("[role=status]", { hasText: "Disconnected" }).waitFor()
        assert.strictEqual(await page.locator(`#seat-${id}`).count(), 0)
        return id
      })
      const gone = yield* call("GET", `/v1/accounts/${seatId}`, { token })
      assert.strictEqual(gone.status, 404)
      const log = yield* call("GET", "/v1/activity?resource=seat&limit=20", { token })
      const actions = log.body.activity.filter((e: { resource: { id: string } }) => e.resource.id === seatId).map((e: { action: string }) => e.action)
      assert.deepStrictEqual(actions, ["seat.disconnected", "seat.settings_changed", "seat.resumed", "seat.paused", "seat.connected"])
    }), { timeout: 120_000 })

  it.effect("a form without its CSRF token is refused and changes nothing; keys and webhooks pages work for owners, an endpoint is disabled and deleted", () =>
    Effect.gen(function*() {
      const { base, email, token } = yield* setUp
      const before = yield* call("GET", "/v1/keys", { token })
      const browser = yield* promise(() => open())
      const page = yield* promise(() => browser.newPage())
      yield* promise(async () => {
        await signInWithPassword(page, base, email)
        await page.getByRole("link", { name: "API keys", exact: true }).click()
        await page.locator("form[action='/dashboard/keys'] input[name=_csrf]").evaluate((input) => input.remove())
        await page.getByLabel("What the new key is for").fill("Forged")
        await page.getByRole("button", { name: "Create key" }).click()
        assert.strictEqual(await page.locator("h1").innerText(), "This form cannot be accepted")
        await screenshot(page, "csrf-refused")
        await page.goto(`${base}/dashboard/keys`)
        await page.getByLabel("What the new key is for").fill("CRM sync")
        await page.getByRole("button", { name: "Create key" }).click()
        assert.match(await page.locator("#key-value").innerText(), /^svc_/)
        await screenshot(page, "keys")
        await page.getByRole("link", { name: "Webhooks", exact: true }).click()
        await page.getByLabel("Receiver URL (https)").fill("http://127.0.0.1:9/hook")
        await page.getByRole("button", { name: "Add endpoint (every event, full data)" }).click()
        assert.match(await page.locator("#webhook-secret").innerText(), /^whsec_/)
        await screenshot(page, "webhooks")
        await page.getByRole("link", { name: "http://127.0.0.1:9/hook" }).click()
        await page.getByRole("button", { name: "Disable" }).click()
        assert.include(await page.locator("main").innerText(), "Disabled: it receives no events")
        await screenshot(page, "webhook")
        await page.getByLabel("Delete this endpoint and its delivery log").check()
        await page.getByRole("button", { name: "Delete endpoint" }).click()
        assert.include(await page.locator("main").innerText(), "Deleted, with its deliveries.")
      })
      const after = yield* call("GET", "/v1/keys", { token })
      assert.strictEqual(after.body.keys.length, before.body.keys.length + 1)
      assert.notInclude(after.body.keys.map((k: { name: string }) => k.name), "Forged")
    }), { timeout: 120_000 })
})
