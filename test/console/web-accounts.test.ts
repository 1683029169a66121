/**
 * An application's console pages as a person uses them, in a real Chromium (issue 33): Verify settings as a form
 * over `console.verify_settings.put` (every bound of DECISIONS 3 and 6 refused as the field's error by the same
 * Schema, nothing saved), the IP allowlist of a new key (a bad CIDR refused as the field's error), pause and
 * unpause, the guard's state; in English and in Arabic right-to-left; one flow with the keyboard alone; markup in
 * a name shown as text; an id of another kind or of nothing refused. axe-core checks every page visited.
 */
import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { latestCode, setupApplication, useServer } from "../support/server.ts"
import { expectAccessible, expectNoViolations, newPage, signInTo, tabTo, useBrowser } from "./browser.ts"
import { signIn } from "./web-support.ts"

const s = useServer()
const browser = useBrowser()

/** Opens `/console/<path>` and signs in on the way (the sign-in page sends the browser back). */
const openSignedIn = (page: Page, path: string, tokenLabel = "Console token") =>
  signInTo(page, s, `/console/${path}`, tokenLabel)

/** The code a start with `key` sends (the SMS simulator's inbox), and the start's status. */
const startWith = async (key: string, to: string) => {
  const started = await s.call("POST", "/v1/verify/start", { key, body: { to } })
  return { status: started.status, body: started.body, code: started.status === 200 ? await latestCode(s, to) : "" }
}

describe("Verify settings: a form over console.verify_settings.put, every bound a field's error", () => {
  it("saved values are what the platform then does; out-of-bounds values are refused and nothing changes", async () => {
    const { app, key } = await setupApplication(s)
    const { context, page } = await newPage(browser())
    await openSignedIn(page, `applications/${app.id}`)
    await page.getByRole("link", { name: "Verify settings" }).click()
    expect(await page.locator("h1").textContent()).toBe("Verify settings: Shop")
    await expectAccessible(page)
    expect(await page.getByLabel("Code length (digits)").inputValue()).toBe("6")

    // Out of bounds (4 to 8): the field says so, the others keep what was typed, nothing is saved.
    await page.getByLabel("Code length (digits)").fill("12")
    await page.getByLabel("Attempts per code").fill("5")
    await page.getByRole("button", { name: "Save the settings" }).click()
    const field = page.getByLabel("Code length (digits)")
    expect(await field.getAttribute("aria-invalid")).toBe("true")
    expect(await page.locator("#setting-code_length-error").textContent()).toMatch(/4|8|between/i)
    expect(await field.inputValue()).toBe("12")
    expect(await page.getByLabel("Attempts per code").inputValue()).toBe("5")
    expect(await page.getByRole("alert").first().textContent()).toContain("nothing was changed")
    await expectAccessible(page)
    await page.goto(page.url())
    expect(await page.getByLabel("Code length (digits)").inputValue()).toBe("6")
    expect(await page.getByLabel("Attempts per code").inputValue()).toBe("3")
    expect((await startWith(key, "0551230101")).code).toHaveLength(6)

    // Within bounds: saved, shown after a reload, and the next code has 8 digits.
    await page.getByLabel("Code length (digits)").fill("8")
    await page.getByLabel("Daily spend cap (halalas)").fill("50000")
    await page.getByLabel("Codes in an hour before the guard judges").fill("40")
    await page.getByRole("button", { name: "Save the settings" }).click()
    expect(await page.getByRole("status").textContent()).toBe("The settings were saved.")
    await page.reload()
    expect(await page.getByLabel("Code length (digits)").inputValue()).toBe("8")
    expect(await page.getByLabel("Daily spend cap (halalas)").inputValue()).toBe("50000")
    expect(await page.locator("#guard-enabled").textContent()).toBe("yes")
    expect(await page.locator("main").textContent()).toContain("at least 40 codes")
    expect(await page.locator("#guard-hour").textContent()).toContain("1 codes sent")
    expect((await startWith(key, "0551230102")).code).toHaveLength(8)

    // The guard off, the spend cap emptied: none.
    await page.getByLabel("Guard on").uncheck()
    await page.getByLabel("Daily spend cap (halalas)").fill("")
    await page.getByRole("button", { name: "Save the settings" }).click()
    // The form's answer must be in before the reload (a reload during its navigation detaches the page).
    await page.getByRole("status").waitFor()
    await page.reload()
    expect(await page.locator("#guard-enabled").textContent()).toBe("no")
    expect(await page.getByLabel("Guard on").isChecked()).toBe(false)
    expect(await page.getByLabel("Daily spend cap (halalas)").inputValue()).toBe("")
    expectNoViolations(page)
    await context.close()
  })

  it("each bound of DECISIONS 3 and 6 is the field's error from the operation's Schema, and nothing is saved", async () => {
    const { app, key } = await setupApplication(s)
    const b = await signIn(s.baseUrl, s.consoleToken)
    const refused: Array<[string, string]> = [
      ["code_length", "3"],
      ["code_length", "9"],
      ["code_lifetime_minutes", "0"],
      ["code_lifetime_minutes", "16"],
      ["max_attempts", "0"],
      ["max_attempts", "6"],
      ["hourly_cap_per_destination", "0"],
      ["hourly_cap_per_destination", "10001"],
      ["max_per_ip_per_hour", "0"],
      ["max_per_ip_per_hour", "100001"],
      ["daily_spend_cap_halalas", "-1"],
      ["daily_spend_cap_halalas", "ten"],
      ["guard.min_sends", "0"],
      ["guard.min_verified_percent", "101"],
      ["guard.min_verified_percent", "-1"],
      ["code_length", "6.5"],
    ]
    for (const [name, value] of refused) {
      const answer = await b.post(`/console/applications/${app.id}/verify`, {
        _csrf: b.csrf,
        code_length: "7",
        [name]: value,
      })
      expect(answer.status, `${name}=${value}`).toBe(400)
      const html = await answer.text()
      const id = `setting-${name.replace(".", "-")}`
      expect(html, `${name}=${value}`).toContain(`id="${id}-error"`)
      expect(html).toMatch(new RegExp(`id="${id}"[^>]*aria-invalid="true"`))
    }
    // Nothing was saved: not even the valid field beside each refused one.
    expect((await startWith(key, "0551230103")).code).toHaveLength(6)
    // A form without its CSRF token changes nothing either.
    const forged = await b.post(`/console/applications/${app.id}/verify`, { code_length: "7" })
    expect(forged.status).toBe(403)
    expect((await startWith(key, "0551230104")).code).toHaveLength(6)
  })

  it("in Arabic, right-to-left, the bound refused in Arabic's page", async () => {
    const { app } = await setupApplication(s)
    const { context, page } = await newPage(browser(), { locale: "ar-SA" })
    await openSignedIn(page, `applications/${app.id}/verify`, "رمز لوحة التحكم")
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl")
    expect(await page.locator("h1").textContent()).toBe("إعدادات التحقق: Shop")
    await expectAccessible(page)
    await page.getByLabel("المحاولات لكل رمز").fill("9")
    await page.getByRole("button", { name: "حفظ الإعدادات" }).click()
    expect(await page.getByLabel("المحاولات لكل رمز").getAttribute("aria-invalid")).toBe("true")
    expect(await page.getByRole("alert").first().textContent()).toContain("لم يتغير شيء")
    await expectAccessible(page)
    await page.goto(`${s.baseUrl}/console/applications/${app.id}`)
    await expectAccessible(page)
    expectNoViolations(page)
    await context.close()
  })
})

describe("with the keyboard alone: a setting changed and saved", () => {
  it("Tab to the field, type, Tab to the button, Enter", async () => {
    const { app, key } = await setupApplication(s)
    const { context, page } = await newPage(browser())
    await openSignedIn(page, `applications/${app.id}/verify`)
    await tabTo(page, "#setting-code_length")
    await page.keyboard.press("Control+A")
    await page.keyboard.type("4")
    await tabTo(page, "form[action$='/verify'] button[type=submit]")
    await page.keyboard.press("Enter")
    await page.waitForURL((u) => u.search.includes("saved=1"))
    expect(await page.getByLabel("Code length (digits)").inputValue()).toBe("4")
    expect((await startWith(key, "0551230105")).code).toHaveLength(4)
    await context.close()
  })
})

describe("IP allowlist of a key: a bad CIDR is the field's error; the list is kept and enforced", () => {
  it("a bad range refused with nothing made; a good one shown on the key and enforced; revoked to remove", async () => {
    const { app } = await setupApplication(s)
    const { context, page } = await newPage(browser())
    await openSignedIn(page, `applications/${app.id}`)
    const rowsBefore = await page.locator("#keys + table tbody tr").count()

    await page.getByLabel("IP allowlist").fill("203.0.113.0/24\n10.0.0.300/8")
    await page.getByRole("button", { name: "Create a key" }).click()
    expect(await page.getByLabel("IP allowlist").getAttribute("aria-invalid")).toBe("true")
    expect(await page.locator("#key-ip-allowlist-error").isVisible()).toBe(true)
    expect(await page.locator("#new-secret").count()).toBe(0)
    await expectAccessible(page)
    await page.goto(`${s.baseUrl}/console/applications/${app.id}`)
    expect(await page.locator("#keys + table tbody tr").count()).toBe(rowsBefore)

    await page.getByLabel("IP allowlist").fill("203.0.113.0/24")
    await page.getByLabel("Mode").selectOption("live")
    await page.getByRole("button", { name: "Create a key" }).click()
    const secret = (await page.locator("#new-secret").textContent())!
    await page.getByRole("link", { name: "Continue" }).click()
    expect(await page.locator("#keys + table tbody tr").count()).toBe(rowsBefore + 1)
    expect(await page.locator("#keys + table").textContent()).toContain("203.0.113.0/24")
    // The test's requests come from 127.0.0.1: outside the list.
    const refused = await s.call("POST", "/v1/verify/start", { key: secret, body: { to: "0551230106" } })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe("ip_not_allowed")

    page.on("dialog", (d) => d.accept())
    await page.locator("#keys + table tbody tr", { hasText: "203.0.113.0/24" }).getByRole("button").click()
    await page.locator("#keys + table tbody tr", { hasText: "203.0.113.0/24" }).filter({ hasText: "revoked" }).waitFor()
    expect(await page.locator("#keys + table tbody tr", { hasText: "203.0.113.0/24" }).textContent()).toContain(
      "revoked",
    )
    expect((await s.call("POST", "/v1/verify/start", { key: secret, body: { to: "0551230106" } })).status).toBe(401)
    await context.close()
  })
})

describe("pause and unpause; the guard's state says so", () => {
  it("paused: no code goes out and the guard's state says paused; unpaused: codes go out again", async () => {
    const { app, key } = await setupApplication(s)
    const { context, page } = await newPage(browser())
    page.on("dialog", (d) => d.accept())
    await openSignedIn(page, `applications/${app.id}`)
    await page.getByRole("button", { name: "Pause the application" }).click()
    await page.getByRole("button", { name: "Unpause the application" }).waitFor()
    expect(await page.locator("#application-status").textContent()).toContain("Paused")
    await expectAccessible(page)
    const paused = await startWith(key, "0551230107")
    expect(paused.status).toBe(403)
    expect(paused.body.error).toBe("application_paused")
    await page.getByRole("link", { name: "Verify settings" }).click()
    expect(await page.locator("#paused-state").textContent()).toContain("Paused")

    await page.getByRole("link", { name: "Back to the application" }).click()
    await page.getByRole("button", { name: "Unpause the application" }).click()
    await page.getByRole("button", { name: "Pause the application" }).waitFor()
    await page.reload()
    expect(await page.locator("#application-status").textContent()).not.toContain("Paused")
    expect((await startWith(key, "0551230107")).status).toBe(200)
    await page.getByRole("link", { name: "Verify settings" }).click()
    expect(await page.locator("#paused-state").textContent()).toBe("Not paused")
    await context.close()
  })
})

describe("markup in a name is shown as text; an id of another kind or of nothing is refused", () => {
  it("an application named with HTML and script", async () => {
    const account = await s.console("POST", "/accounts", { name: "Markup Co" })
    const name = `<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">`
    const app = await s.console("POST", `/accounts/${account.id}/applications`, { name, approved: true })
    const { context, page } = await newPage(browser())
    await openSignedIn(page, `applications/${app.id}/verify`)
    expect(await page.locator("h1").textContent()).toBe(`Verify settings: ${name}`)
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined()
    expect(await page.locator("main img").count()).toBe(0)
    expectNoViolations(page)
    await context.close()
  })

  it("an account's id, a key's id or an unknown id in an application's URL: 404, nothing changed", async () => {
    const { account, app, key, keyId } = await setupApplication(s)
    const b = await signIn(s.baseUrl, s.consoleToken)
    for (const id of [account.id, keyId, "00000000-0000-4000-8000-000000000000", "not-an-id"]) {
      expect((await b.get(`/console/applications/${id}/verify`)).status, id).toBe(404)
      const post = await b.post(`/console/applications/${id}/verify`, { _csrf: b.csrf, code_length: "4" })
      expect(post.status, id).toBe(404)
      expect((await b.post(`/console/applications/${id}/pause`, { _csrf: b.csrf })).status, id).toBe(404)
    }
    expect((await startWith(key, "0551230108")).code).toHaveLength(6)
    expect(app.id).not.toBe(account.id)
  })
})
