/**
 * The console's pages in a real Chromium (Debian's `chromium`, or `CHROMIUM_PATH`), driven by playwright-core.
 * A missing browser fails the test that needs it, saying how to install it: never a skip. Each page the tests
 * visit is checked by axe-core in that browser, and a violation of the Content-Security-Policy reported by the
 * browser fails the test.
 */
import { existsSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, expect } from "vitest"

const require = createRequire(import.meta.url)

export const chromiumPath = (): string => {
  const path = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
  if (!existsSync(path)) {
    throw new Error(
      `Chromium was not found at ${path}: the console's browser tests need it. Install Debian's package ` +
        "(`apt-get install chromium`; .ci/run does) or set CHROMIUM_PATH to a Chromium binary.",
    )
  }
  return path
}

export const launch = (): Promise<Browser> =>
  chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox", "--disable-dev-shm-usage"] })

/** One Chromium for the test file: launched before its tests, closed after them; the getter gives it. */
export const useBrowser = (): () => Browser => {
  let browser: Browser | undefined
  beforeAll(async () => {
    browser = await launch()
  })
  afterAll(async () => {
    await browser?.close()
  })
  return () => {
    if (browser === undefined) throw new Error("useBrowser: the browser is launched in beforeAll")
    return browser
  }
}

const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8")

/** The browser's reports of a blocked script, style or frame (the Content-Security-Policy), per page. */
const violations = new WeakMap<Page, Array<string>>()

export const newPage = async (
  browser: Browser,
  options: { readonly locale?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> => {
  const context = await browser.newContext({
    locale: options.locale ?? "en-GB",
    extraHTTPHeaders: { "accept-language": options.locale ?? "en-GB" },
  })
  const page = await context.newPage()
  const seen: Array<string> = []
  violations.set(page, seen)
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/i.test(m.text())) seen.push(m.text())
  })
  page.on("pageerror", (e) => seen.push(`page error: ${e.message}`))
  return { context, page }
}

/**
 * axe-core over the page as it is now: no serious or critical violation. Its source is evaluated through the
 * browser's debugging protocol (the page's policy rightly refuses an inline script).
 */
export const expectAccessible = async (page: Page): Promise<void> => {
  await page.evaluate(axeSource)
  const result = await page.evaluate(async () => {
    const axe = (window as any).axe
    const r = await axe.run(document, { resultTypes: ["violations"] })
    return r.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n: any) => n.target.join(" ")).slice(0, 3),
    }))
  })
  const grave = result.filter((v: any) => v.impact === "serious" || v.impact === "critical")
  expect(grave, `axe-core on ${page.url()}`).toEqual([])
}

/** No script, style or frame was blocked and no script failed on the page so far. */
export const expectNoViolations = (page: Page): void => {
  expect(violations.get(page) ?? []).toEqual([])
}

/**
 * Opens `path` signed out, signs in with the console token on the sign-in page it is sent to (the token's field found
 * by `tokenLabel` when given, as a person reads it, in the page's language), and lands back on `path`.
 */
export const signInTo = async (
  page: Page,
  server: { readonly baseUrl: string; readonly consoleToken: string },
  path: string,
  tokenLabel?: string,
): Promise<void> => {
  await page.goto(`${server.baseUrl}${path}`)
  await (tokenLabel === undefined ? page.locator("#token") : page.getByLabel(tokenLabel)).fill(server.consoleToken)
  await page.locator("form.stack button[type=submit]").click()
  await page.waitForURL((u) => u.pathname === path)
}

/** Presses Tab until the element matching `selector` has the focus (at most 40 times). */
export const tabTo = async (page: Page, selector: string): Promise<void> => {
  for (let i = 0; i < 40; i++) {
    if (await page.evaluate((sel) => document.activeElement?.matches(sel) === true, selector)) return
    await page.keyboard.press("Tab")
  }
  throw new Error(`Tab never reached ${selector}`)
}
