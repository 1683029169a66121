/**
 * An application's webhook in the console, in Chromium (issue 33): the endpoint set (its signing secret shown
 * once), a test event sent and refused by the receiver, the delivery log with the attempt, a replay delivered;
 * the signing secret rotated (the new one shown once, the only one a later delivery verifies with), in English
 * and in Arabic.
 */
import { describe, expect, it } from "vitest"
import { useServer } from "../support/server.ts"
import { startReceiver, verify } from "../webhooks/receiver.ts"
import { expectAccessible, expectNoViolations, newPage, signInTo, useBrowser } from "./browser.ts"

const s = useServer({ webhookAllowPrivate: true })
const browser = useBrowser()

/** The simulated clock's advance runs the jobs that fall due (the webhook dispatcher among them). */
const runJobs = () => s.console("POST", "/simulator/clock", { advance_ms: 1_000 })

describe("webhooks: the endpoint, a test event, the delivery log with each attempt, a replay", () => {
  it("a refused test event is replayed from its log and delivered", async () => {
    let answer = 500
    const receiver = await startReceiver(() => ({ status: answer }))
    try {
      const account = await s.console("POST", "/accounts", { name: "Hooks Co" })
      const app = await s.console("POST", `/accounts/${account.id}/applications`, { name: "Hooks", approved: true })
      const { context, page } = await newPage(browser())
      await page.goto(`${s.baseUrl}/console/applications/${app.id}`)
      await page.getByLabel("Console token").fill(s.consoleToken)
      await page.getByRole("button", { name: "Sign in" }).click()
      await page.getByRole("link", { name: "Webhook" }).click()
      await expectAccessible(page)

      await page.getByLabel("Endpoint URL").fill(receiver.url)
      await page.getByRole("button", { name: "Save the endpoint" }).click()
      const secret = (await page.locator("#new-secret").textContent())!
      expect(secret.length).toBeGreaterThan(20)
      await page.getByRole("link", { name: "Continue" }).click()
      expect(await page.content()).not.toContain(secret)
      expect(await page.getByLabel("Endpoint URL").inputValue()).toBe(receiver.url)

      await page.getByRole("button", { name: "Send a test event" }).click()
      await runJobs()
      await receiver.waitFor(1)
      expect(receiver.received[0].body).toContain("verification.verified")
      await page.reload()
      expect(await page.locator("main table").textContent()).toContain("500")
      await expectAccessible(page)

      answer = 200
      await page.getByRole("button", { name: /^Replay/ }).first().click()
      await runJobs()
      await receiver.waitFor(2)
      await page.reload()
      const log = (await page.locator("main table").textContent())!
      expect(log).toContain("200")
      expect(await page.locator(".delivery-status").first().textContent()).toBe("succeeded")
      expectNoViolations(page)
      await context.close()
    } finally {
      await receiver.close()
    }
  })
})

/** A delivery verified as a receiver does, on the receiver's clock set to the delivery's timestamp. */
const verifiedWith = (secret: string, r: { headers: Record<string, string>; body: string }) =>
  verify(secret, r, Number(r.headers["webhook-timestamp"]) * 1000)

describe("webhooks: the signing secret rotated, shown once; a delivery after it is signed with the new one", () => {
  for (const locale of ["en", "ar"] as const) {
    it(`rotated, then a test event verified with the new secret and refused with the old (${locale})`, async () => {
      const receiver = await startReceiver(() => ({ status: 200 }))
      try {
        const account = await s.console("POST", "/accounts", { name: "Rotate Co" })
        const app = await s.console("POST", `/accounts/${account.id}/applications`, { name: "Rotor", approved: true })
        const put = await s.console("PUT", `/applications/${app.id}/webhook`, { url: receiver.url })
        const old = put.secret as string
        const path = `/console/applications/${app.id}/webhook`
        const { context, page } = await newPage(browser(), { locale })
        await signInTo(page, s, path)
        await expect(page.locator("html").getAttribute("dir")).resolves.toBe(locale === "ar" ? "rtl" : "ltr")
        await expectAccessible(page)

        // The button asks first (the console's script), then rotates.
        let asked = ""
        page.once("dialog", (d) => {
          asked = d.message()
          void d.accept()
        })
        await page.locator(`form[action$="/webhook/secret/rotate"] button`).click()
        await page.waitForURL((u) => u.pathname.endsWith("/webhook/secret/rotate"))
        expect(asked).toContain(locale === "ar" ? "سر التوقيع" : "signing secret")
        const fresh = (await page.locator("#new-secret").textContent())!
        expect(fresh).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
        expect(fresh).not.toBe(old)
        await expectAccessible(page)
        await page.locator(`main a[href$="/webhook"]`).click()
        expect(await page.content()).not.toContain(fresh)

        const sent = receiver.received.length
        await page.locator(`form[action$="/webhook/test"] button`).click()
        await runJobs()
        await receiver.waitFor(sent + 1)
        const delivery = receiver.received[sent]
        expect(verifiedWith(fresh, delivery)).toMatchObject({ event: "verification.verified", test: true })
        expect(() => verifiedWith(old, delivery)).toThrow()

        // The test event is in the delivery log, marked as a test, delivered.
        await page.reload()
        const log = page.locator("main table tbody tr")
        await expect(log.count()).resolves.toBe(1)
        const row = (await log.first().textContent())!
        expect(row).toContain("verification.verified")
        expect(row).toContain(locale === "ar" ? "تجريبي" : "(test)")
        await expect(page.locator(".delivery-status").first().textContent()).resolves.toBe("succeeded")
        await expectAccessible(page)
        expectNoViolations(page)
        await context.close()
      } finally {
        await receiver.close()
      }
    })
  }

  it("the console API: `POST /console/v1/applications/{id}/webhook/secret/rotate` answers the new secret once", async () => {
    const account = await s.console("POST", "/accounts", { name: "Rotate API Co" })
    const app = await s.console("POST", `/accounts/${account.id}/applications`, { name: "Rotor", approved: true })
    const none = await s.call("POST", `/console/v1/applications/${app.id}/webhook/secret/rotate`, {
      key: s.consoleToken,
      body: {},
    })
    expect(none.status).toBe(404)
    const put = await s.console("PUT", `/applications/${app.id}/webhook`, { url: "https://example.com/hooks" })
    const rotated = await s.console("POST", `/applications/${app.id}/webhook/secret/rotate`, {})
    expect(rotated).toEqual({ url: "https://example.com/hooks", secret: expect.stringMatching(/^whsec_/) })
    expect(rotated.secret).not.toBe(put.secret)
    // Setting the URL again keeps the rotated secret (the endpoint's secret is made once, then rotated only).
    const again = await s.console("PUT", `/applications/${app.id}/webhook`, { url: "https://example.com/other" })
    expect(again.secret).toBe(rotated.secret)
    const partner = await s.console("POST", "/accounts", { name: "Partner Rotor", partner: true })
    await s.console("PUT", `/accounts/${partner.id}/webhook`, { url: "https://example.com/p" })
    const partnerRotated = await s.console("POST", `/accounts/${partner.id}/webhook/secret/rotate`, {})
    expect(partnerRotated).toEqual({
      url: "https://example.com/p",
      secret: expect.stringMatching(/^whsec_/),
      events: [],
    })
  })
})
