/**
 * Debian's chromium driven through playwright-core (nothing downloads a
 * browser): each `open()` is a fresh browser with its own profile directory,
 * so each stands for one person; `closeAll()` ends them.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type BrowserContext, chromium, type Page } from "playwright-core"

export const chromiumPath = "/usr/bin/chromium"

/** Where the tests leave a screenshot of every page (a CI artefact, not committed). */
export const screenshotDir = join(import.meta.dirname, "..", "..", ".ci", "results", "screenshots")

const opened: Array<{ readonly context: BrowserContext; readonly dir: string }> = []

/** A fresh browser (its own `--user-data-dir`) at a desktop size, or a phone's; in `timezoneId`'s zone when given. */
export const open = async (options: { readonly phone?: boolean; readonly timezoneId?: string } = {}): Promise<BrowserContext> => {
  const dir = mkdtempSync(join(tmpdir(), "outreach-chromium-"))
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: chromiumPath,
    headless: true,
    chromiumSandbox: false,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync"
    ],
    viewport: options.phone === true ? { width: 390, height: 844 } : { width: 1280, height: 900 },
    ...(options.phone === true ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
    ...(options.timezoneId === undefined ? {} : { timezoneId: options.timezoneId })
  })
  opened.push({ context, dir })
  return context
}

/**
 * Ends every browser opened so far. Call it in the served layer's block (`afterAll(closeAll)` inside
 * `layer(...)`), so it runs before the server closes. An open page holds its live stream: the test
 * server ends live streams as it drains (`App.drainOnStop`), but before it did, its close waited out
 * the 20 s graceful timeout for each page still open.
 */
export const closeAll = async () => {
  for (const { context, dir } of opened.splice(0)) {
    await context.close().catch(() => undefined)
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Saves a screenshot (the full page, or what the window shows) as `<name>.png` among the CI artefacts. */
export const screenshot = async (page: Page, name: string, options: { readonly fullPage?: boolean } = {}) => {
  mkdirSync(screenshotDir, { recursive: true })
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: options.fullPage ?? true })
}
