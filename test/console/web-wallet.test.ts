/**
 * An account's wallet in the console, in Chromium (issue 33): proformas issued and opened as PDF, the low-balance
 * alert and auto top-up set (an out-of-bounds value a field error that changes nothing), and the usage chart by
 * month and application with its table, in English and in Arabic right to left. axe-core checks each state of
 * the page; a script or style the policy blocked fails the test.
 */
import { describe, expect, it } from "vitest"
import { formatSar } from "../../adapters/console/i18n.ts"
import { allowedMonths } from "../../core/usage/period.ts"
import type { Millis } from "../../core/shared/brands.ts"
import { useServer } from "../support/server.ts"
import { expectAccessible, expectNoViolations, newPage, signInTo, useBrowser } from "./browser.ts"

const s = useServer()
const browser = useBrowser()

const newAccount = async (name: string, balance = 10_000) => {
  const account = await s.console("POST", "/accounts", { name })
  await s.console("POST", `/accounts/${account.id}/wallet/credit`, { amount_halalas: balance })
  return account.id as string
}

let seq = 0
const fresh = () => `+9665542${String(++seq).padStart(5, "0")}`

/** `n` live codes sent with `key` (each charged to the wallet). */
const sendCodes = async (key: string, n: number) => {
  for (let i = 0; i < n; i++) {
    const r = await s.call("POST", "/v1/verify/start", { key, body: { to: fresh() } })
    expect(r.status).toBe(200)
  }
}

const clockNow = async (advanceMs = 0): Promise<number> =>
  (await s.call("POST", "/console/v1/simulator/clock", { key: s.consoleToken, body: { advance_ms: advanceMs } }))
    .body.data.now_ms

describe("wallet: proformas issued with a buyer and an optional VAT number, listed, each with its PDF", () => {
  it("a refused VAT number is a field error and issues nothing; a good one is listed and its PDF opens", async () => {
    const accountId = await newAccount("Proforma Co")
    const path = `/console/accounts/${accountId}/wallet`
    const { context, page } = await newPage(browser())
    await signInTo(page, s, path)
    await expect(page.locator("#proformas-list").count()).resolves.toBe(0)

    await page.locator("#proforma_amount").fill("250.50")
    await page.getByLabel("Buyer's name").fill("Riyadh <b>Trading</b>")
    await page.getByLabel("Buyer's VAT number").fill("12345")
    await page.getByRole("button", { name: "Issue a proforma" }).click()
    await expect(page.locator("#vat_number-error").textContent()).resolves.toBe("15 digits, the first and the last 3.")
    await expect(page.getByLabel("Buyer's VAT number").getAttribute("aria-invalid")).resolves.toBe("true")
    // The form keeps what was typed; nothing was issued.
    await expect(page.getByLabel("Buyer's name").inputValue()).resolves.toBe("Riyadh <b>Trading</b>")
    await expect(page.locator("#proformas-list").count()).resolves.toBe(0)
    await expectAccessible(page)

    await page.getByLabel("Buyer's VAT number").fill("300000000000003")
    await page.getByRole("button", { name: "Issue a proforma" }).click()
    await page.waitForURL((u) => u.pathname === path)
    const row = page.locator("#proformas-list tbody tr")
    await expect(row.count()).resolves.toBe(1)
    const text = (await row.textContent())!
    expect(text).toMatch(/PF-\d{4}-\d{6}/)
    // The buyer's markup is text; the total is the amount and its 15 % VAT, in riyals with two decimals.
    expect(text).toContain("Riyadh <b>Trading</b>")
    await expect(page.locator("#proformas-list b").count()).resolves.toBe(0)
    expect(text).toContain(formatSar("en", 25_050 + 3_758))
    await expectAccessible(page)

    const number = /PF-\d{4}-\d{6}/.exec(text)![0]
    const link = page.getByRole("link", { name: `PDF of ${number}` })
    const href = (await link.getAttribute("href"))!
    const [pdf] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/pdf")),
      link.click(),
    ])
    expect(pdf.status()).toBe(200)
    expect(pdf.headers()["content-type"]).toBe("application/pdf")
    // The same file through the session's cookie: a PDF naming the proforma.
    const fetched = await context.request.get(new URL(href, `${s.baseUrl}${path}`).href)
    expect(fetched.status()).toBe(200)
    const bytes = await fetched.body()
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-")

    // Another account's wallet does not serve this proforma.
    const otherId = await newAccount("Other Co")
    const foreign = await context.request.get(
      href.replace(/accounts\/[^/]+/, `accounts/${otherId}`).replace(
        /^(\.\.\/)*/,
        `${s.baseUrl}/console/`,
      ),
    )
    expect(foreign.status()).toBe(404)
    await context.close()
  })
})

describe("wallet: the low-balance alert and auto top-up, with the operation's bounds as form errors", () => {
  it("an out-of-bounds amount is a field error and changes nothing; a good one is shown after a reload", async () => {
    const accountId = await newAccount("Settings Co")
    const path = `/console/accounts/${accountId}/wallet`
    const { context, page } = await newPage(browser())
    await signInTo(page, s, path)
    await expect(page.locator("#wallet-auto-topup").textContent()).resolves.toBe("no")
    const alertBefore = await page.locator("#wallet-alert").textContent()

    await page.getByLabel("Low-balance alert (riyals)").fill("25")
    await page.getByLabel("Top up automatically").check()
    await page.getByLabel("When the balance falls below").fill("50")
    await page.getByLabel("Top up by").fill("5")
    await page.getByRole("button", { name: "Save the settings" }).click()
    await expect(page.locator("#auto_topup_amount-error").textContent()).resolves.toBe(
      `Between ${formatSar("en", 1_000)} and ${formatSar("en", 10_000_000)}.`,
    )
    await expect(page.getByRole("alert").first().textContent()).resolves.toContain("nothing was changed")
    await expect(page.getByLabel("Top up by").inputValue()).resolves.toBe("5")
    await expectAccessible(page)

    // Nothing changed: not the alert either, though it was in bounds.
    await page.goto(`${s.baseUrl}${path}`)
    await expect(page.locator("#wallet-auto-topup").textContent()).resolves.toBe("no")
    await expect(page.locator("#wallet-alert").textContent()).resolves.toBe(alertBefore)

    // Not riyals at all: the field says how to write them.
    await page.getByLabel("Low-balance alert (riyals)").fill("lots")
    await page.getByRole("button", { name: "Save the settings" }).click()
    await expect(page.locator("#low_balance_alert-error").textContent()).resolves.toContain("at most two decimals")

    await page.getByLabel("Low-balance alert (riyals)").fill("25")
    await page.getByLabel("Top up automatically").check()
    await page.getByLabel("When the balance falls below").fill("50")
    await page.getByLabel("Top up by").fill("200.50")
    await page.getByRole("button", { name: "Save the settings" }).click()
    await page.waitForURL((u) => u.pathname === path)
    await page.reload()
    await expect(page.locator("#wallet-auto-topup").textContent()).resolves.toBe(
      `${formatSar("en", 20_050)} when the balance is below ${formatSar("en", 5_000)}`,
    )
    await expect(page.locator("#wallet-alert").textContent()).resolves.toBe(formatSar("en", 2_500))
    await expect(page.getByLabel("Top up automatically").isChecked()).resolves.toBe(true)
    await expect(page.getByLabel("Top up by").inputValue()).resolves.toBe("200.50")
    expectNoViolations(page)
    await context.close()
  })
})

describe("wallet: a usage chart by month and application (server-drawn SVG, a legend, a table alternative)", () => {
  it("one bar group per month with usage, one colour per application, the same numbers in the table", async () => {
    const accountId = await newAccount("Chart Co", 100_000)
    const apps: Array<{ id: string; key: string }> = []
    for (const name of ["Corner Shop", "Bakery"]) {
      const app = await s.console("POST", `/accounts/${accountId}/applications`, { name, approved: true })
      const key = await s.console("POST", `/applications/${app.id}/keys`, { mode: "live" })
      apps.push({ id: app.id as string, key: key.key as string })
    }
    const path = `/console/accounts/${accountId}/wallet`
    const { context, page } = await newPage(browser())
    await signInTo(page, s, path)
    await expect(page.locator("#usage-none").textContent()).resolves.toBe("No usage in the last three months.")
    await expect(page.locator("g.chart-month").count()).resolves.toBe(0)

    // This month: both applications; next month (the clock moved 32 days on): the corner shop alone.
    await sendCodes(apps[0].key, 3)
    await sendCodes(apps[1].key, 1)
    const first = await clockNow()
    await clockNow(32 * 86_400_000)
    await sendCodes(apps[0].key, 2)
    const months = allowedMonths((await clockNow()) as Millis)
    const [earlier, previous, current] = months
    expect(allowedMonths(first as Millis)[2]).toBe(previous)

    // The session lived less than the 32 days the simulated clock moved: signed in again.
    await signInTo(page, s, path)
    const groups = page.locator("svg#usage-chart g.chart-month")
    await expect(groups.count()).resolves.toBe(2)
    expect(await groups.evaluateAll((gs) => gs.map((g) => g.getAttribute("data-month")))).toEqual([previous, current])
    await expect(page.locator(`g.chart-month[data-month="${earlier}"]`).count()).resolves.toBe(0)
    await expect(page.locator(`g.chart-month[data-month="${previous}"] rect.chart-bar`).count()).resolves.toBe(2)
    await expect(page.locator(`g.chart-month[data-month="${current}"] rect.chart-bar`).count()).resolves.toBe(1)
    // One colour per application, the same in every month and in the legend.
    const fills = await page.locator("rect.chart-bar").evaluateAll((rs) =>
      rs.map((r) => [r.getAttribute("data-application"), r.getAttribute("fill")])
    )
    const colourOf = new Map(fills as Array<[string, string]>)
    expect(colourOf.size).toBe(2)
    expect(new Set(colourOf.values()).size).toBe(2)
    expect(colourOf.get(apps[0].id)).toBe(fills.find(([a]) => a === apps[0].id)![1])
    await expect(page.locator(".legend li").allTextContents()).resolves.toEqual(["Corner Shop", "Bakery"])
    // The corner shop's bar this month (2 codes) is lower than last month's (3 codes).
    const height = (month: string) =>
      page.locator(`g.chart-month[data-month="${month}"] rect[data-application="${apps[0].id}"]`).getAttribute(
        "height",
      ).then(Number)
    expect(await height(current)).toBeLessThan(await height(previous))
    // The chart has a name for whoever does not see it, and a table saying the same.
    await expect(page.getByRole("img", { name: "Usage by month and application" }).count()).resolves.toBe(1)
    const rows = await page.locator("#usage-table tbody tr").evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent))
    )
    expect(rows).toEqual([
      [expect.any(String), "Corner Shop", "3", "0", formatSar("en", 27)],
      [expect.any(String), "Bakery", "1", "0", formatSar("en", 9)],
      [expect.any(String), "Corner Shop", "2", "0", formatSar("en", 18)],
    ])
    await expectAccessible(page)
    expectNoViolations(page)
    await context.close()
  })
})

describe("wallet: the same page in Arabic, right to left, riyals and Arabic digits", () => {
  it("the chart mirrored, the settings' error in Arabic, axe-core clean", async () => {
    const accountId = await newAccount("شركة الرسم", 50_000)
    const app = await s.console("POST", `/accounts/${accountId}/applications`, { name: "متجر", approved: true })
    const key = await s.console("POST", `/applications/${app.id}/keys`, { mode: "live" })
    await sendCodes(key.key, 2)
    const path = `/console/accounts/${accountId}/wallet`
    const { context, page } = await newPage(browser(), { locale: "ar" })
    await signInTo(page, s, path)
    await expect(page.locator("html").getAttribute("dir")).resolves.toBe("rtl")
    await expect(page.locator("#wallet-balance").textContent()).resolves.toBe(formatSar("ar", 50_000 - 18))
    expect(await page.locator("#wallet-balance").textContent()).toMatch(/[٠-٩]/)
    await expect(page.locator("svg#usage-chart g.chart-month").count()).resolves.toBe(1)
    await expect(page.getByRole("img", { name: "الاستخدام حسب الشهر والتطبيق" }).count()).resolves.toBe(1)
    // Right to left: the latest month's bars are at the left of the chart, the amounts' axis at the right.
    const bar = Number(await page.locator("rect.chart-bar").first().getAttribute("x"))
    expect(bar).toBeLessThan(640 / 3)
    await expectAccessible(page)

    await page.getByLabel("مبلغ الشحن (بالريال)").fill("٥")
    await page.getByRole("button", { name: "حفظ الإعدادات" }).click()
    await expect(page.locator("#auto_topup_amount-error").textContent()).resolves.toBe(
      `بين ${formatSar("ar", 1_000)} و${formatSar("ar", 10_000_000)}.`,
    )
    await expectAccessible(page)

    await page.locator("#proforma_amount").fill("١٠٠")
    await page.getByLabel("اسم المشتري").fill("مؤسسة النور")
    await page.getByRole("button", { name: "إصدار فاتورة مبدئية" }).click()
    await page.waitForURL((u) => u.pathname === path)
    await expect(page.locator("#proformas-list tbody tr").count()).resolves.toBe(1)
    expect(await page.locator("#proformas-list").textContent()).toContain(formatSar("ar", 11_500))
    await expectAccessible(page)
    expectNoViolations(page)
    await context.close()
  })
})
