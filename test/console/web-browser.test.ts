/**
 * The console as a person uses it, in a real Chromium (issue 33): signing in with the keyboard alone, an
 * application and a live key (shown once, then only its prefix), an account token's call answered 428 whose
 * `human_action.url` is opened, approved and resent, the same in Arabic right-to-left, and markup in a name
 * shown as text. axe-core checks every page visited; a script or style the policy blocked fails the test.
 */
import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { setupApplication, useServer } from "../support/server.ts"
import { expectAccessible, expectNoViolations, newPage, tabTo, useBrowser } from "./browser.ts"

const s = useServer()
const browser = useBrowser()

/** Signs in on the sign-in page the browser is on, with the keyboard only. */
const signInWithKeyboard = async (page: Page) => {
  await tabTo(page, "#token")
  await page.keyboard.type(s.consoleToken)
  await page.keyboard.press("Enter")
  await page.waitForURL((u) => !u.pathname.endsWith("/sign-in"))
}

/** An account token's call that needs an approval (`applications.unpause`, the default policy): its 428. */
const askApproval = async (name: string) => {
  const account = await s.console("POST", "/accounts", { name })
  const app = await s.console("POST", `/accounts/${account.id}/applications`, { name: `${name} app`, approved: true })
  await s.console("POST", `/applications/${app.id}/pause`)
  const token = await s.console("POST", `/accounts/${account.id}/account-tokens`, {
    role: "admin",
    email: "noura@example.com",
  })
  const asked = await s.call("POST", `/v1/applications/${app.id}/unpause`, { key: token.token, body: {} })
  expect(asked.status).toBe(428)
  const resend = () => s.call("POST", `/v1/applications/${app.id}/unpause`, { key: token.token, body: {} })
  return { app, url: asked.body.human_action.url as string, resend }
}

describe("sign in; create an application and a live key: shown once, then only its prefix", () => {
  it("with the keyboard to sign in, the pages' forms after", async () => {
    const { context, page } = await newPage(browser())
    await page.goto(`${s.baseUrl}/console`)
    expect(new URL(page.url()).pathname).toBe("/console/sign-in")
    await expectAccessible(page)
    await signInWithKeyboard(page)
    await expectAccessible(page)

    await page.getByRole("link", { name: "Accounts" }).first().click()
    await expectAccessible(page)
    await page.getByLabel("Name").fill("Browser Merchant")
    await page.getByRole("button", { name: "Create an account" }).click()
    await expect(page.locator("h1").textContent()).resolves.toBe("Browser Merchant")
    await expectAccessible(page)

    await page.locator("#application-name").fill("Browser Shop")
    await page.getByLabel("Approved now").check()
    await page.getByRole("button", { name: "Create an application" }).click()
    await expect(page.locator("h1").textContent()).resolves.toBe("Browser Shop")
    await expectAccessible(page)

    await page.getByLabel("Mode").selectOption("live")
    await page.getByRole("button", { name: "Create a key" }).click()
    const secret = (await page.locator("#new-secret").textContent())!
    expect(secret).toMatch(/^svc_live_[A-Za-z0-9_-]{20,}$/)
    await expect(page.getByRole("button", { name: "Copy" }).isVisible()).resolves.toBe(true)
    await expectAccessible(page)
    // The key works: it is the application's live key.
    const used = await s.call("GET", "/v1/email/messages/none", { key: secret })
    expect(used.status).not.toBe(401)
    expect((await s.call("GET", "/v1/email/messages/none", { key: `${secret}x` })).status).toBe(401)

    await page.getByRole("link", { name: "Continue" }).click()
    const shown = (await page.locator("main").textContent())!
    expect(shown).toContain("svc_live_…")
    expect(shown).not.toContain(secret)
    expect(await page.content()).not.toContain(secret.slice(9))
    await page.reload()
    expect(await page.content()).not.toContain(secret.slice(9))
    expectNoViolations(page)
    await context.close()
  })
})

describe("an account token's call answered 428: its human_action.url opened, approved, resent and run", () => {
  it("in English, approved with the keyboard only", async () => {
    const { app, url, resend } = await askApproval("Keyboard Co")
    const { context, page } = await newPage(browser())
    await page.goto(url)
    expect(new URL(page.url()).pathname).toBe("/console/sign-in")
    await signInWithKeyboard(page)
    expect(page.url()).toBe(url)
    await expectAccessible(page)
    const main = (await page.locator("main").textContent())!
    expect(main).toContain("applications.unpause")
    expect(main).toContain("noura@example.com")
    expect(main).toContain("admin")
    expect(main).toContain(app.id)
    expect(await page.locator("#approval-status").textContent()).toContain("pending")

    await tabTo(page, "#note")
    await page.keyboard.type("Unpause for the sale")
    await tabTo(page, 'button[value="approve"]')
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")])
    expect(await page.locator("#approval-status").textContent()).toContain("approved")
    expect(await page.locator('button[value="approve"]').count()).toBe(0)
    await expectAccessible(page)

    const resent = await resend()
    expect(resent.status).toBe(200)
    await page.reload()
    expect(await page.locator("#approval-status").textContent()).toContain("used")
    expect(await page.locator("form textarea").count()).toBe(0)
    expectNoViolations(page)
    await context.close()
  })

  it("in Arabic, right-to-left", async () => {
    const { url, resend } = await askApproval("شركة الموافقات")
    const { context, page } = await newPage(browser(), { locale: "ar-SA" })
    await page.goto(url)
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl")
    expect(await page.locator("html").getAttribute("lang")).toBe("ar")
    await expectAccessible(page)
    await page.getByLabel("رمز لوحة التحكم").fill(s.consoleToken)
    await page.getByRole("button", { name: "تسجيل الدخول" }).click()
    expect(page.url()).toBe(url)
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl")
    expect(await page.locator("#approval-status").textContent()).toContain("معلّقة")
    await expectAccessible(page)
    // The page is laid out right to left: the main heading starts at the right.
    const box = await page.locator("h1").boundingBox()
    const width = page.viewportSize()!.width
    expect(box!.x + box!.width).toBeGreaterThan(width / 2)

    await page.getByRole("button", { name: "موافقة" }).click()
    expect(await page.locator("#approval-status").textContent()).toContain("موافق عليها")
    expect((await resend()).status).toBe(200)

    // The switch goes back to English on the same page.
    await page.getByRole("link", { name: "English" }).click()
    expect(page.url()).toBe(url)
    expect(await page.locator("html").getAttribute("dir")).toBe("ltr")
    expect(await page.locator("#approval-status").textContent()).toContain("used")
    expectNoViolations(page)
    await context.close()
  })
})

describe("a top-up paid through the payment simulator: the wallet page changed", () => {
  it("balance before, a link for SAR 250.50 with VAT, paid, balance after", async () => {
    const account = await s.console("POST", "/accounts", { name: "Wallet Co" })
    const { context, page } = await newPage(browser())
    await page.goto(`${s.baseUrl}/console/accounts/${account.id}`)
    await signInWithKeyboard(page)
    await page.getByRole("link", { name: "Wallet" }).click()
    expect(await page.locator("#wallet-balance").textContent()).toMatch(/SAR\s?0\.00/)
    await expectAccessible(page)
    await page.getByLabel("Amount in riyals").fill("250.50")
    await page.getByRole("button", { name: "Make a top-up link" }).click()
    const shown = (await page.locator("main").textContent())!
    expect(shown).toMatch(/SAR\s?250\.50/)
    expect(shown).toMatch(/SAR\s?37\.58/) // VAT 15 %, rounded
    await expectAccessible(page)
    await page.getByRole("button", { name: "Pay in the simulator" }).click()
    expect(new URL(page.url()).pathname).toBe(`/console/accounts/${account.id}/wallet`)
    expect(await page.locator("#wallet-balance").textContent()).toMatch(/SAR\s?250\.50/)
    const api = await s.call("POST", `/console/v1/accounts/${account.id}/wallet/credit`, {
      key: s.consoleToken,
      body: { amount_halalas: 1 },
    })
    expect(api.body.data.balance_halalas).toBe(25_051)
    expectNoViolations(page)
    await context.close()
  })
})

describe("in development: the SMS simulator's inbox and the simulated clock", () => {
  it("a code sent by Verify is in the inbox; the clock advances by the minutes asked", async () => {
    const { key } = await setupApplication(s)
    const started = await s.call("POST", "/v1/verify/start", { key, body: { to: "0551230001" } })
    expect(started.status).toBe(200)
    const { context, page } = await newPage(browser(), { locale: "ar-SA" })
    await page.goto(`${s.baseUrl}/console/simulator/sms`)
    await signInWithKeyboard(page)
    await page.getByLabel("رقم الجوال").fill("+966551230001")
    await page.getByRole("button", { name: "عرض" }).click()
    expect(await page.locator(".sms-text").first().textContent()).toMatch(/\d{4,8}/)
    // A number typed on a right-to-left page still reads left to right, its + first.
    expect(await page.getByLabel("رقم الجوال").evaluate((e) => getComputedStyle(e).direction)).toBe("ltr")
    await expectAccessible(page)
    await page.goto(`${s.baseUrl}/console/simulator/clock`)
    const before = await s.console("POST", "/simulator/clock", { advance_ms: 0 })
    await page.getByLabel("التقديم بمقدار (دقائق)").fill("90")
    await page.getByRole("button", { name: "تقديم" }).click()
    const after = await s.console("POST", "/simulator/clock", { advance_ms: 0 })
    expect(after.now_ms - before.now_ms).toBeGreaterThanOrEqual(90 * 60_000)
    expect(after.now_ms - before.now_ms).toBeLessThan(91 * 60_000)
    await expectAccessible(page)
    expectNoViolations(page)
    await context.close()
  })
})

describe("HTML and script in free text are shown as text; nothing runs", () => {
  it("an account named with markup, and an approval's note", async () => {
    const { context, page } = await newPage(browser())
    await page.goto(`${s.baseUrl}/console/accounts`)
    await signInWithKeyboard(page)
    const name = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>`
    await page.getByLabel("Name").fill(name)
    await page.getByRole("button", { name: "Create an account" }).click()
    expect(await page.locator("h1").textContent()).toBe(name)
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined()
    expect(await page.locator("main img").count()).toBe(0)

    const { url } = await askApproval("Notes Co")
    await page.goto(url)
    await page.getByLabel("Note").fill(name)
    await page.getByRole("button", { name: "Deny" }).click()
    expect(await page.locator("dd.text").last().textContent()).toBe(name)
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined()
    expectNoViolations(page)
    await context.close()
  })
})

describe("every page passes axe-core: the lists and the refusals too", () => {
  it("the pending list, a 404 page, a refused form, in both languages", async () => {
    await askApproval("Listed Co")
    for (const locale of ["en-GB", "ar-SA"]) {
      const { context, page } = await newPage(browser(), { locale })
      await page.goto(`${s.baseUrl}/console/approvals`)
      await signInWithKeyboard(page)
      expect(await page.locator("tbody tr").count()).toBeGreaterThan(0)
      await expectAccessible(page)
      const missing = await page.goto(`${s.baseUrl}/console/applications/6f1c1a1e-0000-4000-8000-000000000000`)
      expect(missing!.status()).toBe(404)
      await expectAccessible(page)
      await page.goto(`${s.baseUrl}/console/accounts`)
      await page.locator("#account-name").fill("x".repeat(300))
      await page.locator("form.stack button[type=submit]").click()
      expect(await page.locator(".error").count()).toBe(1)
      await expectAccessible(page)
      await page.goto(`${s.baseUrl}/console`)
      await expectAccessible(page)
      expectNoViolations(page)
      await context.close()
    }
  })
})
