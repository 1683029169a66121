/**
 * Partner clients in review in the console, in a real Chromium (issue 33, DECISIONS 13 and 14): the list of every
 * partner's pending clients with their logo, brand and what changed; approve (`console.applications.approve`);
 * reject with a reason code of the pinned list (`console.applications.reject`), a code outside it refused as the
 * field's error; the Partner API sees each move. English and Arabic right-to-left; markup in a brand shown as text.
 */
import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { useServer } from "../support/server.ts"
import { expectAccessible, expectNoViolations, newPage, signInTo, useBrowser } from "./browser.ts"
import { signIn } from "./web-support.ts"

const s = useServer()
const browser = useBrowser()

const png =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

/** A partner account with a partner key, and a way to call the Partner API with it. */
const partner = async (name: string) => {
  const account = await s.console("POST", "/accounts", { name, partner: true })
  const { key } = await s.console("POST", `/accounts/${account.id}/keys`, { mode: "partner" })
  const call = (method: string, path: string, body?: unknown) =>
    s.call(method, `/v1/partner${path}`, { key, ...(body === undefined ? {} : { body }) })
  return { account, call }
}

/** Opens `/console/<path>` and signs in on the way (the sign-in page sends the browser back). */
const openSignedIn = (page: Page, path: string, tokenLabel = "Console token") =>
  signInTo(page, s, `/console/${path}`, tokenLabel)

const review = (page: Page, name: string) => page.locator("li.review", { has: page.getByRole("heading", { name }) })

describe("the review list: logo, brand, what changed", () => {
  it("a new client and a client whose website changed after approval, each as the partner left it", async () => {
    const p = await partner("Reviews Partner")
    const fresh = await p.call("POST", "/applications", {
      name: "Fresh Bakery",
      website: "https://fresh.example",
      external_id: "merchant-17",
      logo: png,
    })
    expect(fresh.status).toBe(201)
    const moved = (await p.call("POST", "/applications", { name: "Moved Shop", website: "https://old.example" })).body
    await s.console("POST", `/applications/${moved.id}/approve`)
    const changed = await p.call("POST", `/applications/${moved.id}`, { website: "https://new.example" })
    expect(changed.body.status).toBe("pending")

    const { context, page } = await newPage(browser())
    await openSignedIn(page, "")
    await page.getByRole("link", { name: "Partner clients in review" }).first().click()
    expect(await page.locator("h1").textContent()).toBe("Partner clients in review")
    await expectAccessible(page)

    const first = review(page, "Fresh Bakery")
    expect(await first.locator(".what-changed").textContent()).toBe("A new application")
    expect(await first.textContent()).toContain("https://fresh.example")
    expect(await first.textContent()).toContain("merchant-17")
    expect(await first.textContent()).toContain("Reviews Partner")
    const logo = first.getByRole("img", { name: "Logo of Fresh Bakery" })
    await expect(logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).resolves.toBe(1)

    const second = review(page, "Moved Shop")
    expect(await second.locator(".what-changed").textContent()).toMatch(/^website \(/)
    expect(await second.textContent()).toContain("https://new.example")
    expect(await second.textContent()).toContain("Approved before")
    expect(await second.textContent()).toContain("No logo")
    expectNoViolations(page)
    await context.close()
  })
})

describe("approve; reject with a reason code from the pinned list", () => {
  it("approved: gone from the list, active for the partner; rejected: rejected with its reason and note", async () => {
    const p = await partner("Moves Partner")
    const good = (await p.call("POST", "/applications", { name: "Good Client", website: "https://good.example" }))
      .body
    const bad = (await p.call("POST", "/applications", { name: "Bad Client", website: "https://bad.example" })).body

    const { context, page } = await newPage(browser())
    await openSignedIn(page, "reviews")
    await page.getByRole("button", { name: /^Approve the application\W+Good Client$/ }).click()
    await page.waitForURL((u) => u.pathname === "/console/reviews")
    expect(await review(page, "Good Client").count()).toBe(0)
    expect((await p.call("GET", `/applications/${good.id}`)).body.status).toBe("active")

    const card = review(page, "Bad Client")
    await card.getByLabel("Reason").selectOption("brand_mismatch")
    await card.getByLabel("Note").fill("The name on the site is another shop's.")
    await card.getByRole("button", { name: /^Reject the application\W+Bad Client$/ }).click()
    await page.waitForURL((u) => u.pathname === "/console/reviews")
    await page.reload()
    expect(await review(page, "Bad Client").count()).toBe(0)
    const rejected = (await p.call("GET", `/applications/${bad.id}`)).body
    expect(rejected.status).toBe("rejected")
    expect(rejected.reason_code).toBe("brand_mismatch")
    expect(rejected.appealable).toBe(true)
    await expectAccessible(page)
    await context.close()
  })

  it("a reason code outside the pinned list is the field's error; an id not in review is refused; nothing moves", async () => {
    const p = await partner("Forged Partner")
    const app = (await p.call("POST", "/applications", { name: "Forged Client", website: "https://f.example" })).body
    const b = await signIn(s.baseUrl, s.consoleToken)
    const forged = await b.post(`/console/reviews/${app.id}/reject`, { _csrf: b.csrf, reason_code: "looks_odd" })
    expect(forged.status).toBe(400)
    const html = await forged.text()
    expect(html).toContain(`id="reason-${app.id}-error"`)
    expect(html).toMatch(new RegExp(`id="reason-${app.id}"[^>]*aria-invalid="true"`))
    expect((await p.call("GET", `/applications/${app.id}`)).body.status).toBe("pending")

    // Approved, it is no longer in review: rejecting it now is refused as the operation refuses it (409).
    expect((await b.post(`/console/reviews/${app.id}/approve`, { _csrf: b.csrf })).status).toBe(303)
    const late = await b.post(`/console/reviews/${app.id}/reject`, { _csrf: b.csrf, reason_code: "impersonation" })
    expect(late.status).toBe(409)
    expect((await p.call("GET", `/applications/${app.id}`)).body.status).toBe("active")
    // An account's id, or an id of nothing: 404.
    for (const id of [p.account.id, "00000000-0000-4000-8000-000000000000", "x"]) {
      expect((await b.post(`/console/reviews/${id}/approve`, { _csrf: b.csrf })).status, id).toBe(404)
    }
    // Without the CSRF token: nothing moves.
    const other = (await p.call("POST", "/applications", { name: "Other", website: "https://o.example" })).body
    expect((await b.post(`/console/reviews/${other.id}/approve`, {})).status).toBe(403)
    expect((await p.call("GET", `/applications/${other.id}`)).body.status).toBe("pending")
  })
})

describe("in Arabic, right-to-left; markup in a brand shown as text", () => {
  it("the list in Arabic with a brand and website full of markup", async () => {
    const p = await partner("Arabic Partner")
    const name = `<script>window.__pwned=1</script><b onmouseover="x">متجر</b>`
    expect((await p.call("POST", "/applications", { name, website: "https://ar.example/<i>x</i>" })).status).toBe(201)
    const { context, page } = await newPage(browser(), { locale: "ar-SA" })
    await openSignedIn(page, "reviews", "رمز لوحة التحكم")
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl")
    expect(await page.locator("h1").textContent()).toBe("عملاء الشركاء قيد المراجعة")
    const card = review(page, name)
    expect(await card.count()).toBe(1)
    expect(await card.locator(".what-changed").textContent()).toBe("تطبيق جديد")
    expect(await page.locator("main b, main script").count()).toBe(0)
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined()
    await expectAccessible(page)
    expectNoViolations(page)
    await context.close()
  })
})
